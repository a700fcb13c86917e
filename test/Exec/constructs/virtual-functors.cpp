// A nest calls a virtual member function of a functor class with its
// elements, through a reference and through a pointer (AutoPas's functors:
// `functor.AoSFunctor(*p1, *p2, newton3)` with AoSFunctor overriding a
// virtual of the base and not final). The nest runs converted when the
// object's dynamic type is its static type, whose override was followed,
// and as written for an object of a derived class, whose override the
// converted nest would not run. Both happen here: a plain functor, then one
// of a class derived from it, then a null pointer on an empty list. In a
// template (AutoPas's traversals: `f->AoSFunctor(p1, p2, true)` with
// `PairwiseFunctor *f`), instantiated with that class and with a final one:
// one rewrite serves both, the check included (they use the same fields).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 5 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include "pairwise-functors.h"
#include <vector>

void density(Density &functor, std::vector<Part *> &local,
             std::vector<Part *> &active) {
  [[clang::soa_conversion("always")]]
  for (Part *p1 : local) {
    p1->rho = 0;
    [[clang::soa_conversion_hoist(1)]]
    for (Part *p2 : active)
      if (p1 != p2)
        functor.aos(*p1, *p2, false);
  }
}

void single(Density *functor, std::vector<Part> &ps, Part &centre) {
  [[clang::soa_conversion("always")]]
  for (Part &p : ps)
    if (p.owned)
      functor->aos(p, centre, false);
}

struct Final final : PairwiseFunctor {
  long visits = 0;
  void aos(Part &a, Part &b, bool newton3) override {
    visits += newton3 ? 1 : 3;
    a.rho += 0.25 * (b.r[1] - a.r[0]);
  }
};

template <class PairwiseFunctor>
void buffers(PairwiseFunctor *f, std::vector<Part> &buffer, Part &halo) {
  [[clang::soa_conversion("always")]]
  for (auto &&p1 : buffer)
    if (p1.owned)
      f->aos(p1, halo, true);
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  std::vector<Part> ps(n);
  for (Part &p : ps)
    p = {{corpus::uniform(), corpus::uniform()},
         {0, 0},
         0,
         corpus::uniform() < 0.7};
  std::vector<Part *> local, active;
  for (int k = 0; k < n; ++k) {
    (k % 2 ? local : active).push_back(&ps[k]);
    active.push_back(&ps[k]);
  }
  Density plain;
  Corrected corrected;
  density(plain, local, active);
  for (const Part &p : ps)
    corpus::print("rho", p.rho);
  density(corrected, local, active);
  for (const Part &p : ps)
    corpus::print("rho f", p.rho + p.f[1]);
  Part centre{{0.5, 0.5}, {0, 0}, 0, 1};
  single(&plain, ps, centre);
  single(&corrected, ps, centre);
  std::vector<Part> none;
  single(nullptr, none, centre);
  Final fin;
  buffers(&plain, ps, centre);
  buffers<Density>(&corrected, ps, centre);
  buffers(&fin, ps, centre);
  for (const Part &p : ps)
    corpus::print("f", p.f[0] + p.f[1]);
  corpus::print("final visits", fin.visits);
  corpus::print("visits", plain.visits + corrected.visits);
  corpus::print("centre", centre.rho);
}
