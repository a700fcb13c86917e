// An offloaded loop: host gather, a device frame from the pool, a target
// region over the device buffers; proxy, spec and clones in declare target.
// RUN: %soaview_dump %offload_syntax %s | %nochecks | FileCheck %s
// RUN: %soaview_dump %s | %nochecks | FileCheck %s --check-prefix=NOOMP
#include <vector>
struct P { double x, v; int id; };
static void kick(P &p, double dt) { p.v += dt; }
void step(std::vector<P> &ps, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (auto &p : ps) {
    kick(p, dt);
    p.x += p.v * dt;
  }
}
// CHECK: #include <soaview/omp.h>
// CHECK: static void kick(P &p, double dt) { p.v += dt; }
// CHECK-NEXT: {{\[\[}}maybe_unused]] static constexpr void (*soaview_keep_{{[0-9]+}}_13)(P &, double) = &kick;
// CHECK-NEXT: // soaview: clone of 'kick' for soaview's views
// CHECK-NEXT: #pragma omp declare target
// CHECK-NEXT: #line 7
// CHECK-NEXT: template <class soaview_E0, ::soaview::if_views<::soaview::stands_for<soaview_E0, ::P>> = 0> __attribute__((always_inline)) static void kick(soaview_E0 &p, double dt) { p.v += dt; }
// CHECK-NEXT: #pragma omp end declare target
// CHECK: #pragma omp declare target
// CHECK-NEXT: // soaview: view of 'P' for the loop at offload.cpp:10:3
// CHECK-NEXT: struct [[V:P_10_3]] {
// CHECK: #pragma omp end declare target
// CHECK-LABEL: void step(
// CHECK: using [[P:sv10_3_]]spec = ::soaview_gen::[[V]]_spec;
// CHECK-NEXT: ::soaview::omp::device_frame<[[P]]spec> [[P]]device([[P]]site, [[P]]frame);
// CHECK-NEXT: const auto [[P]]buffers = [[P]]device.buffers();
// CHECK: #pragma omp target teams distribute parallel for firstprivate([[P]]buffers) device([[P]]dev)
// CHECK-NEXT: #line 10
// CHECK-NEXT: for (std::size_t [[P]]i = 0; [[P]]i < [[P]]n; ++[[P]]i) { auto [[P]]view = [[P]]spec::at([[P]]buffers, [[P]]i); auto &p = [[P]]view;
// NOOMP-NOT: pragma omp
// NOOMP-NOT: soaview/omp.h

// An offloaded nest: the inner view is hoisted out of the offloaded loop,
// its device frame built before the target region, which captures both
// views' device buffers; the inner loop runs over the device buffers.
struct Q { double x, m; };
void pairs(std::vector<Q *> &local, std::vector<Q *> &active) {
  [[clang::soa_conversion_offload_compute]]
  for (Q *l : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (Q *a : active)
      l->x += a->m;
  }
}
// CHECK-LABEL: void pairs(
// CHECK:       { // soaview: hoisted 1 level(s) out of the loop at offload.cpp:[[IN:[0-9]+:[0-9]+]]
// CHECK:       ::soaview::omp::device_frame<[[ISPEC:sv[0-9_]+spec]]> [[I:sv[0-9]+_[0-9]+_]]device(
// CHECK:       const auto [[I]]buffers = [[I]]device.buffers();
// CHECK:       const std::size_t [[I]]n = [[I]]device.size();
// CHECK:       // soaview: view of 'Q' in {x} out {x} {{.*}}; offloaded
// CHECK:       #pragma omp target teams distribute parallel for firstprivate([[O:sv[0-9]+_[0-9]+_]]buffers, [[I]]buffers) device([[O]]dev)
// CHECK:       for (std::size_t [[I]]i = 0; [[I]]i < [[I]]n; ++[[I]]i) { auto [[I]]view = [[ISPEC]]::at([[I]]buffers, [[I]]i); auto *a = &[[I]]view;
// CHECK-NEXT:  l->x += a->m; }
