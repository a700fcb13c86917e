// Neighbour-list loops (issue #50, part 2): an index loop whose element is
// `A[list[k]]` gathers the listed elements through the list (as pointers:
// an index listed twice shares one slot, so a later visit sees an earlier
// write as written). Lists of ints in a std::vector, a pointer and an
// array, with an offset (`list[k - 1]` from 1), repeats, a loop hoisted
// out of a loop that keeps the list unchanged, a `<=` bound, and a list
// read beside other elements (`A[target]`).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 40" --run "2 7" --run "3 1" --run "4 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct Part {
  double x, y, m, rho, ax;
  int visits;
};

// A gather list with repeats: each visit adds to what the last one wrote.
void densityOfListed(std::vector<Part> &A, const std::vector<int> &ngb) {
  [[clang::soa_conversion_target("A")]]
  for (std::size_t k = 0; k < ngb.size(); ++k) {
    A[ngb[k]].rho = 0.5 * A[ngb[k]].rho + A[ngb[k]].m * A[ngb[k]].x;
    A[ngb[k]].visits += 1;
  }
}

// A 1-based loop over a pointer list, reading beside the target element.
void pullToTarget(Part *A, const int *list, int n, int target) {
  [[clang::soa_conversion_target("A")]]
  for (int k = 1; k <= n; k++) {
    double dx = A[list[k - 1]].x - A[target].x;
    A[list[k - 1]].ax -= A[target].m * dx / (dx * dx + 1e-2);
  }
}

// The neighbours of a fixed centre, gathered once before the outer loop
// (the list does not change in it), read for every step.
void smoothSteps(Part *A, int steps, const std::vector<int> &ngb) {
  const int m = (int)ngb.size();
  for (int s = 0; s < steps; ++s) {
    double sum = 0;
    [[clang::soa_conversion_target("A"), clang::soa_conversion_hoist(1)]]
    for (int k = 0; k < m; ++k)
      sum += A[ngb[k]].m * A[ngb[k]].y;
    A[0].ax += sum * 1e-3;
  }
}

// An array list with a compile-time length.
void kick(Part *A, int n) {
  if (n < 3)
    return;
  const int corners[4] = {0, n - 1, n / 2, 0};
  [[clang::soa_conversion_target("A")]]
  for (int k = 0; k != 4; ++k)
    A[corners[k]].ax += A[corners[k]].m;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<Part> A(n);
  for (Part &p : A)
    p = {corpus::uniform(), corpus::uniform(), corpus::uniform(), 0, 0, 0};
  std::vector<int> ngb;
  for (int k = 0; k < 2 * n; ++k)
    ngb.push_back((int)(corpus::uniform() * n)); // repeats
  densityOfListed(A, ngb);
  pullToTarget(A.data(), ngb.data(), (int)ngb.size(), n / 3);
  std::vector<int> few(ngb.begin(), ngb.begin() + n / 2);
  if (n > 0)
    smoothSteps(A.data(), 3, few);
  kick(A.data(), n);
  corpus::print("n", n);
  for (const Part &p : A)
    corpus::print("rho", p.rho), corpus::print("ax", p.ax),
        corpus::print("visits", p.visits);
}
