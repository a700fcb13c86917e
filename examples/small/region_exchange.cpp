// A view region across an exchange (docs/offload.md, "Synchronisation
// points"): a periodic row of cells whose two end cells see halo particles,
// copies of the particles at the other end, which an exchange refreshes
// before density and before force -- as an MPI code exchanges its halo
// rows. The exchange copies whole structs, code a region refuses; inside
// soaview::sync(lists, f) it runs as outside the region: the region writes
// back the listed particles (the edge cells' and the halos'), runs f, and
// gathers them again, so the time-step loop stays one region and the other
// particles stay in its buffers (on the device, with an offload target).
// Mode 1 gives the lists as a list of lists; mode 2 uses soaview::sync(f),
// which writes every view back; mode 3 lists the particles as their derived
// type, which the region holds no views of: it writes every view back too.
// Mode 4 gives what the exchange reads (the edge cells) and what it writes
// (the halos) apart: only the edge cells are written back, only the halos
// gathered again. Mode 5 does too, and sweeps density and force over the
// interior cells before the exchange and over each edge cell after it:
// sweeps over part of the region's cells, which share its buffers (on a
// GPU, the exchange's copies run while the interior sweeps compute).
// Mode 6 sweeps density and force over two windows of cells that overlap
// (the first three cells, then the last three) and over no others: each
// sweep lays the region's slots out again (writing back what the last one
// wrote), and the region reuses the buffers of the layouts before.
#include "common.h"

#include <soaview/sync.h>

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
  int id;
  char admin[40]; // never touched by the kernels
};

/// What the particles are made as (the cells list them as Particle).
struct Tagged : Particle {};

struct Cell {
  std::vector<Particle *> local, active;
};

static double kernelW(double q) {
  double t = 1.0 - q;
  return t > 0 ? t * t * t * (1 + 3 * q) : 0.0;
}

void densitySweep(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (Particle *l : c.local) {
      l->rho = 0;
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *a : c.active) {
        double dx = l->x[0] - a->x[0], dy = l->x[1] - a->x[1];
        double r2 = dx * dx + dy * dy;
        if (r2 < l->h * l->h)
          l->rho += a->mass * kernelW(std::sqrt(r2) / l->h);
      }
    }
  }
}

void forceSweep(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (Particle *l : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *a : c.active) {
        double dx = l->x[0] - a->x[0], dy = l->x[1] - a->x[1];
        double r2 = dx * dx + dy * dy;
        if (r2 < l->h * l->h && r2 > 0) {
          double f =
              a->mass * (1 / (l->rho + 1) + 1 / (a->rho + 1)) / (r2 + 0.01);
          l->a[0] += f * dx;
          l->a[1] += f * dy;
        }
      }
    }
  }
}

void kickDrift(std::vector<Cell> &cells, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) [[clang::soa_conversion]]
    for (Particle *p : c.local) {
      p->v[0] += dt * p->a[0];
      p->v[1] += dt * p->a[1];
      p->x[0] += dt * p->v[0];
      p->x[1] += dt * p->v[1];
      p->a[0] = p->a[1] = 0;
    }
}

/// The halo particles: copies of the end cells' particles, moved by one
/// period, so that the first cell sees the last cell's particles on its left
/// and the last cell the first cell's on its right.
struct Halo {
  std::vector<Particle *> left, right; // copies of the last and first cell's
  std::vector<Particle *> exchanged;   // the edge cells' and the copies
  std::vector<Particle *> edges;       // the edge cells' (what it reads)
  std::vector<Particle *> halos;       // the copies (what it writes whole)
  std::vector<Tagged *> tagged;        // the same, as made
  std::vector<std::vector<Particle *>> byCell;
  double period;
  /// Mode 5: the cells apart (copies of their lists): those that see no
  /// halo particles, and each edge cell.
  std::vector<Cell> interior, first, last;
  /// Mode 6: the first three cells and the last three (they share one).
  std::vector<Cell> low, high;
};

/// The exchange: whole structs, as an MPI code receives them.
void exchangeHalo(const std::vector<Cell> &cells, Halo &h) {
  const std::vector<Particle *> &first = cells.front().local,
                                &last = cells.back().local;
  for (std::size_t k = 0; k < h.left.size(); ++k) {
    *h.left[k] = *last[k];
    h.left[k]->x[0] -= h.period;
    *h.right[k] = *first[k];
    h.right[k]->x[0] += h.period;
  }
}

