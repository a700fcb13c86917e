// A function template with a deduced return type is instantiated where its
// type is first needed (the call in 'first', during the parse), so its
// views go before the declaration holding that call, not before the last
// declaration of the file (test/Exec/constructs/deduced-return.cpp runs it).
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
// RUN: %soaview_verify -fplugin-arg-soaview-remarks %s
#include <vector>

struct P { double x, v; };

template <class F> auto apply(std::vector<P> &ps, F f) {
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (auto &p : ps) { // expected-remark {{view of 'P' in {x, v} out {x}}}
    p.x += f(p.v);
    s += p.x;
  }
  return s;
}
double first(std::vector<P> &ps) { return apply(ps, [](double v) { return v; }); }
double later(std::vector<P> &ps) { return first(ps); }

// CHECK-LABEL: template <class F> auto apply(
// CHECK: ::soaview::frame<decltype(soaview_select_14_3(
// CHECK-LABEL: struct P_14_3_spec {
// CHECK: P_14_3_spec soaview_select_14_3(::P *);
// CHECK: double first(
// CHECK: double later(
