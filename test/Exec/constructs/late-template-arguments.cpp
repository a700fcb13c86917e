// A class template whose loops run over elements that are specializations
// of its argument, instantiated with a type declared after the template (in
// AutoPas a container header is included before the particle's): the views
// go where the instantiation is, after that type. A loop in a lambda of a
// member function with a deduced return type (instantiated when its type is
// needed, with no point of instantiation of its own) and a loop of a plain
// member of the same class.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 2 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <cstddef>
#include <vector>

namespace lib {
template <class T> struct Group {
  T *first;
  double load;
  std::vector<Group *> *nb;
  std::vector<Group *> *neighbours() { return nb; }
};
template <class T> struct Column {
  std::vector<Group<T>> gs;
  std::vector<Group<T>> &groups() { return gs; }
};
template <class T> struct Grid {
  std::vector<Column<T>> cols;
  double rescale(double f) {
    double s = 0;
    [[clang::soa_conversion("always")]]
    for (auto &g : cols[0].groups()) {
      g.load *= f;
      s += g.load;
    }
    return s;
  }
  auto estimator() {
    return [&](std::size_t lo, std::size_t hi) {
      double sum = 0;
      for (std::size_t x = lo; x <= hi && x < cols.size(); x++) {
        auto &col = cols[x];
        [[clang::soa_conversion("always")]]
        for (auto &g : col.groups())
          if (g.neighbours())
            sum += g.load * double(g.neighbours()->size());
      }
      return sum;
    };
  }
};
} // namespace lib

// Declared after Grid, as a later header would.
namespace lib {
template <class F, class I> struct Base {
  F r[3];
  I id;
};
} // namespace lib

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  using B = lib::Base<double, unsigned long>;
  std::vector<B> parts(n + 1);
  std::vector<lib::Group<B> *> some;
  lib::Grid<B> grid;
  grid.cols.resize(3);
  for (int k = 0; k < n; ++k) {
    auto &col = grid.cols[k % 3];
    col.gs.push_back({&parts[k], corpus::uniform(), k % 2 ? &some : nullptr});
  }
  for (auto &c : grid.cols)
    for (auto &g : c.gs)
      some.push_back(&g);
  corpus::print("rescaled", grid.rescale(1.5));
  corpus::print("estimate", grid.estimator()(0, 2));
}
