// The CUDA backend marks the user's constructors and destructors that a
// kernel runs without naming them: a member's, run by its class's implicit
// constructor and destructor, and a member's or base's destructor, run after
// a written destructor's body. Unmarked, nvcc refused the converted program
// ("calling a __host__ function from a __device__ function").
// RUN: %soaview-translate --backend=cuda %s -o %t.cu -- -std=c++17
// RUN: %nochecks %t.cu | FileCheck %s
#include <vector>
struct P { double x, v; };

struct Counter {
  double n;
  // CHECK: __host__ __device__ Counter() : n(1.0) {}
  Counter() : n(1.0) {}
  // CHECK: __host__ __device__ ~Counter() { n = 0.0; }
  ~Counter() { n = 0.0; }
};
struct Holder { // implicit constructor and destructor
  Counter c;
  // CHECK: __host__ __device__ double scale() const
  double scale() const { return c.n * 2.0; }
};

struct Part {
  double w = 3.0;
  // CHECK: __host__ __device__ ~Part() { w = 1.0; }
  ~Part() { w = 1.0; }
};
struct Base {
  // CHECK: __host__ __device__ ~Base() {}
  ~Base() {}
};
struct Owner : Base {
  Part part;
  double k = 0.5;
  // CHECK: __host__ __device__ ~Owner() { k = 0.0; }
  ~Owner() { k = 0.0; }
};

void step(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]]
  for (auto *p : v) {
    Holder h;
    Owner o;
    p->x += p->v * h.scale() * o.k;
  }
}