void run(std::vector<Cell> &cells, Halo &h, int steps, int mode) {
  auto sync = [&] {
    if (mode == 0)
      soaview::sync(h.exchanged, [&] { exchangeHalo(cells, h); });
    else if (mode == 1)
      soaview::sync(h.byCell, [&] { exchangeHalo(cells, h); });
    else if (mode == 3)
      soaview::sync(h.tagged, [&] { exchangeHalo(cells, h); });
    else if (mode == 4 || mode == 5)
      soaview::sync(h.edges, h.halos, [&] { exchangeHalo(cells, h); });
    else
      soaview::sync([&] { exchangeHalo(cells, h); });
  };
  [[clang::soa_conversion_region]]
  for (int s = 0; s < steps; ++s) {
    if (mode == 5) { // the interior before each exchange, the edges after
      densitySweep(h.interior);
      sync();
      densitySweep(h.first);
      densitySweep(h.last);
      forceSweep(h.interior);
      sync();
      forceSweep(h.first);
      forceSweep(h.last);
      kickDrift(cells, 1e-3);
      continue;
    }
    if (mode == 6) { // windows that overlap: each lays the slots out again
      densitySweep(h.low);
      densitySweep(h.high);
      forceSweep(h.low);
      forceSweep(h.high);
      continue;
    }
    sync();
    densitySweep(cells);
    sync();
    forceSweep(cells);
    kickDrift(cells, 1e-3);
  }
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv); // n: particles per cell, reps: steps
  const int modes = argc > 4 ? std::atoi(argv[4]) : 7,
            first = argc > 5 ? std::atoi(argv[5]) : 0;
  std::mt19937_64 rng(a.seed);
  std::uniform_real_distribution<double> U(0, 1);
  const int cells = 5;
  std::vector<std::unique_ptr<Tagged>> owner;
  auto make = [&](double x0) -> Tagged * {
    auto p = std::make_unique<Tagged>();
    p->x[0] = x0 + U(rng);
    p->x[1] = U(rng);
    p->v[0] = U(rng) - 0.5;
    p->v[1] = U(rng) - 0.5;
    p->a[0] = p->a[1] = 0;
    p->h = 0.3 + 0.2 * U(rng);
    p->mass = 1 + U(rng);
    p->rho = 0;
    p->id = static_cast<int>(owner.size());
    owner.push_back(std::move(p));
    return owner.back().get();
  };
  std::vector<Cell> cell(cells);
  for (int c = 0; c < cells; ++c)
    for (long i = 0; i < a.n; ++i)
      cell[c].local.push_back(make(c));
  Halo h;
  h.period = cells;
  for (long i = 0; i < a.n; ++i) {
    h.left.push_back(make(-1));
    h.right.push_back(make(cells));
  }
  for (int c = 0; c < cells; ++c) {
    Cell &x = cell[c];
    const std::vector<Particle *> &lo = c ? cell[c - 1].local : h.left,
                                  &hi = c + 1 < cells ? cell[c + 1].local
                                                      : h.right;
    x.active.insert(x.active.end(), lo.begin(), lo.end());
    x.active.insert(x.active.end(), x.local.begin(), x.local.end());
    x.active.insert(x.active.end(), hi.begin(), hi.end());
  }
  h.byCell = {cell.front().local, cell.back().local, h.left, h.right};
  for (const auto &l : h.byCell)
    h.exchanged.insert(h.exchanged.end(), l.begin(), l.end());
  for (Particle *p : h.exchanged)
    h.tagged.push_back(static_cast<Tagged *>(p));
  h.edges = cell.front().local;
  h.edges.insert(h.edges.end(), cell.back().local.begin(),
                 cell.back().local.end());
  h.halos = h.left;
  h.halos.insert(h.halos.end(), h.right.begin(), h.right.end());
  h.interior.assign(cell.begin() + 1, cell.end() - 1);
  h.first = {cell.front()};
  h.last = {cell.back()};
  h.low.assign(cell.begin(), cell.begin() + 3);
  h.high.assign(cell.end() - 3, cell.end());
  for (int mode = first; mode < modes; ++mode)
    run(cell, h, a.reps, mode);
  double rho = 0, x = 0, v = 0;
  for (auto &p : owner) {
    rho += p->rho * (1 + p->id % 3);
    x += p->x[0] * (1 + p->id % 5) + p->x[1];
    v += p->v[0] * (1 + p->id % 3) + p->v[1];
  }
  printValue("rho", rho);
  printValue("x", x);
  printValue("v", v);
}
