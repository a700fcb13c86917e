// Iterator loops whose condition asks the iterator (`it.isValid()`,
// `!it.atEnd()`), as AutoPas and ls1-mardyn write their particle loops: the
// iterator walks cells and skips particles of the wrong kind, and there is
// no end to compare against. The frame gathers from a copy of the begin
// until the condition fails (::soaview::while_valid). Before: refused ("the
// loop's condition is 'it.isValid()'"). Over structs and over pointers,
// with `it->` and `*it`, a member and a free function, an empty range, and a
// begin with a side effect (ls1-mardyn's `molCont->iterator(mode)`), which
// both builds evaluate once per loop.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 9 --out %t \
// RUN:   --run "1 9" --run "2 40" --run "3 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <cstddef>
#include <vector>

struct Particle {
  double r[3], v[3], f[3];
  bool owned;
  long id;
};

// Cells of particles; the iterator visits the owned ones, cell by cell.
class Cells {
public:
  std::vector<std::vector<Particle>> cells;
  class Iterator {
  public:
    Iterator(std::vector<std::vector<Particle>> *cs) : cs(cs) { settle(); }
    bool isValid() const { return cell < cs->size(); }
    Particle &operator*() const { return (*cs)[cell][k]; }
    Particle *operator->() const { return &(*cs)[cell][k]; }
    Iterator &operator++() {
      ++k;
      settle();
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++*this;
      return old;
    }

  private:
    void settle() {
      while (cell < cs->size() &&
             (k >= (*cs)[cell].size() || !(*cs)[cell][k].owned)) {
        if (k >= (*cs)[cell].size())
          ++cell, k = 0;
        else
          ++k;
      }
    }
    std::vector<std::vector<Particle>> *cs;
    std::size_t cell = 0, k = 0;
  };
  Iterator begin() { return Iterator(&cells); }
  // ls1-mardyn's shape: a begin that is no begin() and changes the
  // container (here it counts its calls): evaluated once, as written.
  long walks = 0;
  Iterator iterator(int) {
    ++walks;
    return Iterator(&cells);
  }

  void kick(double dt) {
    [[clang::soa_conversion("always")]]
    for (auto it = begin(); it.isValid(); ++it)
      for (int d = 0; d < 3; ++d)
        it->v[d] += dt * it->f[d];
  }
};

// An iterator that inherits its operator* (ls1-mardyn's
// RegionParticleIterator): refused before ("has no 'operator*'").
struct OwnedIterator : Cells::Iterator {
  explicit OwnedIterator(Cells &c) : Cells::Iterator(&c.cells) {}
};
void push(Cells &c) {
  [[clang::soa_conversion("always")]]
  for (OwnedIterator it(c); it.isValid(); ++it)
    (*it).f[0] += 0.25;
}

// An iterator whose constructor has default arguments (cells to skip, a
// scale): the copy of the begin repeats the parentheses or braces as
// written. Before, the range of its arguments ended at the constructor's
// default argument, the copy was `Strided()`; and with braces
// (`Strided it{c, 1}`, found by the fuzzer) the copy took the variable's
// name too, `Stridedit{c, 1}`: the converted code did not compile (an
// internal error).
struct Strided : Cells::Iterator {
  Strided(Cells &c, int skip = 0, double scale = 1.0)
      : Cells::Iterator(&c.cells), scale(scale) {
    for (int i = 0; i < skip && isValid(); ++i)
      ++*this;
  }
  double scale;
};
void nudge(Cells &c) {
  [[clang::soa_conversion("always")]]
  for (Strided it(c); it.isValid(); ++it)
    it->f[1] += 0.125;
  [[clang::soa_conversion("always")]]
  for (Strided it(c, 2); it.isValid(); ++it)
    it->f[1] -= 0.0625;
  [[clang::soa_conversion("always")]]
  for (Strided it{c, 1}; it.isValid(); ++it)
    it->f[0] *= 0.75;
}

void damp(Cells *c) {
  [[clang::soa_conversion("always")]]
  for (auto i = c->iterator(1); i.isValid(); ++i)
    i->v[1] *= 0.5;
}

void drift(Cells &c, double dt) {
  [[clang::soa_conversion("always")]]
  for (Cells::Iterator it = c.begin(); it.isValid(); it++) {
    Particle &p = *it;
    for (int d = 0; d < 3; ++d)
      p.r[d] += dt * p.v[d];
  }
}

// A list of pointers walked by an iterator that says when it is done.
struct Walker {
  const std::vector<Particle *> *list;
  std::size_t k = 0;
  bool atEnd() const { return k == list->size(); }
  Particle *const &operator*() const { return (*list)[k]; }
  Walker &operator++() {
    ++k;
    return *this;
  }
};

double energy(const std::vector<Particle *> &list) {
  double e = 0;
  [[clang::soa_conversion("always")]]
  for (Walker it{&list}; !it.atEnd(); ++it)
    e += (*it)->v[0] * (*it)->v[0] + (*it)->v[1] * (*it)->v[1];
  [[clang::soa_conversion("always")]]
  for (Walker it{&list}; !it.atEnd(); ++it)
    (*it)->f[2] = e * (*it)->r[2];
  return e;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 9);
  Cells c;
  c.cells.resize(5);
  long id = 0;
  for (int i = 0; i < n; ++i) {
    Particle p{};
    for (int d = 0; d < 3; ++d)
      p.r[d] = corpus::uniform(), p.v[d] = corpus::uniform(),
      p.f[d] = corpus::uniform() - 0.5;
    p.owned = corpus::uniform() < 0.7;
    p.id = id++;
    c.cells[(i * 3) % 4].push_back(p); // cell 4 stays empty
  }
  c.kick(0.1);
  drift(c, 0.01);
  damp(&c);
  damp(&c);
  push(c);
  nudge(c);
  corpus::print("walks", c.walks);
  std::vector<Particle *> list;
  for (auto &cell : c.cells)
    for (auto &p : cell)
      if (p.id % 3)
        list.push_back(&p);
  corpus::print("energy", energy(list));
  for (auto &cell : c.cells)
    for (auto &p : cell)
      for (int d = 0; d < 3; ++d) {
        corpus::print("r", p.r[d]);
        corpus::print("v", p.v[d]);
        corpus::print("f", p.f[d]);
      }
}
