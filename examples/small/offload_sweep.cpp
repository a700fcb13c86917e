// Sweeps over cells (docs/offload.md, "Sweeps"): soa_conversion_offload_compute
// on the loop over cells offloads all cells at once -- one gather of every
// distinct particle, one copy each way, one launch -- instead of one per cell.
// The loop bodies are those of a per-cell code. Cells form a ring; each
// cell's active list holds its neighbours' particles and a few "ghosts"
// that are local in no cell (boundary copies), which the sweep gives slots
// of their own.
#include "common.h"

#include <cmath>
#include <memory>
#include <vector>

struct Particle {
  double x[2];
  double v[2];
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

void density(Particle *l, const Particle *a) {
  double dx = l->x[0] - a->x[0], dy = l->x[1] - a->x[1];
  double r2 = dx * dx + dy * dy;
  if (r2 < l->h * l->h) {
    l->rho += a->mass * kernelW(std::sqrt(r2) / l->h);
    l->wcount += 1;
  }
}

// The pair sweep: local x active for every cell, in one launch.
void densitySweep(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    std::vector<Particle *> &mine = c.local;
    [[clang::soa_conversion]]
    for (Particle *l : mine) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *a : c.active) {
        if (a->mass > 1.9)
          continue; // light particles only
        density(l, a);
      }
    }
  }
}

// A linear sweep over an index loop of cells: one launch for all cells.
void drift(std::vector<Cell> &cells, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t i = 0; i < cells.size(); ++i)
    [[clang::soa_conversion]]
    for (Particle *p : cells[i].local) {
      p->x[0] += dt * p->v[0];
      p->x[1] += dt * p->v[1];
    }
}

// The inner list is a temporary (a copy per cell): the sweep keeps its own.
// The loops are written without braces.
std::vector<Particle *> heavy(const Cell &c) {
  std::vector<Particle *> r;
  for (Particle *p : c.active)
    if (p->id % 3 == 0)
      r.push_back(p);
  return r;
}

void countHeavy(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (const Cell &c : cells)
    [[clang::soa_conversion]]
    for (Particle *l : c.local)
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *a : heavy(c))
        l->wcount += a->mass * 0.5;
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv); // n = particles per cell
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
  for (int r = 0; r < a.reps; ++r) {
    densitySweep(cell);
    drift(cell, 1e-3);
    countHeavy(cell);
  }
  double rho = 0, wc = 0, x = 0;
  for (auto &p : owner) {
    rho += p->rho * (1 + p->id % 3);
    wc += p->wcount;
    x += p->x[0] * (1 + p->id % 5) + p->x[1];
  }
  printValue("rho", rho);
  printValue("wcount", wc);
  printValue("x", x);
}
