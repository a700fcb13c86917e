// A loop's body keeps lines of its own in the generated code: the view's
// declarations join the loop's header line; a body that shared that line
// moves to the next one, where a #line puts it back at its line and column
// (diagnostics of the real compile point at the user's source).
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
// RUN: %soaview_cc1 -Wunused-variable %s 2>&1 | FileCheck %s --check-prefix=DIAG
#include <vector>
struct P { double x, v; };
void oneLine(std::vector<P> &ps) {
  [[clang::soa_conversion]] for (auto &p : ps) { int u; p.x += p.v; }
}
void nextLine(std::vector<P *> &ps) {
  [[clang::soa_conversion]]
  for (auto *p : ps)
    p->v *= 2;
}
// CHECK-LABEL: void oneLine(
// CHECK: for (std::size_t [[A:sv10_29_]]i = 0; {{.*}} { auto [[A]]view = [[A]]frame.at([[A]]i); auto &p = [[A]]view;
// CHECK-NEXT: #line 10
// CHECK-NEXT: {{^ +}}int u; p.x += p.v; } }
// CHECK-LABEL: void nextLine(
// CHECK: [[B:sv14_3_]]slots.each({{.*}} { auto [[B]]view = [[B]]slots.at([[B]]slot); auto *p = &[[B]]view;
// CHECK-NEXT: {{^ +}}p->v *= 2; }); }
// DIAG: body-lines.cpp:10:54: warning: unused variable 'u'
