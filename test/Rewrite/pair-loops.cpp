// Symmetric pair loops: the inner loop has no frame of its own; it walks
// the outer loop's frame, an index loop by its index, an iterator loop
// from the outer slot plus one.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <iterator>
#include <vector>
struct Atom {
  double x, f, unused;
};

void pairs(Atom *ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 1; j < n; ++j) {
      double d = ps[i].x - ps[j].x;
      ps[i].f += d;
      ps[j].f -= d;
    }
}

void iterators(std::vector<Atom> &c) {
  [[clang::soa_conversion]]
  for (auto it = c.begin(); it != c.end(); ++it)
    [[clang::soa_conversion]]
    for (auto jt = std::next(it); jt != c.end(); ++jt)
      jt->f -= it->x;
}

// CHECK-LABEL: void pairs(
// CHECK: ::soaview::frame<::soaview_gen::[[V:Atom_13_3]]_spec> [[O:sv13_3_]]frame([[O]]site, ::soaview::index_span_at(ps, [[O]]trips, [[O]]lo));
// CHECK: for (int i = 0; i < n; ++i) { auto [[O]]view = [[O]]frame.at(static_cast<std::size_t>(i - [[O]]lo));
// CHECK-SAME: auto &[[O]]target = ps;
// CHECK-NOT: frame(
// CHECK: for (int j = i + 1; j < n; ++j) { auto [[I:sv15_5_]]view = [[O]]frame.at(static_cast<std::size_t>(j - [[O]]lo));
// CHECK-SAME: ::soaview::index_shadow<decltype([[I]]view)> ps{[[I]]view};
// CHECK-NEXT: double d = [[O]]target[i].x - ps[j].x;
// CHECK-NEXT: [[O]]target[i].f += d;
// CHECK-NEXT: ps[j].f -= d;

// CHECK-LABEL: void iterators(
// CHECK: auto &&[[R:sv24_3_]]range = ::soaview::iterators(c.begin(), c.end());
// CHECK: for (std::size_t [[R]]i = 0; [[R]]i < [[R]]frame.size(); ++[[R]]i) { auto [[R]]view = [[R]]frame.at([[R]]i); {{\[\[}}maybe_unused{{\]\]}} auto *it = &[[R]]view;
// CHECK-NOT: frame(
// CHECK: for (std::size_t [[J:sv26_5_]]i = [[R]]i + 1; [[J]]i < [[R]]frame.size(); ++[[J]]i) { auto [[J]]view = [[R]]frame.at([[J]]i); {{\[\[}}maybe_unused{{\]\]}} auto *jt = &[[J]]view;
// CHECK-NEXT: jt->f -= it->x; } } }
