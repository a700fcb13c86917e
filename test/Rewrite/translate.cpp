// soaview-translate writes a converted file that a plain compiler builds.
// RUN: %soaview-translate %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s < %t.cpp
// An output name without a directory part is written in the current one.
// RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir && %soaview-translate %s -o out.cpp -- -std=c++17
// RUN: FileCheck %s < %t.dir/out.cpp
// RUN: %clangxx -O1 -isystem %S/../../runtime/include %t.cpp -o %t.exe -L%soaview_libdir -lsoaview_rt -Wl,-rpath,%soaview_libdir
// RUN: %t.exe | FileCheck %s --check-prefix=EXE
// RUN: not %soaview-translate %S/../Sema/refusals.cpp -o %t.bad -- -std=c++17 2>&1 | FileCheck %s --check-prefix=BAD
// A missing input is one error, naming the file.
// RUN: not %soaview-translate %t.missing.cpp -o %t.out -- -std=c++17 2>&1 | FileCheck %s --check-prefix=MISSING --implicit-check-not=error
// An unknown value of a setting or of SOAVIEW_CONVERT lists the values.
// RUN: not %soaview-translate --convert=alwyas %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: env SOAVIEW_CONVERT=alwyas not %soaview-translate %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=ENV
#include <cstdio>
#include <vector>
struct P { double x, y; };
int main() {
  std::vector<P> v(4, P{1, 2});
  [[clang::soa_conversion]]
  for (auto &p : v)
    p.x += p.y;
  std::printf("%g\n", v[3].x);
}
// CHECK: #include <soaview/soaview.h>
// CHECK: struct P_12_3_spec
// EXE: 3
// BAD: refusals.cpp:{{[0-9]+}}:{{[0-9]+}}: error: soaview: cannot convert loop
// MISSING: soaview-translate: error: cannot read '{{.*}}translate.cpp.tmp.missing.cpp': No such file or directory
// VALUE: soaview-translate: error: unknown value 'alwyas' of plugin argument 'convert'; expected 'profitable', 'always' or 'never'
// ENV: soaview-translate: error: unknown value 'alwyas' of environment variable SOAVIEW_CONVERT; expected 'profitable', 'always' or 'never'
