// A hoisted inner view is built before the outer loop (outside the outer
// view's block) and written back after it; both loops over P share one view
// type, each loop its own buffers; the clone takes a view per argument.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <list>
struct P { double x, m, rho; };
void density(P &l, const P &a) { l.rho += a.m * (l.x - a.x); }
void pairs(std::list<P *> &local, std::list<P *> &active) {
  [[clang::soa_conversion]]
  for (auto *l : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (auto *a : active)
      density(*l, *a);
  }
}
// CHECK: template <class soaview_E0, class soaview_E1, ::soaview::if_views<::soaview::stands_for<soaview_E0, ::P>, ::soaview::stands_for<soaview_E1, ::P>> = 0> __attribute__((always_inline)) void density(soaview_E0 &l, const soaview_E1 &a) {
// CHECK: struct [[L:P_10_3]]_spec {
// CHECK: struct [[A:P_12_5]]_spec {
// CHECK-NEXT: using element = ::P;
// CHECK-NEXT: using view = [[L]];
// CHECK-LABEL: void pairs(std::list
// CHECK-NEXT: /*clang::soa_conversion*/
// CHECK-NEXT: { // soaview: hoisted 1 level(s) out of the loop at hoisted.cpp:12:5
// CHECK-NEXT: auto &&[[AR:sv12_5_]]range = active;
// CHECK: ::soaview::frame<::soaview_gen::[[A]]_spec> [[AR]]frame(
// CHECK: { // soaview: view of 'P' in {x, rho} out {rho}
// CHECK: ::soaview::frame<::soaview_gen::[[L]]_spec> sv10_3_frame(
// The outer loop of the nest indexes its frame (at(), no each(): the loop
// around a loop over a container is not vectorised, so the body is compiled
// once; see each-slot.cpp).
// CHECK-NOT: each(
// CHECK: for (std::size_t sv10_3_i = 0; sv10_3_i < sv10_3_frame.size(); ++sv10_3_i) { auto sv10_3_view = sv10_3_frame.at(sv10_3_i); auto *l = &sv10_3_view;
// CHECK: for (std::size_t [[AR]]i = 0; [[AR]]i < [[AR]]frame.size(); ++[[AR]]i) { auto [[AR]]view = {{.*}}; auto *a = &[[AR]]view;
// CHECK-NEXT: density(*l, *a); }
// CHECK-NEXT: } } }
