// soaview-translate --report: the paper's Table 1 per converted loop.
// RUN: %soaview-translate --report %examples/small/pairs.cpp -- -std=c++17 | FileCheck %s
// CHECK: loop element |in| in B |out| out B hoist offload
// CHECK-NEXT: pairs.cpp:47:3 Particle 4 40 2 16 0 no
// CHECK-NEXT: pairs.cpp:49:5 Particle 2 24 0 0 1 no
// Loops the profitability rule leaves alone are listed as not converted.
// RUN: env -u SOAVIEW_CONVERT %soaview-translate --report %examples/small/particles.cpp -- -std=c++17 | FileCheck %s --check-prefix=RULE
// RULE: loop element |in| in B |out| out B hoist offload converted
// RULE: particles.cpp:{{[0-9]+:[0-9]+}} Particle {{.*}} no (visits each element once)
