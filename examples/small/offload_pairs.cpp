// An offloaded pair loop ([Radtke2025]'s GPU experiment, section 7.5): the outer
// loop over a cell's local particles runs on the device; the inner view of
// the active set is hoisted out of it, copied to the device once, and the
// inner loop runs in the target region over the device buffers.
#include "common.h"

#include <cmath>
#include <memory>
#include <vector>

struct Particle {
  double x[2];
  double h;
  double mass;
  double rho;
  double wcount;
  int id;
  char admin[64]; // never touched by the kernel
};

static double kernelW(double q) {
  double t = 1.0 - q;
  return t > 0 ? t * t * t * t * (1 + 4 * q) : 0.0;
}

void density(Particle *l, const Particle *a) {
  double dx = l->x[0] - a->x[0], dy = l->x[1] - a->x[1];
  double r2 = dx * dx + dy * dy;
  if (r2 < l->h * l->h) {
    l->rho += a->mass * kernelW(std::sqrt(r2) / l->h);
    l->wcount += 1;
  }
}

void cellDensity(std::vector<Particle *> &local, std::vector<Particle *> &active) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle *l : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Particle *a : active)
      density(l, a);
  }
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv); // n = particles per cell
  std::mt19937_64 rng(a.seed);
  std::uniform_real_distribution<double> U(0, 1);
  const int cells = 5; // a ring of cells; each cell's neighbours are i-1, i+1
  std::vector<std::unique_ptr<Particle>> owner;
  std::vector<std::vector<Particle *>> cell(cells);
  for (int c = 0; c < cells; ++c)
    for (long i = 0; i < a.n; ++i) {
      auto p = std::make_unique<Particle>();
      p->x[0] = c + U(rng);
      p->x[1] = U(rng);
      p->h = 0.3 + 0.2 * U(rng);
      p->mass = 1 + U(rng);
      p->rho = p->wcount = 0;
      p->id = static_cast<int>(owner.size());
      cell[c].push_back(p.get());
      owner.push_back(std::move(p));
    }
  for (int r = 0; r < a.reps; ++r)
    for (int c = 0; c < cells; ++c) {
      std::vector<Particle *> active;
      for (int d = -1; d <= 1; ++d)
        for (Particle *p : cell[(c + d + cells) % cells])
          active.push_back(p);
      cellDensity(cell[c], active);
    }
  double rho = 0, wc = 0;
  for (auto &p : owner) {
    rho += p->rho * (1 + p->id % 3);
    wc += p->wcount;
  }
  printValue("rho", rho);
  printValue("wcount", wc);
}
