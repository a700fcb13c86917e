// A loop over structured bindings: the frame gathers from the binding that
// stands for the element, picked from each element of the range as written
// (as a pointer, so that repeats share a slot); the loop walks the
// frame and the range together, so the other bindings bind, as written, to
// the range's element of the same iteration. The element's name points at
// (or refers to) the view.
// RUN: %soaview_dump -std=c++17 %s | %nochecks | FileCheck %s
#include <map>
#include <utility>
#include <vector>
struct P { double x, f; };

// CHECK-LABEL: void sorted(
// CHECK: auto &&[[W:sv[0-9_]+]]whole = cell;
// CHECK-NEXT: auto [[W]]range = ::soaview::pick([[W]]whole, [](auto &&[[W]]e) { auto &&[[[W]]b0, [[W]]b1] = [[W]]e; return [[W]]b1; });
// CHECK: ::soaview::frame<{{.*}}> [[W]]frame([[W]]site, [[W]]range);
// CHECK: for (auto [[W]]at = ::soaview::cursor([[W]]range); [[W]]at.i < [[W]]frame.size(); [[W]]at.next()) { auto [[W]]view = [[W]]frame.at([[W]]at.i); auto *p = &[[W]]view; {{\[\[maybe_unused\]\]}} const auto &[proj, [[W]]b1] = *[[W]]at.it;
// CHECK-NEXT: if (proj > cut)
void sorted(std::vector<std::pair<double, P *>> &cell, double cut) {
  [[clang::soa_conversion]]
  for (const auto &[proj, p] : cell) {
    if (proj > cut)
      break;
    p->f += p->x * proj;
  }
}

// CHECK-LABEL: void byId(
// CHECK: auto [[M:sv[0-9_]+]]range = ::soaview::pick([[M]]whole, [](auto &&[[M]]e) { auto &&[[[M]]b0, [[M]]b1] = [[M]]e; return __builtin_addressof([[M]]b1); });
// CHECK: auto &p = [[M]]view; {{\[\[maybe_unused\]\]}} auto &[id, [[M]]b1] = *[[M]]at.it;
void byId(std::map<int, P> &m) {
  [[clang::soa_conversion]]
  for (auto &[id, p] : m)
    p.f += p.x * id;
}
