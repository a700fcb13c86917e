// annotate=all rewrites the loops that convert and leaves the others as
// written: here the cell loop (its element holds a container) keeps its
// text and its inner loop converts; a loop over ints is not touched. No
// attribute is commented out (none was written).
// RUN: %soaview_dump -fplugin-arg-soaview-annotate=all %s 2>/dev/null | %nochecks | FileCheck %s
#include <vector>

struct P { double x, v; };
struct Cell { std::vector<P *> parts; };

// CHECK-LABEL: void drift(std::vector<Cell> &cells, double dt) {
// CHECK-NEXT:    for (Cell &c : cells)
// CHECK-NEXT:    { // soaview: view of 'P' in {x, v} out {x}
// CHECK:         ::soaview::frame<{{.*}}> [[P:sv[0-9]+_[0-9]+_]]frame([[P]]site, [[P]]range);
// CHECK:           [[P]]slots.each(
// CHECK-SAME:      auto *p = &[[P]]view;
// CHECK-NEXT:        p->x += dt * p->v; }); }
void drift(std::vector<Cell> &cells, double dt) {
  for (Cell &c : cells)
    for (P *p : c.parts)
      p->x += dt * p->v;
}

// CHECK-LABEL: int sum(std::vector<int> &v) {
// CHECK-NEXT:    int s = 0;
// CHECK-NEXT:    for (int x : v)
int sum(std::vector<int> &v) {
  int s = 0;
  for (int x : v)
    s += x;
  return s;
}
// CHECK-NOT: /*clang::soa_conversion
