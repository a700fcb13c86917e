// Shared by the construct programs: a seeded generator and a bit-exact
// print of every value, so plain and converted builds can be compared byte
// for byte (test/Exec/constructs/*.cpp).
#ifndef CONSTRUCTS_COMMON_H
#define CONSTRUCTS_COMMON_H
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace corpus {
inline std::uint64_t &state() {
  static std::uint64_t S = 1;
  return S;
}
inline void seed(int argc, char **argv) {
  state() = argc > 1 ? std::strtoull(argv[1], nullptr, 10) * 2654435761u + 1 : 1;
}
inline double uniform() {
  state() = state() * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(state() >> 11) / (double)(1ULL << 53);
}
inline int count(int argc, char **argv, int dflt) {
  return argc > 2 ? std::atoi(argv[2]) : dflt;
}
template <class T> void print(const char *Name, const T &V) {
  unsigned char B[sizeof(T)];
  std::memcpy(B, &V, sizeof(T));
  std::printf("%s ", Name);
  for (unsigned I = 0; I < sizeof(T); ++I)
    std::printf("%02x", B[I]);
  std::printf("\n");
}
} // namespace corpus
#endif
