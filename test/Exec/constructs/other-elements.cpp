// An index loop that also reaches other elements of its target (issue #50,
// part 2): `A[target]` read beside `A[j]` (a tree code's source loop),
// `A[k]` written where the view holds none of k's fields, `A.size()` in an
// inner loop's bound, a nest whose inner loop over the same target reads a
// fixed element, and a neighbour list (`A[ngb[k]]`). These stay on the
// array as written; the view holds the current element only.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 6 --out %t \
// RUN:   --run "1 40" --run "2 7" --run "3 1" --run "4 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct Body {
  double x, y, m, ax, ay, pot;
  int hits;
};

// The source loop of a tree code: every particle pulls on the target.
void pullOnTarget(std::vector<Body> &A, int target, int n) {
  [[clang::soa_conversion_target("A")]]
  for (int j = 0; j < n; ++j) {
    if (j == target)
      continue;
    double dx = A[j].x - A[target].x, dy = A[j].y - A[target].y;
    double r2 = dx * dx + dy * dy + 1e-3;
    A[j].ax -= A[target].m * dx / r2;
    A[j].ay -= A[target].m * dy / r2;
  }
}

// A field the view does not hold may be written on another element.
void countInto(Body *A, int n, int sink) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i)
    if (A[i].x > 0.5)
      A[sink].hits += 1;
}

// The whole container queried in the body, for an inner loop's bound.
void potential(std::vector<Body> &A) {
  [[clang::soa_conversion_target("A")]]
  for (std::size_t i = 0; i < A.size(); ++i) {
    double p = 0;
    for (std::size_t k = 0; k < A.size(); ++k)
      p += k == i ? 0 : A[k].m / (1.0 + (double)k);
    A[i].pot = p * A[i].m;
  }
}

// A nest over one target; the inner loop also reads a fixed element.
void pairsWithAnchor(Body *bodies, int n, int anchor) {
  [[clang::soa_conversion_target("bodies")]]
  for (int i = 0; i < n; ++i) {
    double s = 0;
    [[clang::soa_conversion_target("bodies"), clang::soa_conversion_hoist(1)]]
    for (int j = 0; j < n; ++j)
      s += bodies[j].x * bodies[i].y + bodies[anchor].m;
    bodies[i].ax += s;
  }
}

// A neighbour list: the inner loop reaches neighbours through indices into
// the target (read as written; the view is the outer element's).
void densityFromList(std::vector<Body> &A, const std::vector<int> &ngb,
                     int n) {
  [[clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i) {
    double rho = 0;
    for (std::size_t k = 0; k < ngb.size(); ++k) {
      const Body &pj = A[ngb[k]];
      double dx = A[i].x - pj.x;
      rho += pj.m / (1.0 + dx * dx);
    }
    A[i].pot += rho;
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<Body> store(n + 1);
  for (Body &b : store)
    b = {corpus::uniform(), corpus::uniform(), corpus::uniform(), 0, 0, 0, 0};
  for (int t = 0; t < n; t += 3)
    pullOnTarget(store, t, n);
  countInto(store.data(), n, n);
  potential(store);
  pairsWithAnchor(store.data(), n, n / 2);
  std::vector<int> ngb;
  for (int k = 0; k < n; k += 2)
    ngb.push_back((k * 7) % n);
  densityFromList(store, ngb, n);
  for (const Body &b : store) {
    corpus::print("ax", b.ax);
    corpus::print("ay", b.ay);
    corpus::print("pot", b.pot);
    corpus::print("hits", b.hits);
  }
}
