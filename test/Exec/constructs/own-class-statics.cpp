// Member functions of the element that use other objects of its own class
// (Peano4's TaskNumber): a static const member of the element's own type
// (not a literal type: `static const T Max;`), a static const double
// defined out of line, and private fields of those other objects and of a
// caller's object passed in (`Max.a_`, `o.id_`). The view is another
// class: it forwards the statics by reference and reaches the other
// objects' private fields through member pointers.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 2 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

namespace tasks {
class Number {
public:
  Number(int c, int a) : c_(c), a_(a) {}
  static const Number Max;
  static const double Scale;
  long flatten() const { return c_ * long(Max.a_) + a_; }
  bool before(const Number &o) const { return c_ < o.c_; }
  double weight() const { return Scale * a_; }
  void bump(const Number &by) { a_ += by.c_ % 3; }

private:
  int c_, a_;
};
const Number Number::Max{1000, 7};
const double Number::Scale = 0.25;
} // namespace tasks

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  std::vector<tasks::Number> v;
  for (int k = 0; k < n; ++k)
    v.emplace_back(int(corpus::uniform() * 50), int(corpus::uniform() * 9));
  tasks::Number pivot(25, 1);
  long flat = 0, early = 0;
  double w = 0;
  [[clang::soa_conversion("always")]]
  for (const auto &t : v) {
    flat += t.flatten();
    early += t.before(pivot);
    w += t.weight();
  }
  [[clang::soa_conversion("always")]]
  for (auto &t : v)
    t.bump(pivot);
  corpus::print("flat", flat);
  corpus::print("early", early);
  corpus::print("w", w);
  for (const auto &t : v)
    corpus::print("t", t.flatten());
}
