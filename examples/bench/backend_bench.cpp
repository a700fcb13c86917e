// The backend benchmark's annotated source (see backend_bench.h): a
// streaming kernel (drift: x += v dt over n particles) and an SPH-like pair
// kernel (density: each of n local particles sums over n active ones, the
// active view hoisted out of the offloaded loop). Built twice:
//   soaview-translate --backend=cuda + nvcc      -> variant "cuda"
//   soaview-clang++ -fopenmp --offload-arch=...  -> variant "openmp"
// Usage: backend_bench REPS N... (pair sizes are capped at 32768)
#include "backend_bench.h"

#include <soaview/soaview.h>

void drift(std::vector<Particle> &ps) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle &p : ps)
    for (int d = 0; d < 3; ++d)
      p.x[d] += p.v[d] * kDt;
}

void density(std::vector<Particle *> &local, std::vector<Particle *> &active) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Particle *pj : active) {
      double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1],
             dz = pi->x[2] - pj->x[2];
      pi->rho += pj->mass * bench_w(dx * dx + dy * dy + dz * dz, pi->h);
    }
  }
}

#ifndef BENCH_VARIANT
#define BENCH_VARIANT "soaview"
#endif

int main(int argc, char **argv) {
  // The phases, from soaview's own timers (each phase synchronised).
  auto profiled = [](auto &call) {
    soaview::rt::reset_phases();
    soaview::rt::set_profiling(true);
    call();
    soaview::rt::set_profiling(false);
    const soaview::rt::phase_times t = soaview::rt::phase_totals();
    Phases p;
    for (int k = 0; k < 5; ++k)
      p.us[k] = t.ns[k] * 1e-3;
    return p;
  };
  return run_bench(BENCH_VARIANT, argc, argv, drift, density, profiled);
}
