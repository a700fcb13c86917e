// Loops in templates over ranges whose type does not depend on the
// template (AutoPas's AutoPas<Particle_T>::setAllowed... over a function's
// result, a container's member template over its own std::vector<P>): the
// view's spec is declared after the template, so the code naming it must
// wait for the instantiation. A member template of a plain class, a member
// of a class template over a returned vector (a temporary), and a function
// template.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 3 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct P {
  double x, v;
  int own;
};

static int made = 0;
std::vector<P> options() {
  std::vector<P> o;
  for (int k = 0; k < 5 + made % 3; ++k)
    o.push_back({0.5 * k, 0.25 * k, k});
  ++made;
  return o;
}

std::vector<P> store;

struct Cell {
  std::vector<P> ps;
  template <typename L> void forEach(L l) {
    [[clang::soa_conversion("always")]]
    for (P &p : ps) {
      if (p.own)
        l(p.x);
      p.v += p.x;
    }
  }
};

template <class T> struct Options {
  T m[8] = {};
  void set(T x) {
    [[clang::soa_conversion("always")]]
    for (auto o : options())
      m[o.own & 7] += x * o.v;
  }
};

template <class T> T total(T scale) {
  T s = 0;
  [[clang::soa_conversion("always")]]
  for (const P &p : store)
    s += scale * p.v;
  return s;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  Cell c;
  for (int k = 0; k < n; ++k)
    c.ps.push_back({corpus::uniform(), corpus::uniform(), k % 3});
  double s = 0;
  c.forEach([&](double x) { s += x; });
  Options<double> o;
  o.set(1.5);
  o.set(0.5);
  store = c.ps;
  corpus::print("s", s);
  for (double m : o.m)
    corpus::print("m", m);
  corpus::print("total", total(2.0));
  for (const P &p : c.ps)
    corpus::print("v", p.v);
}
