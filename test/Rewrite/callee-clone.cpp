// A free function receiving the element gets a clone taking the proxy; one
// defined after the loop is declared before it and defined after the original.
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

// CHECK-LABEL: namespace app {
// CHECK: } // soaview: leave the namespace to emit views
// CHECK-NEXT: namespace phys {
// CHECK-NEXT: struct [[V:P_15_3]];
// CHECK: // soaview: clone of 'phys::kick' for the view
// CHECK-NEXT: void kick(::phys::soaview_gen::[[V]] &p, double dt);
// CHECK: // soaview: clone of 'phys::drift' for the view
// CHECK-NEXT: inline void drift(::phys::soaview_gen::[[V]] &p, double dt);
// CHECK: struct [[V]] {
// CHECK: #line 8 "{{.*}}callee-clone.cpp"
// CHECK-NEXT: inline void drift(::phys::soaview_gen::[[V]] &p, double dt) { p.x += p.v * dt; }
// CHECK: namespace app {
// CHECK-NEXT: #line 13
// CHECK-NEXT: void step(
// CHECK: void phys::kick(P &p, double dt) { p.v += dt / p.m; }
// CHECK-NEXT: #line 22
// CHECK-NEXT: void phys::kick(::phys::soaview_gen::[[V]] &p, double dt) { p.v += dt / p.m; }
