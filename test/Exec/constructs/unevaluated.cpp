// sizeof, alignof, decltype, __typeof__ and noexcept name fields without
// reading them, and the GNU max() macro (statement expression over
// __typeof__) reads its arguments once: none of them is a foreign access.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 3 --out %t \
// RUN:   --run "1 50" --run "3 7" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <typeinfo>
#include <vector>

#define gnu_max(a, b)                                                          \
  ({                                                                           \
    __typeof__(a) _a = (a);                                                    \
    __typeof__(b) _b = (b);                                                    \
    _a > _b ? _a : _b;                                                         \
  })

struct Cell {
  double x, y;
  float h;
  int tag; // only named in sizeof: declared in the view, never a conflict
  double out;
};

void pairs(std::vector<Cell *> &local, std::vector<Cell *> &active) {
  [[clang::soa_conversion]]
  for (Cell *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (Cell *pj : active) {
      decltype(pj->x) d = pi->x - pj->x;
      __typeof__(pi->x) q = d * d;
      pi->out += gnu_max(q, pj->y) + sizeof(pj->tag) + alignof(decltype(pi->h)) +
                 (noexcept(pj->y) ? 1 : 0) + (typeid(pj->x) == typeid(double));
    }
  }
}

// An index loop: `buf[i]` inside decltype and sizeof is the view too.
void indexed(Cell *buf, int n) {
  [[clang::soa_conversion_target("buf"), clang::soa_conversion("always")]]
  for (int i = 0; i < n; ++i) {
    decltype(buf[i].x) t = buf[i].x;
    buf[i].out += t * 0.5 + sizeof(buf[i].tag);
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<Cell> cells(corpus::count(argc, argv, 50));
  std::vector<Cell *> all;
  for (Cell &c : cells) {
    c = Cell{corpus::uniform(), corpus::uniform(), (float)corpus::uniform(), 3, 0};
    all.push_back(&c);
  }
  pairs(all, all);
  indexed(cells.data(), (int)cells.size());
  for (const Cell &c : cells)
    corpus::print("out", c.out);
}
