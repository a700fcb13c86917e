// Library functions soaview cannot see into may be given the address of a
// field that holds a number (std::modf, std::frexp), or of any field when
// they only copy memory (std::memcpy, std::memset): the converted loop
// computes what the plain one does. A lock's address is refused instead
// (test/Sema/refusals-atomics.cpp).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 1 --out %t \
// RUN:   --run "1 40" --run "7 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <cmath>
#include <cstring>
#include <vector>

struct Pair {
  double a, b;
};
struct P {
  double x, whole, frac, mant;
  int exp;
  Pair pair, saved;
};

void split(std::vector<P *> &ps) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps) {
    p->frac = std::modf(p->x * 10, &p->whole);
    p->mant = std::frexp(p->x, &p->exp);
    std::memcpy(&p->saved, &p->pair, sizeof(Pair));
    std::memset(&p->pair, 0, sizeof p->pair);
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<P> ps(corpus::count(argc, argv, 40));
  std::vector<P *> all;
  for (P &p : ps) {
    p = {};
    p.x = corpus::uniform();
    p.pair = {corpus::uniform(), corpus::uniform()};
    all.push_back(&p);
  }
  split(all);
  for (const P &p : ps)
    corpus::print("whole", p.whole), corpus::print("frac", p.frac),
        corpus::print("mant", p.mant), corpus::print("exp", p.exp),
        corpus::print("a", p.saved.a), corpus::print("b", p.saved.b),
        corpus::print("pa", p.pair.a);
}
