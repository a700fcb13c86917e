// Address comparisons inside callees (`&l != &a`, `l != a` on pointers)
// compare the original elements, so a particle skips itself exactly as in
// the plain build.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 2 --out %t \
// RUN:   --run "1 40" --run "4 2" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct P {
  double x, m, rho, n;
};

static void byRef(P &l, const P &a) {
  if (&l != &a) {
    double d = l.x - a.x;
    l.rho += a.m / (1 + d * d);
  }
}
static void byPtr(P *l, const P *a) {
  if (l != a)
    l->n += 1;
}

void sweep(std::vector<P *> &local, std::vector<P *> &active) {
  [[clang::soa_conversion]]
  for (P *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (P *pj : active) {
      byRef(*pi, *pj);
      byPtr(pi, pj);
    }
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<P> ps(corpus::count(argc, argv, 40));
  std::vector<P *> all;
  for (P &p : ps) {
    p = {corpus::uniform(), corpus::uniform(), 0, 0};
    all.push_back(&p);
  }
  sweep(all, all);
  for (const P &p : ps)
    corpus::print("rho", p.rho), corpus::print("n", p.n);
}
