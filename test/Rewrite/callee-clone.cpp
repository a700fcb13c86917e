// A free function receiving the element gets a clone, a function template
// that takes a view of the element in its place, declared after the
// function's first declaration and defined after its definition.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <vector>

namespace phys {
struct P { double x, v, m; };
inline void drift(P &p, double dt) { p.x += p.v * dt; }
void kick(P &p, double dt);
} // namespace phys

namespace app {
void step(std::vector<phys::P> &ps, double dt) {
  [[clang::soa_conversion]]
  for (auto &p : ps) {
    phys::kick(p, dt);
    phys::drift(p, dt);
  }
}
} // namespace app

void phys::kick(P &p, double dt) { p.v += dt / p.m; }

// CHECK-LABEL: namespace phys {
// CHECK: inline void drift(P &p, double dt) { p.x += p.v * dt; }
// CHECK-NEXT: // soaview: clone of 'phys::drift' for soaview's views
// CHECK-NEXT: #line 9 "{{.*}}callee-clone.cpp"
// CHECK-NEXT: template <class soaview_E0, ::soaview::if_views<::soaview::stands_for<soaview_E0, ::phys::P>> = 0> __attribute__((always_inline)) inline void drift(soaview_E0 &p, double dt) { p.x += p.v * dt; }
// CHECK: void kick(P &p, double dt);
// CHECK-NEXT: // soaview: clone of 'phys::kick' for soaview's views
// CHECK-NEXT: #line 10
// CHECK-NEXT: template <class soaview_E0, ::soaview::if_views<::soaview::stands_for<soaview_E0, ::phys::P>> = 0> __attribute__((always_inline)) void kick(soaview_E0 &p, double dt);
// CHECK-LABEL: namespace app {
// CHECK: } // soaview: leave the namespace to emit views
// CHECK: struct [[V:P_16_3]] {
// CHECK: using soaview_element = ::phys::P;
// CHECK: namespace app {
// CHECK-NEXT: #line 14
// CHECK-NEXT: void step(
// CHECK: phys::kick(p, dt);
// CHECK-NEXT: phys::drift(p, dt);
// The out-of-line definition's clone: the default argument is the
// declaration's, and the element type is qualified (the head comes before
// the declarator's scope).
// CHECK: void phys::kick(P &p, double dt) { p.v += dt / p.m; }
// CHECK-NEXT: // soaview: clone of 'phys::kick' for soaview's views
// CHECK-NEXT: #line 23
// CHECK-NEXT: template <class soaview_E0, ::soaview::if_views<::soaview::stands_for<soaview_E0, ::phys::P>>> __attribute__((always_inline)) void phys::kick(soaview_E0 &p, double dt) { p.v += dt / p.m; }
