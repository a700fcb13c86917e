// Clones of member functions of other classes (functors): a member
// template beside the member, `virtual`/`override` dropped (the call is
// devirtualised: the class is final); a member template gets the view
// parameters at the end of its own template parameter list; an out-of-line
// member of a class template keeps its class's template head; the element
// type in the clone's constraint is the class's parameter where the
// declaration names it so.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <vector>
struct A { double x, f; };
template <class T> struct Base {
  virtual void one(T &a) = 0;
};
template <class T> struct F final : Base<T> {
  void one(T &a) override { a.f += k; }
  template <bool N> void two(T &a, const T &b) { a.f += N ? b.x : k; }
  void three(T &a);
  double k = 1;
};
template <class T> void F<T>::three(T &a) { a.f *= k; }

void run(std::vector<A *> &as, F<A> &f) {
  [[clang::soa_conversion]]
  for (A *a : as) {
    f.one(*a);
    f.three(*a);
    for (A *b : as)
      f.two<true>(*a, *b);
  }
}
// CHECK-LABEL: template <class T> struct F final : Base<T> {
// CHECK: void one(T &a) override { a.f += k; }
// CHECK-NEXT: // soaview: clone of 'F::one' for soaview's views
// CHECK-NEXT: #line
// CHECK-NEXT: {{^}}  template <class soaview_E0, ::soaview::if_views<::soaview::stands_for<soaview_E0, T>> = 0> __attribute__((always_inline)) void one(soaview_E0 &a) { a.f += k; }
// CHECK: // soaview: clone of 'F::two' for soaview's views
// CHECK-NEXT: #line
// CHECK-NEXT: template <bool N, class soaview_E0, ::soaview::if_views<::soaview::stands_for<soaview_E0, T>> = 0> __attribute__((always_inline)) void two(soaview_E0 &a, const T &b)
// CHECK: void three(T &a);
// CHECK-NEXT: // soaview: clone of 'F::three' for soaview's views
// CHECK-NEXT: #line
// CHECK-NEXT: template <class soaview_E0, ::soaview::if_views<::soaview::stands_for<soaview_E0, T>> = 0> __attribute__((always_inline)) void three(soaview_E0 &a);
// CHECK: template <class T> void F<T>::three(T &a) { a.f *= k; }
// CHECK-NEXT: // soaview: clone of 'F::three' for soaview's views
// CHECK-NEXT: #line
// CHECK-NEXT: template <class T> template <class soaview_E0, ::soaview::if_views<::soaview::stands_for<soaview_E0, T>>> __attribute__((always_inline)) void F<T>::three(soaview_E0 &a) { a.f *= k; }
// The calls are the user's, unchanged.
// CHECK-LABEL: void run(
// CHECK: f.one(*a);
// CHECK-NEXT: f.three(*a);
