// A traversal holding its functor by reference (AutoPas's CellFunctor:
// `ParticleFunctor_T &_functor;`) calls the functor's virtual AoSFunctor
// from a lambda written in the member function that holds the nest,
// capturing `this` (`[this](auto &a, auto &b) { _functor.aos(a, b,
// newton3); }`, `aos` standing for AoSFunctor; pairwise-functors.h), and
// directly in the nest. A reference member is never
// reseated, so one check of the functor's dynamic type when the nest starts
// covers both calls: converted for a functor of exactly the static type,
// as written for a derived one. The traversal is a class template over the
// functor, as in AutoPas, and also a plain class.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 40" --run "2 5" %s | FileCheck %s
// CHECK: all runs identical
// RUN: env SOAVIEW_STATS=1 %t/functor-members.soaview 1 40 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// Each nest ran converted once (the Density functor) and as written once
// (the Corrected one): one call per site.
// STATS: functor-members.cpp:[[@LINE+14]]:5 host 1{{ }}
// STATS: functor-members.cpp:[[@LINE+26]]:5 host 1{{ }}
#include "common.h"
#include "pairwise-functors.h"
#include <vector>

template <class Functor> struct CellFunctor {
  Functor &_functor;
  bool newton3;
  void pairs(std::vector<Part *> &local, std::vector<Part *> &active) {
    const auto interact = [this](auto &a, auto &b) {
      this->_functor.aos(a, b, newton3);
    };
    [[clang::soa_conversion("always")]]
    for (Part *p1 : local) {
      [[clang::soa_conversion_hoist(1)]]
      for (Part *p2 : active)
        if (p1 != p2)
          interact(*p1, *p2);
    }
  }
};

struct Traversal {
  Density &functor;
  void pairs(std::vector<Part *> &local, std::vector<Part *> &active) {
    [[clang::soa_conversion("always")]]
    for (Part *p1 : local) {
      [[clang::soa_conversion_hoist(1)]]
      for (Part *p2 : active)
        functor.aos(*p1, *p2, p1 == p2);
    }
  }
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  const int n = corpus::count(argc, argv, 40);
  std::vector<Part> ps(n);
  for (Part &p : ps)
    p = {{corpus::uniform(), corpus::uniform()}, {0, 0}, 0, 1};
  std::vector<Part *> local, active;
  for (int k = 0; k < n; ++k) {
    active.push_back(&ps[(k * 3) % n]);
    if (k % 2 == 0)
      local.push_back(&ps[k]);
  }
  Density d;
  Corrected c;
  CellFunctor<Density>{d, false}.pairs(local, active);
  CellFunctor<Density>{c, true}.pairs(local, active);
  Traversal{d}.pairs(local, active);
  Traversal{c}.pairs(local, active);
  for (const Part &p : ps) {
    corpus::print("rho", p.rho);
    corpus::print("f1", p.f[1]);
  }
  corpus::print("visits", d.visits);
  corpus::print("visits", c.visits);
}
