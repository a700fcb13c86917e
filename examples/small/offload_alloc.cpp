// Allocation in an offloaded loop: each local particle builds a
// variable-length list of its neighbours (growing it with malloc, copy and
// free), sums its density from the list through scratch arrays (new[])
// and a heap object (new), and frees everything before the iteration
// ends. Offloaded, every malloc, free, new and delete here
// (in the loop and in the functions it calls, the list's destructor
// included) allocates from soaview's device heap (docs/runtime.md, "Device
// heap"); with -fplugin-arg-soaview-device-heap=off they stay the device
// runtime's own. Prints the results exactly (stdout) and the time of the
// density sweeps over all cells (stderr): the first, which also sets up the
// device heap and buffers, and the mean of the others.
#include "common.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

struct Particle {
  double x[2];
  double h;
  double mass;
  double rho;
  int neighbours;
  int lost; // neighbours dropped because an allocation returned null
  int id;
};

struct Entry {
  double q, m;
};

/// A growable list: doubles its capacity with malloc, copy and free.
struct NeighbourList {
  Entry *e = nullptr;
  int n = 0, cap = 0, lost = 0;
  void push(double q, double m) {
    if (n == cap) {
      int c = cap ? 2 * cap : 4;
      auto *grown = static_cast<Entry *>(std::malloc(sizeof(Entry) * c));
      if (!grown) {
        ++lost;
        return;
      }
      for (int k = 0; k < n; ++k)
        grown[k] = e[k];
      std::free(e);
      e = grown;
      cap = c;
    }
    e[n++] = {q, m};
  }
  ~NeighbourList() { std::free(e); }
};

struct Sum {
  double w = 0;
  int count = 0;
};

static double kernelW(double q) {
  double t = 1.0 - q;
  return t > 0 ? t * t * t * t * (1 + 4 * q) : 0.0;
}

static void collect(NeighbourList &list, const Particle *l, const Particle *a) {
  double dx = l->x[0] - a->x[0], dy = l->x[1] - a->x[1];
  double r2 = dx * dx + dy * dy;
  if (r2 < l->h * l->h)
    list.push(std::sqrt(r2) / l->h, a->mass);
}

static void density(Particle *l, const NeighbourList &list) {
  double *w = new double[list.n + 1];
  int *bins = new int[4]();
  Sum *s = new Sum();
  if (w && bins && s) {
    for (int k = 0; k < list.n; ++k) {
      w[k] = list.e[k].m * kernelW(list.e[k].q);
      bins[static_cast<int>(list.e[k].q * 4) & 3] += 1;
    }
    for (int k = 0; k < list.n; ++k)
      s->w += w[k];
    s->count = bins[0] + bins[1] + bins[2] + bins[3];
    l->rho = s->w;
    l->neighbours = s->count;
  }
  l->lost = list.lost + (w && bins && s ? 0 : 1);
  delete s;
  delete[] bins;
  delete[] w;
}

void cellDensity(std::vector<Particle *> &local, std::vector<Particle *> &active) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle *l : local) {
    NeighbourList list;
    [[clang::soa_conversion_hoist(1)]]
    for (const Particle *a : active)
      collect(list, l, a);
    density(l, list);
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
      p->rho = 0;
      p->neighbours = p->lost = 0;
      p->id = static_cast<int>(owner.size());
      cell[c].push_back(p.get());
      owner.push_back(std::move(p));
    }
  // The first sweep also sets up the device heap and buffers: timed apart.
  double first = 0, later = 0;
  for (int r = 0; r < a.reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int c = 0; c < cells; ++c) {
      std::vector<Particle *> active;
      for (int d = -1; d <= 1; ++d)
        for (Particle *p : cell[(c + d + cells) % cells])
          active.push_back(p);
      cellDensity(cell[c], active);
    }
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t0).count();
    (r == 0 ? first : later) += ms;
  }
  double rho = 0, nb = 0, lost = 0;
  for (auto &p : owner) {
    rho += p->rho * (1 + p->id % 3);
    nb += p->neighbours;
    lost += p->lost;
  }
  printValue("rho", rho);
  printValue("neighbours", nb);
  printValue("lost", lost);
  std::fprintf(stderr, "density sweeps: first %.3f ms, then %.3f ms each\n", first,
               a.reps > 1 ? later / (a.reps - 1) : 0.0);
}
