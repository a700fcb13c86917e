// A reference to the container's pointer as loop variable (`auto &c`,
// `Cell *&c`, `const auto &c`, `Cell *const &c`) over std::vector<Cell *>
// and std::list<Cell *>, with a pointer held twice: the body only reads the
// pointer, so the loop converts as `for (Cell *c : cells)` would. Writes,
// reads, `decltype(c->e)`, a copy of the pointer, a comparison, a lambda capturing it, a
// callee taking the element, and a nest (test/Sema/refusals-more.cpp:
// reseating it is refused).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 7 --out %t \
// RUN:   --run "1 40" --run "2 7" --run "3 1" --run "4 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <list>
#include <vector>

struct Cell {
  double m, e, f;
  int n;
};

void heat(Cell &c, double by) { c.e += by * c.m; }

void kick(std::vector<Cell *> &cells, double dt) {
  [[clang::soa_conversion("always")]]
  for (auto &c : cells) // a pointer held twice sees its earlier writes
    c->e += dt * c->m;
}

double total(std::vector<Cell *> &cells) {
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (Cell *&c : cells) {
    decltype(c->e) half = c->e / 2; // an operand of a type only reads it
    Cell *copy = c;
    s += copy->e + (*c).m + half;
  }
  return s;
}

void count(const std::vector<Cell *> &cells, const Cell *special) {
  [[clang::soa_conversion("always")]]
  for (const auto &c : cells)
    if (c != special)
      c->n += 1;
}

void warm(std::list<Cell *> &cells, double by) {
  [[clang::soa_conversion("always")]]
  for (Cell *const &c : cells) {
    auto add = [&] { heat(*c, by); };
    add();
  }
}

void pairs(std::vector<Cell *> &local, std::vector<Cell *> &active) {
  [[clang::soa_conversion("always")]]
  for (auto &a : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (auto &b : active)
      a->f += b->m * a->m;
  }
}

template <class C> void scale(C &cells, double k) {
  [[clang::soa_conversion("always")]]
  for (auto &c : cells)
    c->m *= k;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<Cell> store(n + 1);
  for (Cell &c : store)
    c = {corpus::uniform(), corpus::uniform(), 0, 0};
  std::vector<Cell *> cells;
  for (int i = 0; i < n; ++i)
    cells.push_back(&store[(i * 5) % (n + 1)]);
  if (n > 2)
    cells.push_back(cells[1]);
  kick(cells, 0.25);
  corpus::print("total", total(cells));
  count(cells, n > 3 ? cells[3] : nullptr);
  std::list<Cell *> l(cells.begin(), cells.end());
  warm(l, 0.5);
  std::vector<Cell *> active(cells.rbegin(), cells.rend());
  pairs(cells, active);
  scale(cells, 1.5);
  for (const Cell &c : store) {
    corpus::print("m", c.m);
    corpus::print("e", c.e);
    corpus::print("f", c.f);
    corpus::print("n", c.n);
  }
}
