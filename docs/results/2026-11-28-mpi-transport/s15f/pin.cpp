// CPU access to pinned memory: is memory from cudaHostAlloc slower for the
// host's gathers and scatters than malloc'ed memory, pinned with
// cudaHostRegister or not? A gather writes 25 double fields of 16384
// 272-byte structs (through a pointer array) into slots of 25 buffers of
// 540k slots; a scatter reads them back into the structs. One pass per
// block of 1,024 slots (every field) or 5 (5 fields each); 1 and 16
// threads; warm (best of 20) and cold (a 512 MiB sweep between runs,
// median of 10). Microseconds.
#include <cuda_runtime.h>
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
struct P { double f[34]; };
constexpr int kF = 25;
constexpr size_t kSlots = 540000, kN = 16384, kBase = 524288 - 8000;
static double now() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static std::vector<char> junk(512u << 20);
static void flush() {
#pragma omp parallel for num_threads(16)
  for (size_t i = 0; i < junk.size(); i += 64) junk[i]++;
}
template <bool Gather>
static double once(double **buf, P *const *el, int threads, int passes) {
  double t0 = now();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (size_t b = 0; b < kN; b += 1024)
    for (int pass = 0; pass < passes; ++pass)
      for (size_t j = b; j < b + 1024; ++j) {
        P &x = *el[j];
        for (int f = pass; f < kF; f += passes)
          if (Gather) buf[f][kBase + j] = x.f[f]; else x.f[f] = buf[f][kBase + j];
      }
  return now() - t0;
}
template <bool Gather>
static void row(const char *kind, double **buf, P *const *el) {
  for (int threads : {1, 16})
    for (int passes : {1, 5}) {
      double warm = 1e30;
      for (int r = 0; r < 20; ++r) warm = std::min(warm, once<Gather>(buf, el, threads, passes));
      std::vector<double> cold;
      for (int r = 0; r < 10; ++r) { flush(); cold.push_back(once<Gather>(buf, el, threads, passes)); }
      std::sort(cold.begin(), cold.end());
      std::printf("%-16s %-7s threads %2d passes %d: warm %8.1f cold %8.1f us\n", kind,
                  Gather ? "gather" : "scatter", threads, passes, warm, cold[5]);
    }
}
int main() {
  std::vector<P> store(kN * 3);
  for (size_t i = 0; i < store.size(); ++i) for (int f = 0; f < 34; ++f) store[i].f[f] = i + f;
  std::vector<P *> el(kN);
  for (size_t j = 0; j < kN; ++j) el[j] = &store[kN + j];
  const size_t bytes = kSlots * sizeof(double);
  const char *name[] = {"cudaHostAlloc", "malloc", "malloc+register"};
  for (int kind = 0; kind < 3; ++kind) {
    double *buf[kF];
    for (int f = 0; f < kF; ++f) {
      void *p = nullptr;
      if (kind == 0) { if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) { std::printf("cudaHostAlloc failed\n"); return 1; } }
      else {
        p = std::aligned_alloc(4096, (bytes + 4095) & ~size_t(4095));
        std::memset(p, 0, bytes);
        if (kind == 2 && cudaHostRegister(p, (bytes + 4095) & ~size_t(4095), cudaHostRegisterPortable) != cudaSuccess) { std::printf("register failed\n"); return 1; }
      }
      buf[f] = static_cast<double *>(p);
      std::memset(buf[f], 0, bytes);
    }
    row<true>(name[kind], buf, el.data());
    row<false>(name[kind], buf, el.data());
  }
  return 0;
}
