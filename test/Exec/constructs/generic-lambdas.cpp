// A loop inside a container's member template hands each element to a
// callable written elsewhere (`cell.forEach([&](auto &p) {...})`, AutoPas's
// cells): a generic lambda is followed like a function template; it
// instantiates with the view, and what it calls (a functor's member with
// an object of the caller beside the view) gets a clone. With and without
// a condition around the call, one and two elements per call.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct Part {
  double r[3], f[3];
  int owned;
};

struct Functor {
  double cutoff = 0.6;
  long visits = 0;
  void aos(Part &a, const Part &b) {
    ++visits;
    double d = b.r[0] - a.r[0];
    if (d * d < cutoff * cutoff)
      a.f[0] += d;
  }
};

template <class T> struct Cell {
  std::vector<T> ps;
  template <typename L> void forEach(L l) {
    [[clang::soa_conversion("always")]]
    for (T &p : ps) {
      if (p.owned)
        l(p);
    }
  }
  template <typename L> void forAll(L l) {
    [[clang::soa_conversion("always")]]
    for (T &p : ps)
      l(p);
  }
  template <typename L> void forPairs(L l) {
    [[clang::soa_conversion("always")]]
    for (T &p : ps)
      [[clang::soa_conversion("always")]]
      for (T &q : ps)
        if (&p != &q)
          l(p, q);
  }
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  Cell<Part> c;
  for (int k = 0; k < n; ++k)
    c.ps.push_back({{corpus::uniform(), corpus::uniform(), 0}, {0, 0, 0},
                    k % 3 != 0});
  Part outer{{0.5, 0.5, 0.5}, {0, 0, 0}, 1};
  Functor f;
  c.forEach([&](auto &p2) { f.aos(p2, outer); });
  double sum = 0;
  c.forAll([&](const auto &p) { sum += p.r[1] * p.f[0]; });
  c.forPairs([&](auto &a, auto &b) { f.aos(a, b); });
  corpus::print("visits", f.visits);
  corpus::print("sum", sum);
  for (const Part &p : c.ps)
    corpus::print("f", p.f[0]);
}
