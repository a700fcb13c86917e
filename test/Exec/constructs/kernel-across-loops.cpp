// One kernel called from two loops of a nest with other elements
// (ESPResSo's link_cell shape: a pair kernel handed to a template as a
// lambda, called for pairs in a cell and for pairs with neighbour cells).
// The kernel's body is analysed once per binding of its parameters, and so
// is every call in it: before, the second binding's calls were taken as
// already followed, so the neighbour loop "used no field" and the whole
// nest was left as written. A typed lambda, a generic lambda and a free
// function, each reaching the fields through a function it calls.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 9 --out %t \
// RUN:   --run "1 6" --run "2 11" --run "3 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <iterator>
#include <vector>

struct P {
  double x, f, pad[3];
};
struct Cell {
  std::vector<P> ps;
  std::vector<Cell *> red;
};

static void kern(P &a, P &b) {
  double d = a.x - b.x;
  a.f += d * d;
  b.f -= d;
}

template <class K> void link_cells(std::vector<Cell> &cells, K &&k) {
  for (auto &c : cells) {
    auto &lp = c.ps;
    [[clang::soa_conversion("always")]]
    for (auto it = lp.begin(); it != lp.end(); ++it) {
      auto &p1 = *it;
      [[clang::soa_conversion("always")]]
      for (auto jt = std::next(it); jt != lp.end(); ++jt)
        k(p1, *jt);
      for (auto *nb : c.red) {
        [[clang::soa_conversion("always")]]
        for (auto &p2 : nb->ps)
          k(p1, p2);
      }
    }
  }
}

static void pairs(P &a, P &b) { kern(b, a); }

void direct(std::vector<Cell> &cells) {
  for (auto &c : cells) {
    [[clang::soa_conversion("always")]]
    for (auto it = c.ps.begin(); it != c.ps.end(); ++it) {
      [[clang::soa_conversion("always")]]
      for (auto jt = std::next(it); jt != c.ps.end(); ++jt)
        pairs(*it, *jt);
      for (auto *nb : c.red) {
        [[clang::soa_conversion("always")]]
        for (auto &q : nb->ps)
          pairs(*it, q);
      }
    }
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 6);
  std::vector<Cell> cs(4);
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < n + c; ++i)
      cs[c].ps.push_back({c * 1.5 + corpus::uniform(), 0, {0, 0, 0}});
  cs[0].red = {&cs[1], &cs[2]};
  cs[1].red = {&cs[2], &cs[3]};
  cs[3].red = {&cs[0]};
  link_cells(cs, [](P &a, P &b) { kern(a, b); });
  link_cells(cs, [](auto &a, auto &b) { kern(b, a); });
  direct(cs);
  for (auto &c : cs)
    for (auto &p : c.ps)
      corpus::print("f", p.f);
}
