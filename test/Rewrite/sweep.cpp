// A sweep over cells: the cell loop records each cell's ranges (its
// declarations as written, the inner range first), start() gathers and
// copies once, and the local loop runs over all local slots in one target
// region (one CUDA kernel), finding its cell and walking the cell's runs of
// inner slots; the loop bodies are unchanged.
// RUN: %soaview_dump %offload_syntax -fplugin-arg-soaview-bare-kernels=off %s | %nochecks | FileCheck %s
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
// The target region of a nest takes each device pointer apart (a struct
// would be read from device memory) and rebuilds the structs the bodies
// use, here as OpenMP worksharing (bare-kernels=off). By default a nest that
// uses nothing of OpenMP runs as a bare kernel, each thread taking slots
// with a grid stride (omp_bare.h; BARE below). CUDA captures the structs.
// CHECK-LABEL: void density(
// CHECK: static ::soaview::site [[S:sv13_3_]]site("sweep.cpp:13:3");
// CHECK-NEXT: ::soaview::omp::sweep<::soaview_gen::[[L:P_16_5]]_spec, ::soaview_gen::[[I:P_18_7]]_spec> [[S]]sweep([[S]]site);
// CHECK-NEXT: for (Cell &c : cells) { std::vector<P *> &mine = c.local; auto &&[[IP:sv18_7_]]range = c.active; [[S]]sweep.cell(std::forward<decltype([[IP]]range)>([[IP]]range), mine); }
// CHECK-NEXT: [[S]]sweep.start();
// CHECK-NEXT: using [[LP:sv16_5_]]spec = ::soaview_gen::[[L]]_spec;
// CHECK-NEXT: const auto [[LP]]device_buffers = [[S]]sweep.local_buffers();
// CHECK-NEXT: auto *const [[LP]]buffers0 = [[LP]]device_buffers.rho;
// CHECK-NEXT: auto *const [[LP]]buffers1 = [[LP]]device_buffers.soaview_address;
// CHECK-NEXT: using [[IP]]spec = ::soaview_gen::[[I]]_spec;
// CHECK-NEXT: const auto [[IP]]device_buffers = [[S]]sweep.inner_buffers();
// CHECK-NEXT: auto *const [[IP]]buffers0 = [[IP]]device_buffers.x;
// CHECK-NEXT: auto *const [[IP]]buffers1 = [[IP]]device_buffers.soaview_address;
// CHECK-NEXT: const auto [[S]]device_index = [[S]]sweep.index();
// CHECK-NEXT: auto *const [[S]]index0 = [[S]]device_index.cell_of;
// CHECK-NEXT: auto *const [[S]]index1 = [[S]]device_index.run_off;
// CHECK-NEXT: auto *const [[S]]index2 = [[S]]device_index.run_start;
// CHECK-NEXT: auto *const [[S]]index3 = [[S]]device_index.run_len;
// CHECK-NEXT: const std::size_t [[LP]]n = [[S]]sweep.size();
// CHECK-NEXT: const int [[LP]]dev = [[S]]sweep.device();
// CHECK-NEXT: #pragma omp target teams distribute parallel for firstprivate([[LP]]buffers0, [[LP]]buffers1, [[IP]]buffers0, [[IP]]buffers1, [[S]]index0, [[S]]index1, [[S]]index2, [[S]]index3) device([[LP]]dev)
// CHECK-NEXT: for (std::size_t [[LP]]i = 0; [[LP]]i < [[LP]]n; ++[[LP]]i) {
// CHECK-NEXT: // soaview: the structs again, from their pointers passed one by one
// CHECK-NEXT: [[LP]]spec::soa [[LP]]buffers; [[LP]]buffers.rho = [[LP]]buffers0; [[LP]]buffers.soaview_address = [[LP]]buffers1;
// CHECK-NEXT: [[IP]]spec::soa [[IP]]buffers; [[IP]]buffers.x = [[IP]]buffers0; [[IP]]buffers.soaview_address = [[IP]]buffers1;
// CHECK-NEXT: ::soaview::sweep_index [[S]]index; [[S]]index.cell_of = [[S]]index0; [[S]]index.run_off = [[S]]index1; [[S]]index.run_start = [[S]]index2; [[S]]index.run_len = [[S]]index3;
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
// CUDA-NOT: device_buffers
// CUDA: const auto sv16_5_buffers = [[S]]sweep.local_buffers();
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
// FIELDS-LABEL: struct Q_85_5_spec {
// FIELDS: template <class F> static void fields(soa &s, F &&f) {
// FIELDS-NEXT: f(s.x[0], "x[0]");
// FIELDS-NEXT: f(s.x[1], "x[1]");
// FIELDS-NEXT: f(s.f[0], "f[0]");
// FIELDS-NEXT: f(s.f[1], "f[1]");
// FIELDS-NEXT: }
// FIELDS-LABEL: struct Q_87_7_spec {
// FIELDS: template <class F> static void fields(soa &s, F &&f) {
// FIELDS-NEXT: f(s.x[0], "x[0]");
// FIELDS-NEXT: f(s.x[1], "x[1]");
// FIELDS-NEXT: f(s.m, "m");
// FIELDS-NEXT: }
// FIELDS-LABEL: struct Q_94_3_spec {
// FIELDS-NOT: fields(
// FIELDS: static view at(

