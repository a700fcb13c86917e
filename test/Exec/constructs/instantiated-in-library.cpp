// A class template whose first instantiation starts inside another
// library's template (here a standard type trait, as std::make_unique's
// traits do in AutoPas), and whose loop is in a member function called
// only from another member: every point of instantiation lies in template
// source. The views go before the main file's last declaration, after the
// template argument declared later than the class template.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 1 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <type_traits>
#include <vector>

namespace lib {
template <class T> struct Group {
  T *first;
  double load;
};
template <class T> class Grid {
  double rescale(double f) {
    double s = 0;
    [[clang::soa_conversion("always")]]
    for (auto &g : gs) {
      g.load *= f;
      s += g.load;
    }
    return s;
  }

public:
  std::vector<Group<T>> gs;
  double step(double f) { return rescale(f) + rescale(1 / f); }
};
} // namespace lib

// Declared after Grid, as a later header would.
namespace lib {
template <class F, class I> struct Base {
  F r[3];
  I id;
};
} // namespace lib

using B = lib::Base<double, unsigned long>;
static_assert(std::is_default_constructible_v<lib::Grid<B>>);

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  std::vector<B> parts(n + 1);
  lib::Grid<B> grid;
  for (int k = 0; k < n; ++k)
    grid.gs.push_back({&parts[k], corpus::uniform()});
  corpus::print("stepped", grid.step(1.5));
}
