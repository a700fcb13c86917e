// Shared by the backend benchmark's two sources (docs/offload.md, "CUDA
// backend"): backend_bench.cpp (annotated; built by soaview-translate
// --backend=cuda + nvcc, and by soaview-clang++ with OpenMP offload) and
// backend_manual.cu (the same loops written by hand in CUDA over SoA
// arrays). Both print, per kernel and size, the median per-call time end to
// end and the medians of its phases (measured in separate, synchronised
// calls), so the generated kernel is compared with the hand-written one and
// the per-call overhead is reported apart from the kernel.
#ifndef SOAVIEW_BACKEND_BENCH_H
#define SOAVIEW_BACKEND_BENCH_H

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Particle {
  double x[3], v[3], a[3];
  double mass, h, rho, p, u, du, cs;
  double admin[18]; // 34 doubles = 272 bytes, as in [Radtke2025], section 2.2
};
static_assert(sizeof(Particle) == 272, "paper-sized particle");

constexpr double kDt = 1e-3;

// Functions the kernels call run on the device too: marked by a macro that
// is empty for every compiler but nvcc (soaview accepts such a mark).
#ifdef __CUDACC__
#define BENCH_HD __host__ __device__
#else
#define BENCH_HD
#endif

/// A smoothing kernel of r^2 and h (the pair kernel's physics).
BENCH_HD inline double bench_w(double r2, double h) {
  double q = 1 - r2 / (h * h);
  return q > 0 ? q * q * q / (h * h) : 0.0;
}

inline std::vector<Particle> make_particles(long n, unsigned seed) {
  std::vector<Particle> ps(static_cast<std::size_t>(n));
  unsigned s = seed;
  auto rnd = [&] {
    s = s * 1664525u + 1013904223u;
    return (s >> 8) * (1.0 / 16777216.0);
  };
  for (Particle &p : ps) {
    for (int d = 0; d < 3; ++d) {
      p.x[d] = rnd();
      p.v[d] = rnd() - 0.5;
    }
    p.mass = 0.5 + rnd();
    p.h = 0.05 + 0.1 * rnd();
    p.rho = 0;
  }
  return ps;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

inline double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline double checksum(const std::vector<Particle> &ps) {
  double s = 0;
  for (const Particle &p : ps)
    s += p.x[0] + p.x[1] + p.x[2] + p.rho;
  return s;
}

/// Phases, microseconds: gather, to device, kernel, from device, scatter.
struct Phases {
  double us[5] = {0, 0, 0, 0, 0};
};

inline void print_header() {
  std::printf("variant,kernel,n,us_per_call,gather_us,to_device_us,kernel_us,"
              "from_device_us,scatter_us,checksum\n");
}
inline void print_row(const char *variant, const char *kernel, long n,
                      double total, const Phases &ph, double sum) {
  std::printf("%s,%s,%ld,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.9e\n", variant,
              kernel, n, total, ph.us[0], ph.us[1], ph.us[2], ph.us[3],
              ph.us[4], sum);
}

/// Measures one kernel: the median whole-call time of `reps` calls after 2
/// warm-up calls, then the median phases of `reps` more calls, each timed
/// by `profiled(call)` (which returns the phases of one synchronised call).
template <class Call, class Profile>
void measure(const char *variant, const char *kernel, long n, int reps,
             Call &&call, Profile &&profiled, const std::vector<Particle> &ps) {
  std::vector<double> total, ph[5];
  for (int r = 0; r < reps + 2; ++r) {
    double t0 = now_us();
    call();
    double t1 = now_us();
    if (r >= 2)
      total.push_back(t1 - t0);
  }
  for (int r = 0; r < reps; ++r) {
    Phases one = profiled(call);
    for (int k = 0; k < 5; ++k)
      ph[k].push_back(one.us[k]);
  }
  Phases m;
  for (int k = 0; k < 5; ++k)
    m.us[k] = median(ph[k]);
  print_row(variant, kernel, n, median(total), m, checksum(ps));
}

/// The benchmark's driver, shared by every variant: `REPS N...`; drift for
/// every n, density (local = active) for n <= 32768.
template <class Profile>
int run_bench(const char *variant, int argc, char **argv,
              void (*drift)(std::vector<Particle> &),
              void (*density)(std::vector<Particle *> &, std::vector<Particle *> &),
              Profile &&profiled) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  print_header();
  for (int k = 2; k < argc; ++k) {
    long n = std::atol(argv[k]);
    std::vector<Particle> ps = make_particles(n, 1);
    measure(variant, "drift", n, reps, [&] { drift(ps); }, profiled, ps);
    if (n > 32768)
      continue;
    std::vector<Particle> qs = make_particles(n, 2);
    std::vector<Particle *> ptrs;
    for (Particle &q : qs)
      ptrs.push_back(&q);
    measure(variant, "density", n, reps, [&] { density(ptrs, ptrs); },
            profiled, qs);
  }
  return 0;
}

#endif
