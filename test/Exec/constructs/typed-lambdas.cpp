// Callables written outside the loop that take the element by its own type
// (issue #50, part 4): a lambda held in a local `auto` and called in the
// loop, and outside it with the program's own particles; a lambda handed to
// a pair algorithm, a function template whose annotated nest calls it on
// pairs of elements (`forEachPair(cellA, cellB, [&](Particle &a, Particle &b)
// {...})`), with a `const Particle &` and a `Particle *` parameter too; a
// functor's call operator handed to the same algorithm. The lambdas' element
// parameters become `auto` where written (test/Rewrite/typed-lambdas.cpp
// shows them); the functor's operator gets a clone. A lambda written in
// the loop may take the element through a local reference (`Particle &q =
// *p; kick(q);`).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 9 --out %t \
// RUN:   --run "1 30" --run "7 3" --run "4 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct Particle {
  double r[3], v[3], f[3];
  double m;
  int id;
};

struct Cell {
  std::vector<Particle> ps;
};

template <class F> void forEachPair(Cell &a, Cell &b, F f) {
  [[clang::soa_conversion]]
  for (Particle &p : a.ps) {
    [[clang::soa_conversion_hoist(1)]]
    for (Particle &q : b.ps)
      if (&p != &q)
        f(p, q);
  }
}

template <class F> void forEachOrderedPair(Cell &c, F f) {
  [[clang::soa_conversion]]
  for (Particle &p : c.ps) {
    [[clang::soa_conversion_hoist(1)]]
    for (Particle &q : c.ps)
      if (p.id < q.id)
        f(p, q);
  }
}

template <class F> void forEachPointer(Cell &a, F f) {
  [[clang::soa_conversion]]
  for (Particle &p : a.ps)
    f(&p);
}

struct Spring {
  double k;
  long calls = 0;
  void operator()(Particle &a, const Particle &b) {
    ++calls;
    for (int d = 0; d < 3; ++d)
      a.f[d] += k * (b.r[d] - a.r[d]) * b.m / a.m;
  }
};

void fill(Cell &c, int n, int first) {
  for (int k = 0; k < n; ++k) {
    Particle p{};
    for (int d = 0; d < 3; ++d)
      p.r[d] = corpus::uniform(), p.v[d] = corpus::uniform() - 0.5;
    p.m = corpus::uniform() + 0.5;
    p.id = first + k;
    c.ps.push_back(p);
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 30);
  Cell a, b;
  fill(a, n, 0);
  fill(b, n / 2 + 1, n);
  double cutoff = 0.5, energy = 0;
  long pairs = 0;

  // A lambda held in a local `auto`, called in the loop and outside it.
  auto drift = [&](Particle &p, double dt) {
    for (int d = 0; d < 3; ++d)
      p.r[d] += dt * p.v[d] / p.m;
  };
  [[clang::soa_conversion]]
  for (Particle &p : a.ps)
    drift(p, 0.01);
  drift(b.ps[0], 0.5); // a real particle
  Particle lone{{1, 2, 3}, {0.5, 0.25, 0.125}, {0, 0, 0}, 2, -1};
  drift(lone, 1.0);

  // Written in the loop and given the element through a local reference
  // (`Particle &q = *p;`), over pointers with a repeat.
  std::vector<Particle *> ptrs;
  for (Particle &p : a.ps)
    ptrs.push_back(&p);
  if (n > 0)
    ptrs.push_back(&a.ps[0]);
  [[clang::soa_conversion]]
  for (Particle *p : ptrs) {
    Particle &q = *p;
    auto kick = [&](Particle &s) { s.v[0] += 0.5 * s.r[0] / s.m; };
    kick(q);
  }

  // Handed to a pair algorithm, two elements by reference; also called
  // outside any loop with the program's own particles. The functor below
  // reads p1.m too: the instantiations of forEachPair use the same fields
  // (docs/semantics.md).
  auto near = [&](Particle &p1, const Particle &p2) {
    double d2 = 0;
    for (int d = 0; d < 3; ++d)
      d2 += (p1.r[d] - p2.r[d]) * (p1.r[d] - p2.r[d]);
    if (d2 > cutoff * cutoff)
      return;
    ++pairs;
    energy += p1.m * p2.m / (d2 + 0.1);
    for (int d = 0; d < 3; ++d)
      p1.f[d] += (p1.r[d] - p2.r[d]) / (d2 + 0.1);
  };
  forEachPair(a, b, near);
  if (!a.ps.empty())
    near(lone, a.ps[0]);
  near(b.ps[0], lone);
  forEachOrderedPair(a, [&](Particle &p1, Particle &p2) {
    p1.v[0] += 0.001 * p2.m;
  });
  // By pointer.
  forEachPointer(b, [](Particle *p) { p->f[2] -= p->m; });
  // A functor's call operator.
  Spring s{0.25};
  forEachPair(b, a, s);
  forEachPair(a, b, Spring{0.5});

  corpus::print("pairs", pairs);
  corpus::print("energy", energy);
  for (int d = 0; d < 3; ++d)
    corpus::print("lone", lone.r[d] + lone.f[d]);
  for (const Cell *c : {&a, &b})
    for (const Particle &p : c->ps)
      for (int d = 0; d < 3; ++d) {
        corpus::print("r", p.r[d]);
        corpus::print("v", p.v[d]);
        corpus::print("f", p.f[d]);
      }
}
