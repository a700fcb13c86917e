// The profitability rule: by default a single host loop (each element
// visited once) stays as written, with a remark and a fix-it; nests,
// hoisted and offloaded loops and soa_conversion("always") convert.
// RUN: env -u SOAVIEW_CONVERT %soaview_verify -DNO_PAIRS -fplugin-arg-soaview-remarks %s
// The pair nest is copied as written by its size gate (size-gate.cpp), so
// -verify would see its directives twice: its remarks are checked here.
// RUN: env -u SOAVIEW_CONVERT %soaview_dump -fplugin-arg-soaview-remarks %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: env -u SOAVIEW_CONVERT %soaview_dump %s | %nochecks | FileCheck %s
// RUN: env -u SOAVIEW_CONVERT %soaview_dump -fplugin-arg-soaview-convert=always %s | %nochecks | FileCheck %s --check-prefix=ALWAYS
// The fix-it is given in the user's file as written, whether soaview
// rewrites the file (for the converted functions) or not (-DONLY_KICK):
// RUN: env -u SOAVIEW_CONVERT %soaview_dump -DONLY_KICK -fplugin-arg-soaview-remarks -fdiagnostics-parseable-fixits %s 2>&1 >/dev/null | FileCheck %s --check-prefix=FIXIT
// RUN: env -u SOAVIEW_CONVERT %soaview_dump -fplugin-arg-soaview-remarks -fdiagnostics-parseable-fixits %s 2>&1 >/dev/null | FileCheck %s --check-prefix=FIXIT
#include <vector>
struct P { double x, y, m; };

void kick(std::vector<P *> &v) {
  [[clang::soa_conversion]] // expected-note {{write soa_conversion("always") to convert it anyway}}
  for (P *p : v) // expected-remark {{loop left unconverted: it visits each element once}}
    p->x += p->y;
}

#ifndef ONLY_KICK
void forced(std::vector<P *> &v) {
  [[clang::soa_conversion("always")]]
  for (P *p : v) // expected-remark {{view of 'P' in {x, y} out {x}}}
    p->x += p->y;
}

#ifndef NO_PAIRS
// REMARK: profitability.cpp:[[@LINE+4]]:3: remark: soaview: view of 'P' in {x, y} out {y}
// REMARK: profitability.cpp:[[@LINE+5]]:5: remark: soaview: view of 'P' in {x, m} out {}
void pairs(std::vector<P *> &local, std::vector<P *> &active) {
  [[clang::soa_conversion]]
  for (P *l : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (P *a : active)
      l->y += a->m * (l->x - a->x);
  }
}
#endif
#endif

// CHECK-LABEL: void kick(
// CHECK-NEXT:  {{\[\[}}clang::soa_conversion]]
// CHECK-NEXT:  for (P *p : v)
// CHECK-LABEL: void forced(
// CHECK:       ::soaview::frame<
// CHECK-LABEL: void pairs(
// CHECK:       ::soaview::frame<
// CHECK:       ::soaview::frame<

// ALWAYS-LABEL: void kick(
// ALWAYS:       ::soaview::frame<

// FIXIT: profitability.cpp:19:3: remark: soaview: loop left unconverted
// FIXIT: fix-it:"{{.*}}profitability.cpp":{18:26-18:26}:"(\"always\")"
