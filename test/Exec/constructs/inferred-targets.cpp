// Index loops with a plain soa_conversion: the target is the one array of
// structs the body subscripts with the index (test/Rewrite/inferred-targets.cpp
// shows the rewrite). A 1-based `<=` loop with an offset, a neighbour list,
// a symmetric pair nest and loops in templates, bit for bit with the plain
// build.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 7 --out %t \
// RUN:   --run "1 12" --run "2 33" --run "3 1" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct P {
  double x, v, f;
  int id;
  int &idRef() { return id; }
};

// A field written through the element's own accessor changes the element,
// not the vector the bound reads (the fuzzer's seed 34000026: refused
// before, "the loop index or bound is modified").
void bump(std::vector<P> &ps) {
  [[clang::soa_conversion]]
  for (std::size_t i = 0; i < ps.size(); ++i)
    ps[i].idRef() = ps[i].idRef() * 3 + 1;
}

void offset(std::vector<P> &part, int first, int last) {
  [[clang::soa_conversion]]
  for (int i = first; i <= last; ++i)
    part[i - first].v += 0.5 * part[i - first].x;
}

void listed(P *ps, const std::vector<int> &list) {
  [[clang::soa_conversion]]
  for (std::size_t k = 0; k < list.size(); ++k)
    ps[list[k]].x += ps[list[k]].v;
}

void pairs(P *ps, int n) {
  [[clang::soa_conversion]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion]]
    for (int j = i + 1; j < n; ++j) {
      double d = ps[i].x - ps[j].x;
      ps[i].f += d * ps[j].v;
      ps[j].f -= d * ps[i].v;
    }
}

// In a template, over an array whose type the template knows (AutoPas's
// traversals over their locks): the view's spec is still looked up when
// the template instantiates (an internal error before), with the target
// inferred or written.
template <class Tag> struct Walker {
  static void walk(std::vector<P> &ps) {
    [[clang::soa_conversion]]
    for (unsigned long i = 0; i < ps.size(); i++)
      ps[i].id += 2;
  }
};
template <class Tag> void written(P *ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i)
    ps[i].f *= 0.5;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 12);
  std::vector<P> ps(n);
  for (int i = 0; i < n; ++i)
    ps[i] = {corpus::uniform(), corpus::uniform(), 0, i};
  offset(ps, 1, n);
  std::vector<int> list;
  for (int i = 0; i < n; ++i)
    list.push_back((i * 7) % n);
  listed(ps.data(), list);
  pairs(ps.data(), n);
  Walker<int>::walk(ps);
  bump(ps);
  written<char>(ps.data(), n);
  for (const P &p : ps) {
    corpus::print("x", p.x);
    corpus::print("v", p.v);
    corpus::print("f", p.f);
    corpus::print("id", p.id);
  }
}
