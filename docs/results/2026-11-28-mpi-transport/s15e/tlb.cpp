// Does pinned memory's page size slow the region's host gathers? Gathers
// 25 double fields of 16384 contiguous 272-byte structs (through a pointer
// array) into slots [base, base+n) of 25 buffers of 540k slots each, as a
// region's refresh does, on 1 and 16 threads, with the buffers from
// cudaHostAlloc, from malloc, and from 2 MiB-aligned THP memory registered
// with cudaHostRegister. Best of 20, microseconds.
#include <cuda_runtime.h>
#include <omp.h>
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
struct P { double f[34]; };  // 272 bytes
constexpr int kF = 25;
constexpr size_t kSlots = 540000, kN = 16384, kBase = 524288 - 8000;
double now() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
double run(double **buf, P *const *el, int threads, int passes) {
  double best = 1e30;
  for (int rep = 0; rep < 20; ++rep) {
    double t0 = now();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (size_t b = 0; b < kN; b += 1024)
      for (int pass = 0; pass < passes; ++pass)
        for (size_t j = b; j < b + 1024; ++j) {
          const P &x = *el[j];
          for (int f = pass; f < kF; f += passes) buf[f][kBase + j] = x.f[f];
        }
    double t = now() - t0;
    if (t < best) best = t;
  }
  return best;
}
int main() {
  std::system("cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag 2>&1");
  std::vector<P> store(kN * 3);
  for (size_t i = 0; i < store.size(); ++i) for (int f = 0; f < 34; ++f) store[i].f[f] = i + f;
  std::vector<P *> el(kN);
  for (size_t j = 0; j < kN; ++j) el[j] = &store[kN + j];
  const size_t bytes = kSlots * sizeof(double);
  const size_t huge = (bytes + (2u << 20) - 1) & ~size_t((2u << 20) - 1);
  for (int kind = 0; kind < 3; ++kind) {
    double *buf[kF];
    for (int f = 0; f < kF; ++f) {
      void *p = nullptr;
      if (kind == 0) cudaHostAlloc(&p, bytes, cudaHostAllocPortable);
      else if (kind == 1) { p = std::malloc(bytes); std::memset(p, 0, bytes); }
      else {
        p = std::aligned_alloc(2u << 20, huge);
        madvise(p, huge, MADV_HUGEPAGE);
        std::memset(p, 0, huge);
        if (cudaHostRegister(p, huge, cudaHostRegisterPortable) != cudaSuccess) std::printf("register failed\n");
      }
      buf[f] = static_cast<double *>(p);
      std::memset(buf[f], 0, bytes);
    }
    const char *name[] = {"cudaHostAlloc", "malloc", "THP+cudaHostRegister"};
    for (int threads : {1, 16})
      for (int passes : {1, 6})
        std::printf("%-22s threads %2d passes %d: %8.1f us\n", name[kind], threads, passes, run(buf, el.data(), threads, passes));
    std::system("grep -i AnonHugePages /proc/self/smaps_rollup 2>/dev/null");
  }
  return 0;
}
