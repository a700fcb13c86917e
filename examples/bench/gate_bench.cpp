// A pair nest whose converted version can be slower than the nest as
// written (docs/attributes.md, "Small nests, decided at run time"): the
// inner loop's only update is a cheap conditional sum into the outer
// element. As written the sum is a store through a pointer, so the
// compiler keeps the branch; converted, the sum is the view's local and
// LLVM turns the `if` into a select, which puts every pair on the sum's
// chain of dependent instructions. Which is faster depends on how often
// the branch is taken, so on the data: with particles spread over a length
// of 3 (the test passes for 2 pairs in 3) the select wins; over 100 (1 pair
// in 50) the branch does.
// Usage: gate_bench LOCAL ACTIVE STEPS SPREAD
// Prints the digest of the densities and the seconds of the STEPS steps
// over 4 cells (build it plain, with soaview, and run the soaview build
// with and without SOAVIEW_TRIALS=0: tools/bench-gate.sh).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

struct Particle {
  double x, y, z, rho;
  double admin[8]; // never read by the kernel
};

struct Cell {
  std::vector<Particle *> local, active;
};

__attribute__((noinline)) void density(Cell &c) {
  [[clang::soa_conversion]]
  for (Particle *l : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Particle *a : c.active) {
      const double d = l->x - a->x;
      if (d * d < 1)
        l->rho += 1 - d * d;
    }
  }
}

int main(int argc, char **argv) {
  const int local = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int active = argc > 2 ? std::atoi(argv[2]) : 3000;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 30;
  const double spread = argc > 4 ? std::atof(argv[4]) : 100;
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0, spread);
  std::vector<std::unique_ptr<Particle>> owner;
  std::vector<Cell> cells(4);
  for (Cell &c : cells)
    for (int i = 0; i < active; ++i) {
      owner.push_back(std::make_unique<Particle>());
      Particle *p = owner.back().get();
      p->x = u(rng);
      p->y = u(rng);
      c.active.push_back(p);
      if (i < local)
        c.local.push_back(p);
    }
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s)
    for (Cell &c : cells)
      density(c);
  const std::chrono::duration<double> t = std::chrono::steady_clock::now() - t0;
  double sum = 0;
  for (const auto &p : owner)
    sum += p->rho;
  std::printf("%a %.3f\n", sum, t.count());
}
