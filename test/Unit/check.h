// CHECK() for the runtime's unit tests: reports and counts, never aborts.
#pragma once
#include <cstdio>

inline int Failures = 0;
#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,    \
                   #c);                                                        \
      ++Failures;                                                              \
    }                                                                          \
  } while (0)

/// The end of a unit test's main(): a line saying whether every check
/// passed, and the exit status.
inline int checksDone(const char *Test) {
  if (Failures)
    std::fprintf(stderr, "%s: %d check(s) failed\n", Test, Failures);
  else
    std::printf("%s: all checks passed\n", Test);
  return Failures != 0;
}
