// Ranges of std::reference_wrapper<P> convert as ranges of pointers: the
// frame gathers the objects they refer to, and an object held twice shares
// one slot, so later iterations see earlier writes. The loop variable is
// the element (`P &p`, `const P &p`, a copy `P p`) or the wrapper (`auto &r`,
// `auto r`, `const auto &r` of std::reference_wrapper<const P>) used as
// `r.get()` or converted to `P &`; a callee taking the element; a template;
// std::vector and std::list (test/Sema/reference-wrappers.cpp: refusals).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 8 --out %t \
// RUN:   --run "1 40" --run "2 7" --run "3 1" --run "4 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <functional>
#include <list>
#include <vector>

struct P {
  double x, v, m;
  int hits;
};

void push(P &p, double dt) { p.v += dt * p.m; }

void drift(std::vector<std::reference_wrapper<P>> &refs, double dt) {
  [[clang::soa_conversion("always")]]
  for (P &p : refs) { // an object held twice sees its earlier writes
    p.x += dt * p.v;
    p.hits += 1;
  }
}

double energy(const std::vector<std::reference_wrapper<P>> &refs) {
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (const P &p : refs)
    s += p.m * p.v * p.v;
  return s;
}

double copies(std::vector<std::reference_wrapper<P>> &refs) {
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (P p : refs) { // a copy: its writes stay local
    p.x *= 2;
    s += p.x;
  }
  return s;
}

void kick(std::vector<std::reference_wrapper<P>> &refs, double dt) {
  [[clang::soa_conversion("always")]]
  for (auto &r : refs) {
    P &p = r.get();
    p.v += dt * p.m;
    r.get().hits += 2;
  }
}

void converted(std::list<std::reference_wrapper<P>> &refs, double dt) {
  [[clang::soa_conversion("always")]]
  for (auto r : refs) {
    P &p = r; // the wrapper's conversion
    push(r, dt);
    p.x -= dt;
  }
}

double sum(const std::vector<std::reference_wrapper<const P>> &refs) {
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (const auto &r : refs) {
    decltype(r.get().x) x = r.get().x; // an operand of a type
    s += x + r.get().v;
  }
  return s;
}

template <class R> void damp(R &refs, double k) {
  [[clang::soa_conversion("always")]]
  for (auto &p : refs) // the wrapper, named as an element would be
    p.get().v *= k;
}

template <class T> void scale(std::vector<std::reference_wrapper<T>> &refs) {
  [[clang::soa_conversion("always")]]
  for (T &p : refs)
    p.m *= 1.25;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<P> store(n + 1);
  for (P &p : store)
    p = {corpus::uniform(), corpus::uniform(), corpus::uniform(), 0};
  std::vector<std::reference_wrapper<P>> refs;
  for (int i = 0; i < n; ++i)
    refs.push_back(std::ref(store[(i * 7) % (n + 1)]));
  if (n > 2)
    refs.push_back(refs[1]);
  drift(refs, 0.5);
  corpus::print("energy", energy(refs));
  corpus::print("copies", copies(refs));
  kick(refs, 0.25);
  std::list<std::reference_wrapper<P>> l(refs.begin(), refs.end());
  converted(l, 0.125);
  std::vector<std::reference_wrapper<const P>> crefs(refs.begin(), refs.end());
  corpus::print("sum", sum(crefs));
  damp(refs, 0.75);
  scale(refs);
  for (const P &p : store) {
    corpus::print("x", p.x);
    corpus::print("v", p.v);
    corpus::print("m", p.m);
    corpus::print("hits", p.hits);
  }
}
