// The microbenchmark of docs/benchmarks.md, "Where a sweep's host time
// goes": n structs of 304 bytes, one heap allocation each, in random order;
// a gather of 20 of their fields into one buffer per field, on all OpenMP
// threads, with the caches flushed before each of 5 repetitions (best of 5),
// without and with a prefetch of the struct `dist` slots ahead.
//   clang++-19 -O2 -fopenmp prefetch_bench.cpp -o pf && ./pf N DIST FIELDS
#include <vector>
#include <random>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <omp.h>
struct P { double f[30]; long id; int a, b; double t[4]; char tag[16]; };
static_assert(sizeof(P) == 304);
int main(int argc, char **argv) {
  size_t n = argc > 1 ? atol(argv[1]) : 131072; int dist = argc > 2 ? atoi(argv[2]) : 16;
  int nf = argc > 3 ? atoi(argv[3]) : 20;
  std::vector<P*> ps(n); std::vector<P*> pool;
  for (size_t i = 0; i < n; ++i) { ps[i] = new P; for (int k=0;k<30;++k) ps[i]->f[k]=i+k; }
  std::mt19937 g(1); std::shuffle(ps.begin(), ps.end(), g);
  std::vector<std::vector<double>> buf(nf, std::vector<double>(n));
  // flush caches between reps by touching a big array
  std::vector<char> big(256<<20, 1);
  for (int mode = 0; mode < 2; ++mode) {
    double best = 1e9;
    for (int rep = 0; rep < 5; ++rep) {
      for (size_t i = 0; i < big.size(); i += 64) big[i]++;
      auto t0 = std::chrono::steady_clock::now();
      #pragma omp parallel for schedule(static)
      for (size_t j = 0; j < n; ++j) {
        if (mode && j + dist < n) { const char *q = (const char*)ps[j+dist]; for (int l = 0; l < (int)sizeof(P); l += 64) __builtin_prefetch(q + l); }
        const P &x = *ps[j];
        for (int k = 0; k < nf; ++k) buf[k][j] = x.f[(k * 7) % 30];
      }
      double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = std::min(best, t);
    }
    std::printf("mode %s dist %d fields %d: %.1f ns/elem (%d threads)\n", mode ? "prefetch" : "plain", dist, nf, best * 1e9 / n, omp_get_max_threads());
  }
}
