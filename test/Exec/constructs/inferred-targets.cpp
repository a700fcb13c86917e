// Index loops with a plain soa_conversion: the target is the one array of
// structs the body subscripts with the index (test/Rewrite/inferred-targets.cpp
// shows the rewrite). A 1-based `<=` loop with an offset, a neighbour list
// and a symmetric pair nest, bit for bit with the plain build.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 12" --run "2 33" --run "3 1" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct P {
  double x, v, f;
  int id;
};

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
  for (const P &p : ps) {
    corpus::print("x", p.x);
    corpus::print("v", p.v);
    corpus::print("f", p.f);
  }
}
