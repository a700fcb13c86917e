// Packed inner views (a read-only inner loop over many fields that branches,
// docs/semantics.md "Packed views") compute what the plain loop computes:
// active sets holding a particle twice, references to the view, const methods,
// early returns in the callee.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 2 --out %t \
// RUN:   --run "1 40" --run "6 7" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct P {
  float x[3], v[3], h, m, rho, c, f, p, a;
  float acc, seen;
  float speed() const { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2]; }
};

static void force(P *pi, const P *pj) {
  float r2 = 0;
  for (int k = 0; k < 3; ++k)
    r2 += (pi->x[k] - pj->x[k]) * (pi->x[k] - pj->x[k]);
  if (r2 > pj->h * pj->h)
    return;
  const P &same = *pj;
  pi->acc += same.m * pj->speed() * pj->rho * pj->c * pj->f * pj->p * pj->a;
  pi->seen += 1;
}

void sweep(std::vector<P *> &local, std::vector<P *> &active) {
  [[clang::soa_conversion]]
  for (P *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *pj : active)
      force(pi, pj);
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<P> ps(corpus::count(argc, argv, 40));
  std::vector<P *> local, active;
  for (P &q : ps) {
    for (int k = 0; k < 3; ++k)
      q.x[k] = corpus::uniform(), q.v[k] = corpus::uniform() - 0.5f;
    q.h = 0.3f * corpus::uniform() + 0.1f;
    q.m = corpus::uniform(), q.rho = corpus::uniform(), q.c = corpus::uniform();
    q.f = corpus::uniform(), q.p = corpus::uniform(), q.a = corpus::uniform();
    q.acc = q.seen = 0;
    local.push_back(&q);
    active.push_back(&q);
    if (corpus::uniform() < 0.2)
      active.push_back(&q); // held twice
  }
  sweep(local, active);
  for (const P &q : ps)
    corpus::print("acc", q.acc), corpus::print("seen", q.seen);
}
