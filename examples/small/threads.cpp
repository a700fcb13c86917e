// Converted loops called from an OpenMP parallel loop over many small
// containers (one cell per iteration): every thread gets its own buffers from
// the pool, and the results match the sequential plain build.
#include "common.h"

#include <list>
#include <memory>
#include <vector>

struct Particle {
  double x, v, f, m;
  int cell;
};

void relax(std::list<Particle *> &cell) {
  [[clang::soa_conversion]]
  for (Particle *p : cell) {
    p->f = -0.5 * p->x * p->m;
    p->v += p->f * 0.01;
    p->x += p->v * 0.01;
  }
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv);
  std::mt19937 rng(a.seed);
  std::uniform_real_distribution<double> U(-1, 1);
  const int cells = 500;
  std::vector<std::unique_ptr<Particle>> owner;
  std::vector<std::list<Particle *>> cell(cells);
  for (long i = 0; i < a.n * cells; ++i) {
    owner.push_back(std::make_unique<Particle>(Particle{U(rng), U(rng), 0, 1 + U(rng), 0}));
    cell[rng() % cells].push_back(owner.back().get());
  }
  for (int r = 0; r < a.reps; ++r) {
#pragma omp parallel for schedule(dynamic)
    for (int c = 0; c < cells; ++c)
      relax(cell[c]);
  }
  double x = 0, v = 0;
  for (auto &p : owner) {
    x += p->x;
    v += p->v;
  }
  printValue("x", x);
  printValue("v", v);
}