// A sweep without an inner loop reads each pointer once: its target region
// captures the struct. A cell loop without braces records its cells without
// the nest's attributes; its kernel gets braces, for the structs it rebuilds.
// RUN: %soaview_dump %offload_syntax %s | %nochecks | FileCheck %s --check-prefix=SHAPES
void drift(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells)
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->x += p->rho;
}
void unbraced(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells)
    [[clang::soa_conversion]]
    for (P *p : c.local)
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active)
        p->rho += q->x;
}
// SHAPES-LABEL: void drift(
// SHAPES: for (Cell &c : cells)
// SHAPES-NEXT: { [[DS:sv[0-9_]+]]sweep.cell(c.local); }
// SHAPES-NEXT: [[DS]]sweep.start();
// SHAPES: const auto [[DP:sv[0-9_]+]]buffers = {{sv[0-9_]+}}sweep.local_buffers();
// SHAPES: #pragma omp target teams distribute parallel for firstprivate([[DP]]buffers) device([[DP]]dev)
// SHAPES-NEXT: for (std::size_t [[DP]]i = 0; [[DP]]i < [[DP]]n; ++[[DP]]i){{$}}
// SHAPES: p->x += p->rho; } }
// SHAPES-LABEL: void unbraced(
// SHAPES: for (Cell &c : cells)
// SHAPES-NEXT: { auto &&{{sv[0-9_]+}}range = c.active; [[US:sv[0-9_]+]]sweep.cell({{.*}}, c.local); }
// SHAPES-NEXT: [[US]]sweep.start();
// SHAPES: #pragma omp target teams ompx_bare num_teams({{.*}}) firstprivate([[UP:sv[0-9_]+]]buffers0,
// SHAPES-NEXT: for (std::size_t [[UP]]i = ::soaview::omp::bare_first(); [[UP]]i < [[UP]]n; [[UP]]i += ::soaview::omp::bare_stride()) {
// SHAPES-NEXT: // soaview: the structs again
// SHAPES: p->rho += q->x; } } } }

// By default the nests whose code uses nothing of OpenMP run as bare
// kernels; one whose code calls OpenMP's runtime (here through a function
// it calls) keeps OpenMP's device runtime, a worksharing loop, its pointers
// still apart; a sweep without an inner loop is unchanged.
// RUN: %soaview_dump %offload_syntax %s | %nochecks | FileCheck %s --check-prefix=BARE
// RUN: %soaview_dump %offload_syntax -DRUNTIME_EXTERNAL %s | %nochecks | FileCheck %s --check-prefix=RUNTIME
#include <omp.h>
static double team() { return omp_get_team_num(); }
void teams(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active)
        p->rho += q->x * team();
    }
  }
}
// RUNTIME-LABEL: void teams(
// RUNTIME-NOT: ompx_bare
// RUNTIME: #pragma omp target teams distribute parallel for firstprivate([[TP:sv[0-9_]+]]buffers0,
// RUNTIME-NEXT: for (std::size_t [[TP]]i = 0; [[TP]]i < [[TP]]n; ++[[TP]]i) {
// A function defined elsewhere may use OpenMP too: no bare kernel (only in
// the RUNTIME run: the CUDA backend refuses such a call).
#ifdef RUNTIME_EXTERNAL
double elsewhere(double);
void external(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active)
        p->rho += elsewhere(q->x);
    }
  }
}
#endif
// RUNTIME-LABEL: void external(
// RUNTIME-NOT: ompx_bare
// RUNTIME: #pragma omp target teams distribute parallel for firstprivate(
// BARE-LABEL: void density(
// BARE: const int [[BP:sv16_5_]]dev = [[BS:sv13_3_]]sweep.device();
// BARE-NEXT: const int [[BP]]teams = ::soaview::omp::bare_teams([[BP]]n, [[BP]]dev);
// BARE-NEXT: #pragma omp target teams ompx_bare num_teams([[BP]]teams) thread_limit(::soaview::omp::bare_threads) firstprivate([[BP]]buffers0, {{.*}}, [[BS]]index3) device([[BP]]dev)
// BARE-NEXT: for (std::size_t [[BP]]i = ::soaview::omp::bare_first(); [[BP]]i < [[BP]]n; [[BP]]i += ::soaview::omp::bare_stride()) {
// BARE-LABEL: void drift(
// BARE: #pragma omp target teams distribute parallel for firstprivate({{sv[0-9_]+}}buffers) device(
// BARE-LABEL: void unbraced(
// BARE: #pragma omp target teams ompx_bare
// A call in a function template that depends on its parameters (here on the
// views it is called with) has a callee only in the instance, which the
// walk reads: the nest still runs bare.
static double halve(double v) { return v / 2; }
template <class A, class B> double gap(const A *a, const B *b) {
  return halve(a->x - b->x);
}
void templated(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active)
        p->rho += gap(p, q);
    }
  }
}
// BARE-LABEL: void templated(
// BARE: #pragma omp target teams ompx_bare
// A nest that allocates: by default the device heap takes its allocation
// and the nest keeps worksharing; with device-heap=off OpenMP's device
// runtime allocates, which a bare kernel does not start: worksharing too.
// RUN: %soaview_dump %offload_syntax -fplugin-arg-soaview-device-heap=off %s | %nochecks | FileCheck %s --check-prefix=HEAPOFF
void allocating(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active) {
        double *t = new double(q->x);
        p->rho += *t;
        delete t;
      }
    }
  }
}
// BARE-LABEL: void allocating(
// BARE-NOT: ompx_bare
// BARE: #pragma omp target teams distribute parallel for
// HEAPOFF-LABEL: void templated(
// HEAPOFF: #pragma omp target teams ompx_bare
// HEAPOFF-LABEL: void allocating(
// HEAPOFF-NOT: ompx_bare
// HEAPOFF: #pragma omp target teams distribute parallel for firstprivate(
