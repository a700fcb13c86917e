// One traversal template instantiated with functors that use different
// fields of one element type (AutoPas's traversals): each distinct use gets a
// view of its own, picked by the template's arguments (issue #50 part 7).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 14 --out %t \
// RUN:   --run "1 40" --run "9 7" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

namespace md {
struct Part {
  double x, mass, rho, f, v;
};
struct Cell {
  char tag;
  double rho, f;
};

struct Density {
  double h = 0.7;
  void aos(Part &p) { p.rho += p.mass * h / (1 + p.x * p.x); }
  void pair(Part &a, const Part &b) {
    double d = a.x - b.x;
    a.rho += b.mass / (1 + d * d);
  }
};
struct Force {
  void aos(Part &p) { p.f -= p.rho * p.x; }
  void aos(Cell &c) { c.f += 0.5 * c.rho; }
  void pair(Part &a, const Part &b) { a.f += (a.x - b.x) * b.rho; }
};
// Uses what Density uses: shares its view.
struct Smooth {
  void aos(Part &p) { p.rho += 0.25 * p.mass / (1 + p.x * p.x); }
  void pair(Part &a, const Part &b) { a.rho += b.mass * 0.5; }
};
template <int N> struct Kick {
  void aos(Part &p) { p.v += N * p.f; }
};
} // namespace md

template <class F, class E> void traverse(F &f, std::vector<E> &es) {
  [[clang::soa_conversion]]
  for (auto &e : es)
    f.aos(e);
}

template <int Times, class F> void repeat(F &f, std::vector<md::Part> &ps) {
  [[clang::soa_conversion]]
  for (auto &p : ps)
    for (int k = 0; k < Times; ++k)
      f.aos(p);
}

template <class F> struct Pairs {
  F &f;
  template <class Ps> void run(Ps &ps) {
    [[clang::soa_conversion]]
    for (auto &a : ps) {
      [[clang::soa_conversion_hoist(1)]]
      for (auto &b : ps)
        f.pair(a, b);
    }
  }
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<md::Part> ps(n);
  std::vector<md::Cell> cs(n);
  for (auto &p : ps)
    p = {corpus::uniform(), corpus::uniform(), corpus::uniform(), 0, 0};
  for (auto &c : cs)
    c = {'c', corpus::uniform(), corpus::uniform()};
  md::Density d;
  md::Force fo;
  md::Smooth s;
  md::Kick<3> k3;
  md::Kick<-2> k2;
  traverse(d, ps);
  traverse(fo, ps);
  traverse(s, ps);
  traverse(k3, ps);
  traverse(fo, cs);
  repeat<2>(d, ps);
  repeat<3>(fo, ps);
  repeat<1>(k2, ps);
  Pairs<md::Density>{d}.run(ps);
  Pairs<md::Force>{fo}.run(ps);
  Pairs<md::Smooth>{s}.run(ps);
  for (auto &p : ps)
    corpus::print("rho", p.rho), corpus::print("f", p.f),
        corpus::print("v", p.v);
  for (auto &c : cs)
    corpus::print("cf", c.f);
}
