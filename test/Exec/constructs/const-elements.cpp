// Containers of `const T *`, a `const T *` index target, and a second const
// name for the array of the outer index loop used by the hoisted inner one.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 40" --run "6 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct P {
  double x, m, rho;
};

void ranges(std::vector<P *> &local, const std::vector<const P *> &active) {
  [[clang::soa_conversion]]
  for (P *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *pj : active)
      pi->rho += pj->m / (1 + (pi->x - pj->x) * (pi->x - pj->x));
  }
}

void indices(P *ps, int n) {
  const P *same = ps; // reads x and m only; the outer loop writes rho
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i) {
    [[clang::soa_conversion_target("same"), clang::soa_conversion_hoist(1)]]
    for (int j = 0; j < n; ++j)
      ps[i].rho += same[j].m * (ps[i].x - same[j].x);
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<P> ps(n);
  std::vector<P *> all;
  std::vector<const P *> call;
  for (P &p : ps) {
    p = {corpus::uniform(), corpus::uniform(), 0};
    all.push_back(&p);
    call.push_back(&p);
  }
  ranges(all, call);
  indices(ps.data(), n);
  for (const P &p : ps)
    corpus::print("rho", p.rho);
}
