// The demonstrator's initial particles, shared by its drivers (main.cpp,
// mpi.cpp): every driver draws all particles in order from one random
// stream, so that one process and every rank of an MPI run agree on each.
#ifndef SOAVIEW_SPH_INITIAL_H
#define SOAVIEW_SPH_INITIAL_H

#include "particle.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

namespace sph {

/// Cells per side of a square system of about `particles` particles with
/// ppc per cell (at least 3: every cell has its eight neighbours).
inline long gridOf(long ppc, long particles) {
  return std::max(3L, std::lround(std::sqrt(double(particles) / ppc)));
}

/// Draws particle k of a grid x grid system of cells with ppc particles
/// each, cell by cell (cell-major): its position in cell k / ppc, velocity,
/// mass, smoothing length (support below one cell: the neighbours are the
/// adjacent cells) and thermodynamic state.
inline void drawParticle(Particle &p, long k, long ppc, long grid,
                         std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> U(0, 1);
  std::memset(&p, 0, sizeof p);
  long c = k / ppc;
  p.x[0] = c % grid + U(rng);
  p.x[1] = c / grid + U(rng);
  for (int d = 0; d < 2; ++d) {
    p.v[d] = U(rng) - 0.5;
    p.a[d] = U(rng) - 0.5;
    p.v_full[d] = p.v[d] + 0.01 * (U(rng) - 0.5);
  }
  p.mass = 1 + 0.1 * U(rng);
  p.h = 0.8 + 0.15 * U(rng);
  p.rho = ppc * (0.8 + 0.4 * U(rng));
  p.u = 1 + U(rng);
  p.u_dt = U(rng) - 0.5;
  p.pressure = (kGamma - 1) * p.rho * p.u;
  p.soundspeed = std::sqrt(kGamma * p.pressure / p.rho);
  p.f_grad = 0.9 + 0.2 * U(rng);
  p.balsara = U(rng);
  p.h_dt = 0.1 * (U(rng) - 0.5);
  p.id = k;
  p.cell = static_cast<std::int32_t>(c);
}

} // namespace sph

#endif
