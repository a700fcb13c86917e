// One template parameter receives the views of both loops of a pair nest
// (`template <class P> void kernel(P &local, const P &active)`, the shape of
// [Radtke2025] and of Peano 4): soaview clones it with one more parameter.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 2 --out %t \
// RUN:   --run "1 40" --run "9 4" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

namespace sph {
struct Particle {
  double x, mass, rho, n;
  static constexpr double Scale = 0.5;
};

template <class P> void kernel(P &local, const P &active) {
  double d = local.x - active.x;
  local.rho += active.mass * P::Scale / (1 + d * d);
}
template <class P> void outOfLine(P *local, const P *active);
} // namespace sph

// Defined out of line with a qualified name (Peano's shape): the clone is
// an unqualified overload in the template's namespace.
template <class P> void sph::outOfLine(P *local, const P *active) {
  local->n += active->mass * 1e-3;
}

void sweep(std::vector<sph::Particle *> &local,
           std::vector<sph::Particle *> &active) {
  [[clang::soa_conversion]]
  for (sph::Particle *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (sph::Particle *pj : active) {
      sph::kernel(*pi, *pj);
      sph::outOfLine(pi, pj);
    }
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<sph::Particle> ps(corpus::count(argc, argv, 40));
  std::vector<sph::Particle *> all;
  for (auto &p : ps) {
    p = {corpus::uniform(), corpus::uniform(), 0, 0};
    all.push_back(&p);
  }
  sweep(all, all);
  // The original template still serves plain elements.
  sph::kernel(ps[0], ps[1]);
  for (auto &p : ps)
    corpus::print("rho", p.rho), corpus::print("n", p.n);
}
