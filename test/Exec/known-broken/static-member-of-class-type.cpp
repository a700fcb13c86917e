// Known broken under annotate=all (issue #29, found on real code): soaview converts
// the loop and its generated code does not compile. XFAIL until fixed; then make
// it a test/Exec/constructs program compared bit for bit with the plain build.
// XFAIL: *
// RUN: %soaview_cc1 -fplugin-arg-soaview-annotate=all %s
// Shape: the element class has a static const data member of its own (non-literal) class type; the view
// re-declares it as 'static constexpr auto Max = ::T::Max;' ("constexpr variable cannot have non-literal type 'const T'").
// From Peano4: src/swift2/TaskNumber.cpp:91 (for (auto &p : numbers) msg << p.toString();) and :109
// (if (p != TaskNumber::NoOutDependencies) result.insert(p.flatten());), TaskNumber.h:55-56 (static const TaskNumber Max, NoOutDependencies).
#include <vector>
struct T {
  T(int c, int a);
  static const T Max;
  int flatten() const { return c_ * Max.a_ + a_; }
 private:
  int c_, a_;
};
const T T::Max{1000, 3};
T::T(int c, int a) : c_(c), a_(a) {}
long sum(const std::vector<T> &v) {
  long s = 0;
  for (auto &p : v) s += p.flatten();
  return s;
}
