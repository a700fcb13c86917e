// Loops in functions whose return type is deduced from their body: Clang
// instantiates such a function where its type is first needed, during the
// parse (a call right after its definition), not at the end of the
// translation unit, so their views go before the first declaration that
// uses it. A function template called right after its definition, one
// reached only through another deduced template, a member function of a
// class template, `decltype(auto)`, a use in a namespace-scope variable's
// initializer, and a lambda in a deduced template. Also a callee with a
// deduced return type that only its body can name (a class template of
// another namespace, an alias local to the function that returns it;
// ESPResSo's connection_vector): the clone keeps the original's address
// with `auto`, not by spelling its type.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 6 --out %t \
// RUN:   --run "1 40" --run "2 7" --run "3 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct P {
  double x, v, m;
};

template <class F> auto apply(std::vector<P> &ps, F f) {
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (auto &p : ps) {
    p.x += f(p.v);
    s += p.x * p.m;
  }
  return s;
}
double first(std::vector<P> &ps) {
  return apply(ps, [](double v) { return 0.5 * v; });
}

template <class T> auto weigh(std::vector<T *> &ps) {
  double heaviest = 0;
  [[clang::soa_conversion("always")]]
  for (T *p : ps)
    if (p->m > heaviest)
      heaviest = p->m;
  return heaviest;
}
template <class T> auto outer(std::vector<T *> &ps) { return weigh(ps) * 2; }
double second(std::vector<P *> &ps) { return outer(ps); }

template <class T> struct Set {
  std::vector<T> items;
  auto kick(double dt) {
    [[clang::soa_conversion("always")]]
    for (auto &p : items)
      p.v += dt * p.m;
    return items.size();
  }
  decltype(auto) drift(double dt) {
    [[clang::soa_conversion("always")]]
    for (auto &p : items)
      p.x += dt * p.v;
    return (items);
  }
};
std::size_t third(Set<P> &s) { return s.kick(0.25) + s.drift(0.125).size(); }

template <class T> auto mass(const std::vector<T> &ps) {
  auto sum = [&ps]() {
    double s = 0;
    [[clang::soa_conversion("always")]]
    for (const T &p : ps)
      s += p.m;
    return s;
  };
  return sum();
}
std::vector<P> global(3, P{1, 2, 3});
double globalMass = mass(global);

namespace geo {
template <class T, int N> struct Vec {
  T d[N];
};
template <class T, int N> auto scaled(T a, const Vec<T, N> &b) {
  using R = Vec<T, N>;
  R r{};
  for (int i = 0; i < N; ++i)
    r.d[i] = a * b.d[i];
  return r;
}
} // namespace geo

struct Site {
  double dist;
  geo::Vec<double, 3> dir;
};
static auto offset(const Site &s) { return geo::scaled(s.dist, s.dir); }

double offsets(std::vector<Site> &sites) {
  double sum = 0;
  [[clang::soa_conversion("always")]]
  for (Site &s : sites) {
    auto o = offset(s);
    sum += o.d[0] + o.d[1] - o.d[2];
  }
  return sum;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<P> ps(n);
  for (P &p : ps)
    p = {corpus::uniform(), corpus::uniform(), corpus::uniform()};
  corpus::print("first", first(ps));
  std::vector<P *> ptrs;
  for (int i = 0; i < n; ++i)
    ptrs.push_back(&ps[(i * 3) % n]);
  corpus::print("second", second(ptrs));
  Set<P> s{ps};
  corpus::print("third", third(s));
  corpus::print("global", globalMass);
  corpus::print("mass", mass(s.items));
  std::vector<Site> sites(n);
  for (Site &t : sites)
    t = {corpus::uniform(), {{corpus::uniform(), 1.5, corpus::uniform()}}};
  corpus::print("offsets", offsets(sites));
  for (const P &p : s.items) {
    corpus::print("x", p.x);
    corpus::print("v", p.v);
  }
}
