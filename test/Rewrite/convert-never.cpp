// convert=never turns soaview off: nothing is rewritten, and the object
// code is that of the plain compiler.
// RUN: %soaview_cc1 -fplugin-arg-soaview-convert=never -fplugin-arg-soaview-dump=- %s | FileCheck %s
// RUN: env SOAVIEW_CONVERT=never %soaview_dump %s | FileCheck %s
// CHECK: // ===== soaview: nothing rewritten =====
// RUN: %clangxx -std=c++17 -O1 -S -Wno-unknown-attributes %s -o %t.plain.s
// RUN: %soaviewxx -std=c++17 -O1 -S -fplugin-arg-soaview-convert=never %s -o %t.never.s
// RUN: diff %t.plain.s %t.never.s
// RUN: env SOAVIEW_CONVERT=never %soaviewxx -std=c++17 -O1 -S %s -o %t.env.s
// RUN: diff %t.plain.s %t.env.s
// Converted, the code differs (the comparison above is not vacuous).
// RUN: %soaviewxx -std=c++17 -O1 -S %s -o %t.converted.s
// RUN: not diff -q %t.plain.s %t.converted.s
// soaview-translate --convert=never writes the file unchanged but for the
// attributes, which become comments of the same length (for compilers
// without the plugin).
// RUN: %soaview-translate --convert=never %s -o %t.cpp -- -std=c++17
// RUN: sed -e 's|\[\[clang::soa_conversion\]\]|/*clang::soa_conversion*/|' %s | diff - %t.cpp
#include <vector>
struct P { double x, y, z[8]; };
double f(std::vector<P> &v) {
  [[clang::soa_conversion]]
  for (auto &p : v)
    p.x += p.y;
  return v.empty() ? 0.0 : v[0].x;
}
