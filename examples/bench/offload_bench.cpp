// Per-call cost of an offloaded streaming loop over a 272-byte particle:
//   soaview   - [[soa_conversion_offload_compute]]: gather 3 fields, copy
//               them to the device pool, kernel, copy 1 field back, scatter
//   aos-map   - the unconverted loop offloaded as is: the whole AoS array is
//               mapped to the device and back on every call
//   host      - the plain host loop
// Prints one line per (variant, n): median microseconds per call over REPS
// calls after 2 warm-up calls. Run with SOAVIEW_STATS=1 to see that the
// soaview site allocates device memory only while warming up.
// Usage: offload_bench REPS N...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Particle {
  double x[3], v[3], a[3];
  double mass, h, rho, p, u, du, cs;
  double admin[18]; // 34 doubles = 272 bytes
};
static_assert(sizeof(Particle) == 272, "paper-sized particle");

void drift_soaview(std::vector<Particle> &ps, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle &p : ps)
    for (int d = 0; d < 3; ++d)
      p.x[d] += p.v[d] * dt;
}

void drift_aos_map(std::vector<Particle> &ps, double dt) {
  Particle *p = ps.data();
  long n = static_cast<long>(ps.size());
#pragma omp target teams distribute parallel for map(tofrom : p[0 : n])
  for (long i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d)
      p[i].x[d] += p[i].v[d] * dt;
}

void drift_host(std::vector<Particle> &ps, double dt) {
  for (Particle &p : ps)
    for (int d = 0; d < 3; ++d)
      p.x[d] += p.v[d] * dt;
}

template <class F> double median_us(int reps, F &&f) {
  std::vector<double> t;
  for (int r = 0; r < reps + 2; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    if (r >= 2)
      t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  std::printf("variant,n,us_per_call,ns_per_element,checksum\n");
  for (int k = 2; k < argc; ++k) {
    long n = std::atol(argv[k]);
    std::vector<Particle> base(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) {
        base[i].x[d] = i * 1e-3 + d;
        base[i].v[d] = 1.0 / (1 + d);
      }
    struct V {
      const char *name;
      void (*f)(std::vector<Particle> &, double);
    } vs[] = {{"soaview", drift_soaview}, {"aos-map", drift_aos_map},
              {"host", drift_host}};
    for (const V &v : vs) {
      std::vector<Particle> ps = base;
      int r = n >= 50000000 ? std::min(reps, 3) : reps; // 27 GB per copy
      double us = median_us(r, [&] { v.f(ps, 1e-3); });
      double sum = 0;
      for (const Particle &p : ps)
        sum += p.x[0] + p.x[1] + p.x[2];
      std::printf("%s,%ld,%.1f,%.3f,%.9e\n", v.name, n, us, us * 1e3 / n, sum);
    }
  }
}
