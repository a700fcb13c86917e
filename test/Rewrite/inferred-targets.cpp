// An index loop with a plain soa_conversion takes as its target the one
// array of structs its body subscripts with an index naming the loop
// variable, as annotate=all infers it: `ps[i]`, `part[i - first]` with
// `<=`, a neighbour list's `ps[list[k]]` (the list holds ints), a member
// array, a pair nest, and a template over `std::vector<T>`. The rewrite is
// the one soa_conversion_target("...") gives. Before: "an index loop needs
// soa_conversion_target" (test/Sema/loop-forms.cpp keeps that error where
// two arrays or none are subscripted).
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <cstddef>
#include <vector>
struct P {
  double x, v;
};

// CHECK-LABEL: {{^}}void plain(
// CHECK: [[A:sv[0-9]+_3_]]frame([[A]]site, ::soaview::index_span_at(ps, [[A]]trips, [[A]]lo));
void plain(P *ps, int n, double dt) {
  [[clang::soa_conversion]]
  for (int i = 0; i < n; ++i)
    ps[i].x += dt * ps[i].v;
}

// CHECK-LABEL: {{^}}void offset(
// CHECK: ::soaview::index_trips<::soaview::bound::up_to>(
// CHECK: ::soaview::index_span_at(part, [[B:sv[0-9]+_3_]]trips, {{.*}}[[B]]lo - first)
void offset(std::vector<P> &part, int first, int last) {
  [[clang::soa_conversion]]
  for (int i = first; i <= last; ++i)
    part[i - first].v *= 0.5;
}

// CHECK-LABEL: {{^}}void listed(
// CHECK: ::soaview::index_list_at(ps, list,
void listed(P *ps, const std::vector<int> &list) {
  [[clang::soa_conversion]]
  for (std::size_t k = 0; k < list.size(); ++k)
    ps[list[k]].x += 1;
}

struct Box {
  P items[16];
  // CHECK-LABEL: {{^}}  void step() {
  // CHECK: ::soaview::index_span_at(items,
  void step() {
    [[clang::soa_conversion]]
    for (int i = 0; i < 16; ++i)
      items[i].x += items[i].v;
  }
};

// CHECK-LABEL: {{^}}void pairs(
// CHECK: ::soaview::index_span_at(ps,
// CHECK: for (int j = i + 1; j < n; ++j) { auto {{sv[0-9_]+}}view = [[C:sv[0-9]+_3_]]frame.at(
void pairs(P *ps, int n) {
  [[clang::soa_conversion]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion]]
    for (int j = i + 1; j < n; ++j) {
      double d = ps[i].x - ps[j].x;
      ps[i].v += d;
      ps[j].v -= d;
    }
}

// CHECK-LABEL: {{^}}template <class T> void generic(
// CHECK: ::soaview::index_span_at(ts,
template <class T> void generic(std::vector<T> &ts) {
  [[clang::soa_conversion]]
  for (std::size_t i = 0; i < ts.size(); ++i)
    ts[i].x = -ts[i].x;
}
template void generic<P>(std::vector<P> &);
