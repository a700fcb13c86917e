// A by-value loop variable is a copy: the view is gathered but never
// scattered back.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <array>
struct P { double x; };
double sum(std::array<P, 4> &a) {
  double s = 0;
  [[clang::soa_conversion]]
  for (P p : a) {
    p.x *= 2;
    s += p.x;
  }
  return s;
}
// CHECK: ::soaview::frame<::soaview_gen::P_9_3_spec, false>
// CHECK: auto &p = sv9_3_view;
