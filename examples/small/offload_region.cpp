// A view region (docs/offload.md, "View regions"): the time-step loop carries
// soa_conversion_region, so the sweeps it runs -- in the functions it calls
// -- share one set of buffers: each field is gathered and copied to the
// device the first time a sweep uses it, each sweep's index is built once,
// and what the sweeps wrote is copied back and scattered once, when the
// region ends. The cells form a ring; every other cell's active list also
// holds "ghosts" that are local in no cell. A host loop in the region
// (damp) and a sweep over other inner lists (countHeavy) show the rest of
// the rules: the host loop first gets the region's fields written back, the
// sweep with other ghosts gives the region new slots.
#include "common.h"

#include <cmath>
#include <memory>
#include <vector>

struct Particle {
  double x[2];
  double v[2];
  double a[2];
  double h;
  double mass;
  double rho;
  double wcount;
  int id;
  char admin[64]; // never touched by the kernels
};

struct Cell {
  std::vector<Particle *> local, active;
};

static double kernelW(double q) {
  double t = 1.0 - q;
  return t > 0 ? t * t * t * t * (1 + 4 * q) : 0.0;
}

static void density(Particle *l, const Particle *a) {
  double dx = l->x[0] - a->x[0], dy = l->x[1] - a->x[1];
  double r2 = dx * dx + dy * dy;
  if (r2 < l->h * l->h) {
    l->rho += a->mass * kernelW(std::sqrt(r2) / l->h);
    l->wcount += 1;
  }
}

static void force(Particle *l, const Particle *a) {
  double dx = l->x[0] - a->x[0], dy = l->x[1] - a->x[1];
  double r2 = dx * dx + dy * dy;
  if (r2 < l->h * l->h && r2 > 0) {
    double f = a->mass * (1 / (l->rho + 1) + 1 / (a->rho + 1)) / (r2 + 0.01);
    l->a[0] += f * dx;
    l->a[1] += f * dy;
  }
}

void densitySweep(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (Particle *l : c.local) {
      l->rho = 0;
      l->wcount = 0;
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *a : c.active)
        density(l, a);
    }
  }
}

void forceSweep(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (Particle *l : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *a : c.active)
        force(l, a);
    }
  }
}

// A linear sweep: kick and drift, then the accelerations start again.
void kickDrift(std::vector<Cell> &cells, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t i = 0; i < cells.size(); ++i)
    [[clang::soa_conversion]]
    for (Particle *p : cells[i].local) {
      p->v[0] += dt * p->a[0];
      p->v[1] += dt * p->a[1];
      p->x[0] += dt * p->v[0];
      p->x[1] += dt * p->v[1];
      p->a[0] = p->a[1] = 0;
    }
}

// A host loop in the region: the region writes its fields back first.
void damp(std::vector<Cell> &cells) {
  for (Cell &c : cells)
    [[clang::soa_conversion("always")]]
    for (Particle *p : c.local)
      p->v[0] *= 0.999;
}

// Inner lists that are temporaries, with other ghosts than the active
// lists: the region's slots start again for them.
std::vector<Particle *> heavy(const Cell &c) {
  std::vector<Particle *> r;
  for (Particle *p : c.active)
    if (p->id % 3 == 0)
      r.push_back(p);
  return r;
}

void countHeavy(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (const Cell &c : cells) {
    [[clang::soa_conversion]]
    for (Particle *l : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *a : heavy(c))
        l->wcount += a->mass * 0.5;
    }
  }
}

// mode 0: the sweeps only; 1: with the host loop; 2: with every kind.
void run(std::vector<Cell> &cells, int steps, int mode) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < steps; ++s) {
    densitySweep(cells);
    forceSweep(cells);
    kickDrift(cells, 1e-3);
    if (mode >= 1 && s % 2 == 1)
      damp(cells);
    if (mode >= 2)
      countHeavy(cells);
  }
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv); // n: particles per cell, reps: steps
  const int modes = argc > 4 ? std::atoi(argv[4]) : 3;
  std::mt19937_64 rng(a.seed);
  std::uniform_real_distribution<double> U(0, 1);
  const int cells = 6;
  std::vector<std::unique_ptr<Particle>> owner;
  std::vector<Cell> cell(cells);
  auto make = [&](double x0) {
    auto p = std::make_unique<Particle>();
    p->x[0] = x0 + U(rng);
    p->x[1] = U(rng);
    p->v[0] = U(rng) - 0.5;
    p->v[1] = U(rng) - 0.5;
    p->a[0] = p->a[1] = 0;
    p->h = 0.3 + 0.2 * U(rng);
    p->mass = 1 + U(rng);
    p->rho = p->wcount = 0;
    p->id = static_cast<int>(owner.size());
    Particle *raw = p.get();
    owner.push_back(std::move(p));
    return raw;
  };
  for (int c = 0; c < cells; ++c)
    for (long i = 0; i < a.n; ++i)
      cell[c].local.push_back(make(c));
  std::vector<Particle *> ghosts;
  for (long i = 0; i < a.n / 4 + 1; ++i)
    ghosts.push_back(make(-1));
  for (int c = 0; c < cells; ++c) {
    for (int d = -1; d <= 1; ++d)
      for (Particle *p : cell[(c + d + cells) % cells].local)
        cell[c].active.push_back(p);
    if (c % 2 == 0) // every other cell also sees the ghosts
      cell[c].active.insert(cell[c].active.end(), ghosts.begin(), ghosts.end());
  }
  for (int mode = 0; mode < modes; ++mode)
    run(cell, a.reps, mode);
  double rho = 0, wc = 0, x = 0, v = 0;
  for (auto &p : owner) {
    rho += p->rho * (1 + p->id % 3);
    wc += p->wcount * (1 + p->id % 7);
    x += p->x[0] * (1 + p->id % 5) + p->x[1];
    v += p->v[0] * (1 + p->id % 3) + p->v[1];
  }
  printValue("rho", rho);
  printValue("wcount", wc);
  printValue("x", x);
  printValue("v", v);
}
