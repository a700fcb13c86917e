// Functions nvcc does not accept a __device__ lambda in: the loop offloaded
// to CUDA is refused with the shape nvcc needs (checks/CudaChecks.cpp).
// RUN: %soaview_verify -fplugin-arg-soaview-backend=cuda -fplugin-arg-soaview-dump=%t.cu %s
#include <vector>
struct P { double x, y; };

void inLambda(std::vector<P *> &v) {
  auto f = [&] {
    [[clang::soa_conversion_offload_compute]] // expected-note {{nvcc accepts the kernel's __device__ lambda only in a named function}}
    for (auto *p : v) // expected-error {{cannot offload loop to CUDA: it is inside a lambda}}
      p->x += p->y;
  };
  f();
}

struct {
  void run(std::vector<P *> &v) {
    [[clang::soa_conversion_offload_compute]] // expected-note {{nvcc accepts the kernel's __device__ lambda only in a named function}}
    for (auto *p : v) // expected-error {{cannot offload loop to CUDA: the function holding it is a member of an unnamed class}}
      p->x += p->y;
  }
} unnamed;

void use(std::vector<P *> &v) { unnamed.run(v); }
