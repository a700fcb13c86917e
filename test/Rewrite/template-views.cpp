// A loop in a function template gets one view per instantiation, chosen by
// overload on the element type; the loop text is shared.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
// RUN: %soaview_verify -fplugin-arg-soaview-remarks %s
#include <vector>

template <class T> void scale(std::vector<T> &v, double f) {
  [[clang::soa_conversion]]
  for (auto &e : v) // expected-remark {{view of 'A' in {w} out {w}}} expected-remark {{view of 'B' in {w} out {w}}}
    e.w *= f;
}

struct A { double w; int k; };
struct B { char tag; double w; };

void run(std::vector<A> &a, std::vector<B> &b) {
  scale(a, 2);
  scale(b, 3);
}

// CHECK-LABEL: template <class T> void scale(
// CHECK: ::soaview::frame<decltype(soaview_select_9_3((::soaview::element_of_t<decltype(sv9_3_range)> *)nullptr))>
// CHECK-LABEL: struct A_9_3_spec {
// CHECK: A_9_3_spec soaview_select_9_3(::A *);
// CHECK-LABEL: struct B_9_3_spec {
// CHECK: B_9_3_spec soaview_select_9_3(::B *);
// CHECK: void run(
