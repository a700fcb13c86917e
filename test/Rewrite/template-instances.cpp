// A loop in a function template instantiated with functors that use
// different fields of one element type: each distinct use gets a view, and
// the loop picks its spec by the element type and the template's arguments.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
// RUN: %soaview_verify -fplugin-arg-soaview-remarks %s
#include <vector>

struct A { double w; int k; };
template <class F, int N> void apply(F &f, std::vector<A> &v) {
  [[clang::soa_conversion]]
  for (auto &e : v) // expected-remark {{view of 'A' in {w} out {w}}} expected-remark {{view of 'A' in {w, k} out {k}}} expected-remark {{view of 'A' in {w} out {w}}}
    f(e, N);
}

struct Scale { void operator()(A &a, int n) { a.w *= n; } };
struct Count { void operator()(A &a, int n) { a.k += n * (a.w > 0); } };

void run(std::vector<A> &a) {
  Scale s;
  Count c;
  apply<Scale, 2>(s, a);
  apply<Count, 1>(c, a);
  apply<Scale, 3>(s, a);
}

// CHECK-LABEL: template <class F, int N> void apply(
// CHECK: ::soaview::frame<decltype([[SEL:soaview_select_11_3]]((::soaview::element_of_t<decltype(sv11_3_range)> *)nullptr, (::soaview::instance_key<F, ::soaview::value_key<N>> *)nullptr))>
// CHECK-LABEL: struct A_11_3_spec {
// CHECK: struct A_11_3_spec; }
// CHECK-NEXT: {{\[\[maybe_unused\]\]}} A_11_3_spec [[SEL]](::A *, ::soaview::instance_key<::Scale, ::soaview::value_key<(int)2>> *);
// CHECK-LABEL: struct A_11_3_u1_spec {
// CHECK: {{\[\[maybe_unused\]\]}} A_11_3_u1_spec [[SEL]](::A *, ::soaview::instance_key<::Count, ::soaview::value_key<(int)1>> *);
// CHECK: {{\[\[maybe_unused\]\]}} A_11_3_spec [[SEL]](::A *, ::soaview::instance_key<::Scale, ::soaview::value_key<(int)3>> *);
// CHECK: void run(
