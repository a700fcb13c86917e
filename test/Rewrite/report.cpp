// soaview-translate --report: [Radtke2025], Table 1, per converted loop.
// RUN: %soaview-translate --report %examples/small/pairs.cpp -- -std=c++17 | FileCheck %s
// CHECK: loop element |in| gather B |out| scatter B hoist offload
// CHECK-NEXT: pairs.cpp:47:3 Particle 4 40 2 16 0 no
// CHECK-NEXT: pairs.cpp:49:5 Particle 2 24 0 0 1 no
// Loops the profitability rule leaves alone are listed as not converted.
// RUN: env -u SOAVIEW_CONVERT %soaview-translate --report %examples/small/particles.cpp -- -std=c++17 | FileCheck %s --check-prefix=RULE
// RULE: loop element |in| gather B |out| scatter B hoist offload converted
// RULE: particles.cpp:{{[0-9]+:[0-9]+}} Particle {{.*}} no (visits each element once)
// A pair nest under the rule runs converted behind the size gate: the
// report says from which sizes.
// RUN: env -u SOAVIEW_CONVERT %soaview-translate --report %examples/small/pairs.cpp -- -std=c++17 | FileCheck %s --check-prefix=GATED
// GATED: pairs.cpp:47:3 Particle 4 40 2 16 0 no when its ranges give 48 pairs per element gathered (a square nest from 96 x 96)
// The report and the remarks count bytes the same way (plan/Model.cpp,
// viewSize): a field that is only written is gathered too (it may be written
// in part), and a loop over copies scatters nothing.
// RUN: %soaview-translate --report %s -- -std=c++17 | FileCheck %s --check-prefix=BYTES
// RUN: %soaview-translate --remarks %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s --check-prefix=REMARK
#include <vector>
struct Q { double a, b; int c; };
void bytes(std::vector<Q *> &v, std::vector<Q> &w) {
  [[clang::soa_conversion("always")]] for (auto *q : v) q->b = q->a;
  [[clang::soa_conversion("always")]] for (Q q : w) q.b = q.a;
}
// BYTES: report.cpp:[[#@LINE-3]]:39 Q 1 16 1 8 0 no yes
// BYTES: report.cpp:[[#@LINE-3]]:39 Q 1 16 1 0 0 no yes
// REMARK: report.cpp:[[#@LINE-5]]:39: remark: soaview: view of 'Q' in {a} out {b} (gather 16 B, scatter 8 B per element)
// REMARK: report.cpp:[[#@LINE-5]]:39: remark: soaview: view of 'Q' in {a} out {b} (gather 16 B, scatter 0 B per element)
