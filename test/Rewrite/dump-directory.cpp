// dump=FILE creates FILE's directory, as soaview-translate -o does.
// RUN: rm -rf %t.dir
// RUN: %soaview_cc1 -fplugin-arg-soaview-dump=%t.dir/sub/out.cpp %s
// RUN: FileCheck %s < %t.dir/sub/out.cpp
// CHECK: // ===== soaview: rewritten {{.*}}dump-directory.cpp =====
// CHECK: #include <soaview/soaview.h>
#include <vector>
struct P { double x, y; };
void f(std::vector<P> &v) {
  [[clang::soa_conversion]]
  for (auto &p : v)
    p.x += p.y;
}
