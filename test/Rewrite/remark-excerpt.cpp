// Diagnostics about the user's code show the user's code: the source
// excerpt under a remark on a converted loop, and under the error soaview
// reports when its generated code does not compile, is the loop as the user
// wrote it, not its rewrite (under -verify they point into the rewritten
// text, where the expected-* comments are).
// RUN: %soaview_cc1 -fplugin-arg-soaview-remarks %s 2>&1 | FileCheck %s
// RUN: not %soaview_cc1 -fplugin-arg-soaview-debug-break-generated-code %s 2>&1 \
// RUN:   | FileCheck --check-prefix=GUARD %s

#include <vector>

struct P {
  double x, v;
};

// CHECK: remark-excerpt.cpp:[[@LINE+7]]:3: remark: soaview: view of 'P'
// CHECK-NEXT: {{^ *}}[[@LINE+6]] |   for (P *p : ps)
// CHECK-NEXT: ^
// GUARD: remark-excerpt.cpp:[[@LINE+4]]:3: error: soaview: internal error
// GUARD-NEXT: {{^ *}}[[@LINE+3]] |   for (P *p : ps)
void kick(std::vector<P *> &ps, double dt) {
  [[clang::soa_conversion]]
  for (P *p : ps)
    p->x += dt * p->v;
}
