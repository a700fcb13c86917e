// A sweep over cells: the cell loop records each cell's ranges (its
// declarations as written, the inner range first), start() gathers and
// copies once, and the local loop runs over all local slots in one target
// region (one CUDA kernel), finding its cell and walking the cell's runs of
// inner slots; the loop bodies are unchanged.
// RUN: %soaview_dump %offload_syntax %s | %nochecks | FileCheck %s
// RUN: %soaview-translate --convert=always --backend=cuda %s -o - -- -std=c++17 | %nochecks | FileCheck %s --check-prefix=CUDA
#include <vector>
struct P { double x, rho; int id; };
struct Cell { std::vector<P *> local, active; };
void density(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    std::vector<P *> &mine = c.local;
    [[clang::soa_conversion]]
    for (P *p : mine) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active)
        p->rho += q->x;
    }
  }
}
// CHECK-LABEL: void density(
// CHECK: static ::soaview::site [[S:sv13_3_]]site("sweep.cpp:13:3");
// CHECK-NEXT: ::soaview::omp::sweep<::soaview_gen::[[L:P_16_5]]_spec, ::soaview_gen::[[I:P_18_7]]_spec> [[S]]sweep([[S]]site);
// CHECK-NEXT: for (Cell &c : cells) { std::vector<P *> &mine = c.local; auto &&[[IP:sv18_7_]]range = c.active; [[S]]sweep.cell(std::forward<decltype([[IP]]range)>([[IP]]range), mine); }
// CHECK-NEXT: [[S]]sweep.start();
// CHECK-NEXT: using [[LP:sv16_5_]]spec = ::soaview_gen::[[L]]_spec;
// CHECK-NEXT: const auto [[LP]]buffers = [[S]]sweep.local_buffers();
// CHECK-NEXT: using [[IP]]spec = ::soaview_gen::[[I]]_spec;
// CHECK-NEXT: const auto [[IP]]buffers = [[S]]sweep.inner_buffers();
// CHECK-NEXT: const ::soaview::sweep_index [[S]]index = [[S]]sweep.index();
// CHECK-NEXT: const std::size_t [[LP]]n = [[S]]sweep.size();
// CHECK-NEXT: const int [[LP]]dev = [[S]]sweep.device();
// CHECK-NEXT: #pragma omp target teams distribute parallel for firstprivate([[LP]]buffers, [[IP]]buffers, [[S]]index) device([[LP]]dev)
// CHECK-NEXT: for (std::size_t [[LP]]i = 0; [[LP]]i < [[LP]]n; ++[[LP]]i) {
// CHECK-NEXT: #line 16
// CHECK-NEXT: { const std::size_t [[S]]cell = [[S]]index.cell_of[[[LP]]i]; auto [[LP]]view = [[LP]]spec::at([[LP]]buffers, [[LP]]i); auto *p = &[[LP]]view;
// CHECK-NEXT: /*clang::soa_conversion_hoist(1)*/
// CHECK-NEXT: for (::soaview::run_cursor [[IP]]k([[S]]index, [[S]]cell); [[IP]]k.more(); [[IP]]k.next()) { auto [[IP]]view = [[IP]]spec::at([[IP]]buffers, [[IP]]k.index()); const auto *q = &[[IP]]view;
// CHECK-NEXT: p->rho += q->x; }
// CHECK-NEXT: }
// CHECK-NEXT: } }

// CUDA-LABEL: void density(
// CUDA: ::soaview::cuda::sweep<
// CUDA: [[S:sv13_3_]]sweep.start();
// CUDA-NOT: size()
// CUDA: [[S]]sweep.launch([=] __device__ (std::size_t [[LP:sv16_5_]]i) {
// CUDA-NEXT: #line 16
// CUDA-NEXT: { const std::size_t [[S]]cell = [[S]]index.cell_of[[[LP]]i];
// CUDA: p->rho += q->x; }
// CUDA-NEXT: }
// CUDA-NEXT: }); }

// The specs of a sweep's views name their buffers (fields()), so that the
// inner view uses the local view's buffers of the fields both read
// (soaview/sweep.h); a component of a split array is named with its index.
// Views of loops that are not swept do not have fields().
// RUN: %soaview_dump %offload_syntax %s | %nochecks | FileCheck %s --check-prefix=FIELDS
struct Q { double x[2], m, f[2]; };
void forces(std::vector<std::vector<Q *>> &local, std::vector<std::vector<Q *>> &active) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < local.size(); ++c) {
    [[clang::soa_conversion]]
    for (Q *p : local[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Q *q : active[c])
        p->f[0] += q->m * (p->x[0] - q->x[0]);
    }
  }
}
void single(std::vector<Q *> &qs) {
  [[clang::soa_conversion]]
  for (Q *q : qs)
    q->m *= 2;
}
// FIELDS-LABEL: struct P_16_5_spec {
// FIELDS: template <class F> static void fields(soa &s, F &&f) {
// FIELDS-NEXT: f(s.rho, "rho");
// FIELDS-NEXT: }
// FIELDS-LABEL: struct P_18_7_spec {
// FIELDS: template <class F> static void fields(soa &s, F &&f) {
// FIELDS-NEXT: f(s.x, "x");
// FIELDS-NEXT: }
// FIELDS-LABEL: struct Q_66_5_spec {
// FIELDS: template <class F> static void fields(soa &s, F &&f) {
// FIELDS-NEXT: f(s.x[0], "x[0]");
// FIELDS-NEXT: f(s.x[1], "x[1]");
// FIELDS-NEXT: f(s.f[0], "f[0]");
// FIELDS-NEXT: f(s.f[1], "f[1]");
// FIELDS-NEXT: }
// FIELDS-LABEL: struct Q_68_7_spec {
// FIELDS: template <class F> static void fields(soa &s, F &&f) {
// FIELDS-NEXT: f(s.x[0], "x[0]");
// FIELDS-NEXT: f(s.x[1], "x[1]");
// FIELDS-NEXT: f(s.m, "m");
// FIELDS-NEXT: }
// FIELDS-LABEL: struct Q_75_3_spec {
// FIELDS-NOT: fields(
// FIELDS: static view at(
