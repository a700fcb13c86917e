// [Radtke2025], Listings 1 and 3 (docs/references.md): a density loop over pairs of particles held
// in two lists of pointers, the local set (one cell) and the active set (the
// cell and its neighbours, so the two share particles). The physics lives in
// free functions taking two particles. The inner view is hoisted out of the
// outer loop: the active set is gathered once per cell, not once per local
// particle.
#include "common.h"

#include <cmath>
#include <list>
#include <memory>
#include <vector>

struct Particle {
  double x[2];
  double h;        // smoothing length
  double mass;
  double rho;      // density (written through the local view only)
  double wcount;   // neighbour count
  int id;
  char admin[64];  // never touched by the kernel
};

// Quartic spline shape, unnormalised.
static double kernelW(double q) {
  double t = 1.0 - q;
  return t > 0 ? t * t * t * t * (1 + 4 * q) : 0.0;
}

bool densityPredicate(const Particle *local, const Particle *active) {
  if (local == active) // no self-interaction: compares the original objects
    return false;
  double dx = local->x[0] - active->x[0], dy = local->x[1] - active->x[1];
  return dx * dx + dy * dy < local->h * local->h;
}

void density(Particle *local, const Particle *active) {
  double dx = local->x[0] - active->x[0], dy = local->x[1] - active->x[1];
  double q = std::sqrt(dx * dx + dy * dy) / local->h;
  local->rho += active->mass * kernelW(q);
  local->wcount += 1;
}

void forAllParticlePairs(std::list<Particle *> &localParticles,
                         std::list<Particle *> &activeParticles) {
  [[clang::soa_conversion]]
  for (auto *localParticle : localParticles) {
    [[clang::soa_conversion_hoist(1)]]
    for (auto *activeParticle : activeParticles) {
      if (densityPredicate(localParticle, activeParticle)) {
        density(localParticle, activeParticle);
      }
    }
  }
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv); // n = particles per cell
  std::mt19937_64 rng(a.seed);
  std::uniform_real_distribution<double> U(0, 1);
  const int cells = 6; // a ring of cells; each cell's neighbours are i-1, i+1
  std::vector<std::unique_ptr<Particle>> owner;
  std::vector<std::list<Particle *>> cell(cells);
  for (int c = 0; c < cells; ++c)
    for (long i = 0; i < a.n; ++i) {
      auto p = std::make_unique<Particle>();
      p->x[0] = c + U(rng);
      p->x[1] = U(rng);
      p->h = 0.3 + 0.2 * U(rng);
      p->mass = 1 + U(rng);
      p->rho = 0;
      p->wcount = 0;
      p->id = static_cast<int>(owner.size());
      cell[c].push_back(p.get());
      owner.push_back(std::move(p));
    }
  for (int r = 0; r < a.reps; ++r)
    for (int c = 0; c < cells; ++c) {
      std::list<Particle *> active;
      for (int d = -1; d <= 1; ++d)
        for (Particle *p : cell[(c + d + cells) % cells])
          active.push_back(p);
      forAllParticlePairs(cell[c], active);
    }
  double rho = 0, wc = 0;
  for (auto &p : owner) {
    rho += p->rho * (1 + p->id % 3);
    wc += p->wcount;
  }
  printValue("rho", rho);
  printValue("wcount", wc);
}
