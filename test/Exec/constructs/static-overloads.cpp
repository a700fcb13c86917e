// A member function and a static member function of the element's class
// share a name (AutoPas's OctreeNodeInterface::getEnclosedVolumeWith, two
// arguments on the node, four static): the view's forward of the static
// one is viable only where the static one is, so the call with two
// arguments runs the copied member.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 1 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <array>
#include <vector>

struct Box {
  std::array<double, 3> lo, hi;
  double w;
  static double overlap(const std::array<double, 3> &a,
                        const std::array<double, 3> &b,
                        const std::array<double, 3> &c,
                        const std::array<double, 3> &d) {
    double p = 1;
    for (int k = 0; k < 3; ++k)
      p *= a[k] < c[k] ? b[k] - c[k] : d[k] - a[k];
    return p;
  }
  double overlap(const std::array<double, 3> &c,
                 const std::array<double, 3> &d) {
    w += 1;
    return overlap(lo, hi, c, d);
  }
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  std::vector<Box> boxes(n);
  std::vector<Box *> some;
  for (Box &b : boxes) {
    double x = corpus::uniform();
    b = {{x, x, x}, {x + 0.5, x + 0.5, x + 0.5}, 0};
    some.push_back(&b);
  }
  std::array<double, 3> c{0.3, 0.3, 0.3}, d{1.2, 1.1, 1.0};
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (Box *b : some)
    s += b->overlap(c, d);
  corpus::print("overlap", s);
  for (const Box &b : boxes)
    corpus::print("w", b.w);
}
