// A lambda written outside the loop that takes the element by its own type
// has those parameters made generic where it is written (`P &a` -> `auto
// &a`, `const P &b` -> `const auto &b`, `P *q` -> `auto *q`, a name through
// an alias too); its other parameters, and a parameter of the element type
// that no loop passes an element to, stay as written. The calls are the
// user's, unchanged. A functor's call operator gets a clone instead.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <vector>

namespace md {
struct P {
  double x, f;
};
using Alias = P;
} // namespace md

template <class F> void pairs(std::vector<md::P> &v, F f) {
  [[clang::soa_conversion]]
  for (md::P &a : v) {
    [[clang::soa_conversion_hoist(1)]]
    for (md::P &b : v)
      f(a, b);
  }
}

template <class F> void each(std::vector<md::P> &v, F f) {
  [[clang::soa_conversion]]
  for (md::P &a : v)
    f(&a, 0.5);
}

struct Push {
  void operator()(md::P &a, const md::P &b) const { a.f -= b.x; }
};

void run(std::vector<md::P> &v, md::P &probe) {
  auto kick = [&](md::Alias &p, const md::P &other, double s) {
    p.f += s * other.x;
  };
  [[clang::soa_conversion]]
  for (md::P &p : v)
    kick(p, probe, 2.0);
  kick(probe, probe, 1.0);
  pairs(v, [&](md::P &a, const md::P &b) { a.f += b.x; });
  each(v, [](md::P *q, double s) { q->f *= s; });
}

void functor(std::vector<md::P> &v) { pairs(v, Push{}); }

// CHECK-LABEL: struct Push {
// CHECK: void operator()(md::P &a, const md::P &b) const { a.f -= b.x; }
// CHECK-NEXT: // soaview: clone of 'Push::operator()' for soaview's views
// CHECK-NEXT: #line
// CHECK-NEXT: template <class [[A:soaview_E0]], class [[B:soaview_E1]], ::soaview::if_views<{{.*}}> = 0> __attribute__((always_inline)) void operator()([[A]] &a, const [[B]] &b) const { a.f -= b.x; }

// The lambda's element parameter only: `other` receives no element.
// CHECK-LABEL: void run(
// CHECK-NEXT: auto kick = [&](auto &p, const md::P &other, double s) {
// CHECK: auto &p = [[VIEW:sv[0-9_]+_view]];
// CHECK-NEXT: kick(p, probe, 2.0); } }
// CHECK-NEXT: kick(probe, probe, 1.0);
// CHECK-NEXT: pairs(v, [&](auto &a, const auto &b) { a.f += b.x; });
// CHECK-NEXT: each(v, [](auto *q, double s) { q->f *= s; });
