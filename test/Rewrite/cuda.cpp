// The CUDA backend: an offloaded loop becomes a __device__ lambda launched by
// the device frame (a grid-stride kernel in soaview/cuda.h); views, clones
// and the user functions the body reaches are marked __host__ __device__;
// `continue` of the loop ends the lambda's call; no OpenMP pragma anywhere.
// RUN: %soaview-translate --backend=cuda %s -o - -- -std=c++17 -I%inputs | %nochecks | FileCheck %s
// The plugin writes the same CUDA source into its dump and compiles the
// source as written.
// RUN: %clangxx -fsyntax-only -fplugin=%soaview_libdir/soaview.so -I%inputs \
// RUN:   -fplugin-arg-soaview-backend=cuda -fplugin-arg-soaview-dump=%t.cu %s
// RUN: %nochecks %t.cu | FileCheck %s
#include "cuda_marked.h"
#include <cmath>
#include <vector>
struct P { double x, v, m, g[5]; int id; };

// A function right after a directive, and a comment naming a macro: their
// words are not the function's specifiers, so it is not taken as marked by a
// macro there (SWIFT's kernel_root, found by tools/swift-step: unmarked, it
// computed NaN on the GPU).
#define ROOT_SCALE 2.0
// ROOT_SCALE times r
static double rootScale(double r) { return ROOT_SCALE * r; }
// A template called with the element: its call of `half` depends on the
// template's parameters, so only the instance names the callee; marked too.
static double half(double d) { return 0.5 * d; }
template <class T> static double halfOf(const T &p) { return half(p.x); }
// A constructor's member initialiser, written or a member's default, calls a
// function: it runs on the device where the object is made there, so it is
// marked too.
static double twice(double d) { return 2 * d; }
static double third(double d) { return d / 3; }
struct Scaled { double s, t = third(1); explicit Scaled(double v) : s(twice(v)) {} };
static double weight(double r) { return std::sqrt(r) + libScale(r) + libConst(r) + rootScale(r) + Scaled(r).s + Scaled(r).t; }
static double weightDecl(double r);
static void kick(P &p, double dt) { p.v += weight(dt) * weightDecl(dt) + halfOf(p); }
static double weightDecl(double r) { return r; }

void step(std::vector<P> &ps, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (auto &p : ps) {
    if (p.m <= 0)
      continue;
    for (int k = 0; k < 2; ++k)
      if (k == 1)
        continue;
    kick(p, dt);
    p.x += p.v * dt + p.g[1];
  }
}
// CHECK: #include <soaview/soaview.h>
// CHECK-NEXT: #include <soaview/cuda.h>
// CHECK-NOT: pragma omp
// CHECK-NOT: inline namespace {
// CHECK: __host__ __device__ static double rootScale(double r)
// CHECK: __host__ __device__ static double half(double d)
// CHECK: __host__ __device__ static double twice(double d)
// CHECK: __host__ __device__ static double third(double d)
// CHECK: __host__ __device__ explicit Scaled(double v) : s(twice(v))
// CHECK: __host__ __device__ static double weight(double r)
// CHECK: __host__ __device__ static double weightDecl(double r);
// CHECK-NEXT: static void kick(P &p, double dt)
// CHECK-NEXT: {{\[\[}}maybe_unused]] static constexpr void (*soaview_keep_{{[0-9]+}}_13)(P &, double) = &kick;
// CHECK-NEXT: // soaview: clone of 'kick' for soaview's views
// CHECK-NEXT: #line
// CHECK-NEXT: template <class soaview_E0, ::soaview::if_views<::soaview::stands_for<soaview_E0, ::P>> = 0> __host__ __device__ __attribute__((always_inline)) inline static void kick(soaview_E0 &p, double dt) { p.v += weight(dt) * weightDecl(dt) + halfOf(p); }
// CHECK: __host__ __device__ static double weightDecl(double r) { return r; }
// CHECK: struct [[V:P_[0-9]+_3]] {
// CHECK: template <class S> __host__ __device__ [[V]](::soaview::loop_tag<0>, const S &s, std::size_t i)
// Whole arrays (more than 4 components) are copied element by element
// (memcpy in device code copies bytes).
// CHECK: ::soaview::copy_array(g, s.g[i]);
// CHECK: __host__ __device__ ~[[V]]() {
// CHECK: static __host__ __device__ view at(const soa &s, std::size_t i)
// CHECK-LABEL: void step(
// CHECK: // soaview: view of 'P' in {x, v, m, g} out {x, v} {{.*}}; offloaded (CUDA kernel)
// CHECK: ::soaview::cuda::host_frame<::soaview_gen::[[V]]_spec> [[P:sv[0-9]+_3_]]frame([[P]]site, [[P]]range);
// CHECK-NEXT: using [[P]]spec = ::soaview_gen::[[V]]_spec;
// CHECK-NEXT: ::soaview::cuda::device_frame<[[P]]spec> [[P]]device([[P]]site, [[P]]frame);
// CHECK-NEXT: const auto [[P]]buffers = [[P]]device.buffers();
// CHECK: [[P]]device.launch([=] __device__ (std::size_t [[P]]i) { auto [[P]]view = [[P]]spec::at([[P]]buffers, [[P]]i); auto &p = [[P]]view;
// CHECK-NEXT: if (p.m <= 0)
// CHECK-NEXT: return;
// CHECK: if (k == 1)
// CHECK-NEXT: continue;
// CHECK: p.x += p.v * dt + p.g[1];
// CHECK-NEXT: }); }
// CHECK-NEXT: }

// A pair nest: the hoisted inner view's device frame is built before the
// launch and captured by the lambda; the inner loop runs over its buffers.
struct Q { double x[5], m; };
static void pair(Q *l, const Q *a) { l->x[0] += a->m; l->x[1] -= a->m; }
void pairs(std::vector<Q *> &local, std::vector<Q *> &active) {
  [[clang::soa_conversion_offload_compute]]
  for (Q *l : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Q *a : active)
      pair(l, a);
  }
}
// A written array field goes back element by element too.
// CHECK: if (soaview_out_x.p) ::soaview::copy_array(*soaview_out_x.p, x);
// CHECK-LABEL: void pairs(
// CHECK:       ::soaview::cuda::device_frame<[[ISPEC:sv[0-9_]+spec]]> [[I:sv[0-9]+_[0-9]+_]]device(
// CHECK:       const std::size_t [[I]]n = [[I]]device.size();
// CHECK:       [[O:sv[0-9]+_[0-9]+_]]device.launch([=] __device__ (std::size_t [[O]]i) {
// CHECK:       for (std::size_t [[I]]i = 0; [[I]]i < [[I]]n; ++[[I]]i) { auto [[I]]view = [[ISPEC]]::at([[I]]buffers, [[I]]i); const auto *a = &[[I]]view;
// CHECK-NEXT:  pair(l, a); }
// CHECK:       }); } }
