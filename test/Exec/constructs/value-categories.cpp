// What a loop reads and writes is decided by the value category of each use:
// the arms of a conditional (`a->h > b->h ? a->h : b->h`) are lvalues that
// are only read, so is what a const getter returns by reference
// (`const std::array<double, 3> &pos() const`), a local const reference
// bound to it, the operand of `(void)`; the out sets below hold only
// what is written. A brace-less body ending in a function-like macro, and a
// GNU statement-expression macro, keep their text.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
// RUN: %soaview_cc1 -fplugin-arg-soaview-remarks %s 2>&1 | FileCheck %s --check-prefix=SETS
// SETS: value-categories.cpp:55:3: remark: soaview: view of 'Gas' in {h, m, rho, r} out {rho}
// SETS: value-categories.cpp:57:5: remark: soaview: view of 'Gas' in {h, m, r} out {}
// SETS: value-categories.cpp:67:3: remark: soaview: view of 'Gas' in {h, vmax} out {vmax}
// SETS: value-categories.cpp:73:3: remark: soaview: view of 'Gas' in {h} out {m}
#include "common.h"
#include <array>
#include <vector>

#define SQUARE(a) ((a) * (a))
#define BIGGER(a, b)                                                          \
  ({                                                                           \
    const __typeof__(a) x_ = (a);                                              \
    const __typeof__(b) y_ = (b);                                              \
    x_ > y_ ? x_ : y_;                                                         \
  })

class Gas {
public:
  float h, m, rho, vmax;
  const std::array<double, 3> &pos() const { return r; }
  std::array<double, 3> &pos() { return r; }
  void place(double x) { r = {x, 2 * x, 0.5}; }

private:
  std::array<double, 3> r;
};

static double dist2(const Gas &a, const Gas &b) {
  const auto &ra = a.pos();
  const std::array<double, 3> &rb = b.pos();
  double d = 0;
  for (int k = 0; k < 3; ++k)
    d += SQUARE(ra[k] - rb[k]);
  return d;
}

static float widest(const Gas *a, const Gas *b) {
  const float h = a->h > b->h ? a->h : b->h;
  return (void)a->m, h;
}

void density(std::vector<Gas *> &gas) {
  [[clang::soa_conversion]]
  for (Gas *a : gas) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Gas *b : gas) {
      float h = widest(a, b);
      if (a != b && dist2(*a, *b) < h * h)
        a->rho += b->m / (1 + h);
    }
  }
}

void limit(std::vector<Gas *> &gas) {
  [[clang::soa_conversion]]
  for (Gas *a : gas)
    a->vmax = BIGGER(a->vmax, a->h);
}

void scale(std::vector<Gas *> &gas) {
  [[clang::soa_conversion]]
  for (Gas *a : gas) a->m = SQUARE(a->h);
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<Gas> gas(corpus::count(argc, argv, 40));
  std::vector<Gas *> ptrs;
  for (Gas &g : gas) {
    g.h = corpus::uniform() + 0.1f;
    g.m = corpus::uniform();
    g.rho = 0;
    g.vmax = corpus::uniform();
    g.place(corpus::uniform());
    ptrs.push_back(&g);
  }
  density(ptrs);
  limit(ptrs);
  scale(ptrs);
  for (const Gas &g : gas)
    corpus::print("rho", g.rho), corpus::print("vmax", g.vmax),
        corpus::print("m", g.m);
}
