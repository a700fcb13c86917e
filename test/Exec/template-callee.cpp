// A loop in a function template passes the element to a free function
// declared before the template: the call is resolved at instantiation, by
// argument-dependent lookup on the view, which must find the function's
// clone (regression: views in a plain unnamed namespace hid it; found by
// soaview-fuzz, seed 710002).
// RUN: %clangxx -O1 -Wno-unknown-attributes %s -o %t.plain
// RUN: %soaviewxx -O1 %s -o %t.sv
// RUN: %t.plain > %t.plain.out && %t.sv > %t.sv.out
// RUN: diff %t.plain.out %t.sv.out
#include <cstdio>
#include <vector>
namespace phys {
struct S { double a, b; };
}
static void bump(phys::S &s, int k) { s.a += s.b * k; }
struct T { double a, b; };
static void bump(T &s, int k) { s.a -= s.b * k; }
template <class C> double kernel(C &c) {
  double acc = 0;
  [[clang::soa_conversion]]
  for (auto *e : c) {
    bump(*e, 2);
    acc += e->a;
  }
  return acc;
}
int main() {
  std::vector<phys::S> s(5);
  std::vector<T> t(5);
  std::vector<phys::S *> ps;
  std::vector<T *> pt;
  for (int i = 0; i < 5; ++i) {
    s[i] = {1.0 * i, 0.5};
    t[i] = {2.0 * i, 0.25};
    ps.push_back(&s[i]);
    pt.push_back(&t[i]);
  }
  std::printf("%a %a\n", kernel(ps), kernel(pt));
  for (int i = 0; i < 5; ++i)
    std::printf("%a %a\n", s[i].a, t[i].a);
}
