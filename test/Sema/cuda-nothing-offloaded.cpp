// The CUDA backend on a file in which no loop becomes a CUDA kernel (issue
// #51, item 14): a warning at the top of the file says nothing was offloaded
// (flag nothing-offloaded). The plugin and soaview-translate agree; the
// translator still writes the file and exits 0. Loops without the offload
// attribute convert for the host as usual.
// RUN: %soaview_verify -fplugin-arg-soaview-backend=cuda -fplugin-arg-soaview-dump=%t.cu %s
// RUN: %soaview_verify -fplugin-arg-soaview-backend=cuda -fplugin-arg-soaview-dump=%t.cu -fplugin-arg-soaview-no-warn=nothing-offloaded %s -DQUIET
// RUN: %soaview-translate --backend=cuda %s -o %t.out.cu -- -std=c++17 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: grep -q "soaview_gen" %t.out.cu
// The OpenMP backend (the default) says nothing: its output is for the host.
// RUN: %soaview-translate %s -o %t.out.cpp -- -std=c++17 2>&1 | count 0
// An offloaded loop silences it.
// RUN: %soaview_verify -fplugin-arg-soaview-backend=cuda -fplugin-arg-soaview-dump=%t.cu %s -DQUIET -DOFFLOADED
// CHECK: cuda-nothing-offloaded.cpp:1:1: warning: soaview: nothing was offloaded: no loop of this file became a CUDA kernel, so the CUDA source runs on the host only
// CHECK: cuda-nothing-offloaded.cpp:1:1: note: mark a loop {{\[\[}}clang::soa_conversion_offload_compute]] to run it on the GPU, or build the file without the CUDA backend
#include <vector>
struct P { double x, v; };

#ifdef QUIET
// expected-no-diagnostics
#else
// expected-warning@1 {{nothing was offloaded: no loop of this file became a CUDA kernel, so the CUDA source runs on the host only}}
// expected-note@1 {{mark a loop [[clang::soa_conversion_offload_compute]] to run it on the GPU, or build the file without the CUDA backend}}
#endif

void kick(std::vector<P *> &ps, double dt) {
  [[clang::soa_conversion("always")]]
  for (P *p : ps)
    p->x += p->v * dt;
}

#ifdef OFFLOADED
void drift(std::vector<P *> &ps, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (P *p : ps)
    p->x += p->v * dt;
}
#endif
