// Loops that call functions beside a container the rule must keep intact
// (test/Sema/container-callees.cpp refuses those that change it): a callee
// reading the global container, one writing another global of its type by
// name, a neighbour-list loop over a local list whose address never leaves
// its function calling a function that fills another list of its type
// through a reference, and a method of the loop's class that writes other
// members. All convert and compute what the plain build computes.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 3 --out %t \
// RUN:   --run "1 30" --run "2 5" --run "3 1" --run "4 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct Part {
  double x, m, rho;
  int hits;
};

std::vector<Part *> all;
std::vector<Part *> spare;
Part outside{0, 0, 0, 0};

double meanMass() { // reads the container
  double s = 0;
  for (const Part *p : all)
    s += p->m;
  return all.empty() ? 0 : s / (double)all.size();
}
void park() { // writes another container of the same type, by name
  if (spare.size() < 3)
    spare.push_back(&outside);
}

void relax() {
  [[clang::soa_conversion("always")]]
  for (Part *p : all) {
    p->rho += p->m * p->x - meanMass();
    park();
  }
}

void remember(std::vector<int> &seen, int k) {
  if (seen.empty() || seen.back() != k)
    seen.push_back(k);
}

int listedVisits(std::vector<Part> &A) {
  std::vector<int> ngb, seen;
  for (std::size_t k = 0; k < A.size(); ++k)
    ngb.push_back((int)((k * 7) % A.size()));
  [[clang::soa_conversion("always"), clang::soa_conversion_target("A")]]
  for (std::size_t k = 0; k < ngb.size(); ++k) {
    A[ngb[k]].hits += 1;
    remember(seen, ngb[k]);
  }
  return (int)seen.size();
}

struct Box {
  std::vector<Part *> parts;
  int steps = 0;
  double total = 0;
  void count(double v) { // other members than the container
    ++steps;
    total += v;
  }
  void sweep() {
    [[clang::soa_conversion("always")]]
    for (Part *p : parts) {
      p->x *= 0.5;
      count(p->x);
    }
  }
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 30);
  std::vector<Part> A(n);
  for (Part &p : A)
    p = {corpus::uniform(), corpus::uniform(), 0, 0};
  for (Part &p : A)
    all.push_back(&p);
  relax();
  int distinct = listedVisits(A);
  Box box;
  for (int k = n - 1; k >= 0; --k)
    box.parts.push_back(&A[k]);
  box.sweep();
  corpus::print("n", n);
  corpus::print("spare", spare.size());
  corpus::print("distinct", distinct);
  corpus::print("steps", box.steps), corpus::print("total", box.total);
  for (const Part &p : A)
    corpus::print("x", p.x), corpus::print("rho", p.rho),
        corpus::print("hits", p.hits);
}
