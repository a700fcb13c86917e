// One run reports every refused loop of a file (issue #51, item 14): four
// independent loops refused by four different stages (an attribute argument,
// the loop's form, a loop check, the CUDA backend's checks) give four errors
// in one run of soaview-translate, and of the plugin.
// RUN: %soaview_verify -fplugin-arg-soaview-backend=cuda -fplugin-arg-soaview-dump=%t.cu %s
// RUN: not %soaview-translate --backend=cuda %s -o %t.out.cu -- -std=c++17 2>&1 | FileCheck %s
// CHECK: translate-all-errors.cpp:16:{{[0-9]+}}: error: soaview: 'soa_conversion_hoist' level must be at least 1
// CHECK: translate-all-errors.cpp:23:{{[0-9]+}}: error: soaview: cannot convert a loop whose elements are not structs
// CHECK: translate-all-errors.cpp:30:{{[0-9]+}}: error: soaview: cannot convert loop: the iterated container 'v' may be modified in the loop
// CHECK: translate-all-errors.cpp:36:{{[0-9]+}}: error: soaview: cannot offload loop to CUDA: it uses 't' (of type 'const double *'), declared outside the loop
// CHECK: 4 errors generated.
#include <vector>
struct P { double x, y; };

void hoistZero(std::vector<P *> &v) {
  [[clang::soa_conversion_hoist(0)]] // expected-error {{'soa_conversion_hoist' level must be at least 1}} expected-note {{the level counts how many enclosing loops}}
  for (auto *p : v)
    p->x = 2;
}

void notStructs(std::vector<int> &v) {
  [[clang::soa_conversion("always")]]
  for (int &i : v) // expected-error {{cannot convert a loop whose elements are not structs}} expected-note {{soaview views struct and class elements}}
    i = 1;
}

void grows(std::vector<P *> &v) {
  [[clang::soa_conversion("always")]]
  for (auto *p : v) // expected-note {{the view is built from the container's elements before the loop starts}}
    v.push_back(p); // expected-error {{the iterated container 'v' may be modified in the loop}}
}

void pointer(std::vector<P *> &v, const double *t) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{pointers, references and objects holding them would refer to host memory}}
  for (auto *p : v)
    p->x = t[0]; // expected-error {{cannot offload loop to CUDA: it uses 't' (of type 'const double *'), declared outside the loop}}
}
