// Index loops with a target, in the forms of docs/attributes.md: `<=`
// bounds, 1-based indices (`A[i - 1]`), `!=` conditions, `i += 1`, `i++`,
// unsigned and mixed index and bound types, and invariant offsets into the
// target (`part[i - first]`, `k + i`), including loops that do not run.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 8 --out %t \
// RUN:   --run "1 40" --run "2 7" --run "3 1" --run "4 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct Body {
  double x, v, m;
};

void kickOneBased(Body *A, int n, double dt) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 1; i <= n; ++i)
    A[i - 1].v += dt * A[i - 1].m;
}

void driftRange(std::vector<Body> &part, int first, int last, double dt) {
  int i;
  [[clang::soa_conversion_target("part")]]
  for (i = first; i <= last; i++) {
    auto *p = &part[i - first];
    p->x += dt * p->v;
  }
}

void dampUntil(Body *b, unsigned n) {
  [[clang::soa_conversion_target("b")]]
  for (unsigned i = 0; i != n; i += 1)
    b[i].v *= 0.5 + b[i].m;
}

double sumShifted(const Body *b, long k, std::size_t n) {
  double s = 0;
  [[clang::soa_conversion_target("b")]]
  for (int i = 0; i < (int)n; i++)
    s += b[k + i].x * b[(k + i)].m;
  return s;
}

void scaleTail(Body (&arr)[16], int from) {
  [[clang::soa_conversion_target("arr")]]
  for (unsigned i = from; i <= 15u; ++i)
    arr[i].m *= 1.25;
}

void shiftDown(std::vector<Body> &bs, std::size_t n) {
  [[clang::soa_conversion_target("bs")]]
  for (std::size_t i = 2; i <= n + 1; ++i)
    bs[i - 2].x -= bs[i - 2].v;
}

void backwardsOffset(Body *b, int n) {
  const int last = n - 1;
  [[clang::soa_conversion_target("b")]]
  for (int i = 0; i != n; ++i)
    b[last - 0 + i - last].v += 1;
}

void emptyUpTo(Body *b, int n) {
  [[clang::soa_conversion_target("b")]]
  for (int i = n + 5; i <= n; ++i) // never runs
    b[i - n - 5].x = -1;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<Body> store(n + 3);
  for (Body &b : store)
    b = {corpus::uniform(), corpus::uniform(), corpus::uniform()};
  kickOneBased(store.data(), n, 0.25);
  if (n > 2)
    driftRange(store, 5, 5 + n - 3, 0.5);
  driftRange(store, 3, 2, 0.5); // never runs
  dampUntil(store.data() + 1, (unsigned)n);
  corpus::print("sum", sumShifted(store.data(), 2, (std::size_t)n));
  Body arr[16];
  for (Body &b : arr)
    b = {corpus::uniform(), corpus::uniform(), corpus::uniform()};
  scaleTail(arr, n % 17);
  shiftDown(store, (std::size_t)n);
  backwardsOffset(store.data(), n);
  emptyUpTo(store.data(), n);
  for (const Body &b : store) {
    corpus::print("x", b.x);
    corpus::print("v", b.v);
    corpus::print("m", b.m);
  }
  for (const Body &b : arr)
    corpus::print("am", b.m);
}
