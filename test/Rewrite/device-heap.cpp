// Allocation in offloaded code goes to soaview's device heap
// (soaview/heap_route.h): the C functions are renamed, new-expressions are
// placed on the heap (their initializers as written), delete-expressions
// become calls; in the loop's body, in the functions it reaches (in place,
// where host callers keep the standard allocation), in a clone for the view
// and in a member function copied into the view. The launch is wrapped in
// the heap's loop scope. Placement new into existing storage stays.
// RUN: %soaview_dump %offload_syntax %s | %nochecks | FileCheck %s --check-prefixes=CHECK,OMP
// RUN: %soaview-translate --backend=cuda %s -o - -- -std=c++17 | %nochecks | FileCheck %s --check-prefixes=CHECK,CUDA
// Not offloaded, or with the heap off: allocation stays as written.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s --check-prefix=HOST
// RUN: %soaview_dump %offload_syntax -fplugin-arg-soaview-device-heap=off %s | %nochecks | FileCheck %s --check-prefix=HOST
#include <cstdlib>
#include <new>
#include <vector>

struct alignas(64) Wide { double v[8]; };
struct Pair { double a, b; };

struct P {
  double x, y;
  double scratch() const {
    double *t = static_cast<double *>(malloc(2 * sizeof(double)));
    t[0] = x;
    t[1] = y;
    double s = t[0] + t[1];
    free(t);
    return s;
  }
};

static double sumOf(int n) {
  double *a = static_cast<double *>(std::calloc(n, sizeof(double)));
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += a[k] + k;
  std::free(a);
  return s;
}

static void touch(P &p) {
  int *k = ::new int(3);
  p.y += *k;
  delete k;
}

void step(std::vector<P> &ps) {
  [[clang::soa_conversion_offload_compute]]
  for (auto &p : ps) {
    Pair *q = new Pair{p.x, 2};
    Wide *w = new (std::nothrow) Wide();
    double *arr = new double[4]();
    void *al = aligned_alloc(64, 128);
    alignas(Pair) unsigned char raw[sizeof(Pair)];
    Pair *in = new (raw) Pair{1, 2};
    p.x = q->a + q->b + w->v[0] + arr[3] + sumOf(3) + p.scratch() + in->a;
    touch(p);
    delete q;
    delete w;
    delete[] arr;
    free(al);
  }
}

double hostOnly() { return sumOf(4); }

// CHECK: #include <soaview/soaview.h>
// OMP: #include <soaview/heap_omp.h> // added by soaview
// CUDA: #include <soaview/heap_cuda.h> // added by soaview
// The member function, in place and in the view's copy:
// CHECK: double *t = static_cast<double *>(::soaview::heap::malloc(2 * sizeof(double)));
// CHECK: ::soaview::heap::free(t);
// CHECK-LABEL: static double sumOf(int n)
// CHECK-NEXT: double *a = static_cast<double *>(::soaview::heap::calloc(n, sizeof(double)));
// CHECK: ::soaview::heap::free(a);
// touch in place, then its clone, then the view's copy of scratch:
// CHECK-LABEL: static void touch(P &p)
// CHECK-NEXT: int *k = ::new (::soaview::heap::on_device) int(3);
// CHECK-NEXT: p.y += *k;
// CHECK-NEXT: ::soaview::heap::delete_object(k);
// CHECK: static void touch(soaview_E0 &p) {
// CHECK-NEXT: int *k = ::new (::soaview::heap::on_device) int(3);
// CHECK-NEXT: p.y += *k;
// CHECK-NEXT: ::soaview::heap::delete_object(k);
// CHECK: double *t = static_cast<double *>(::soaview::heap::malloc(2 * sizeof(double)));
// CHECK-LABEL: void step(
// CHECK: ::soaview::heap::loop_scope [[P:sv[0-9]+_[0-9]+_]]heap([[P]]site);
// CHECK-NEXT: using [[P]]spec =
// CHECK: Pair *q = new (::soaview::heap::on_device) Pair{p.x, 2};
// CHECK-NEXT: Wide *w = new (::soaview::heap::on_device) Wide();
// CHECK-NEXT: double *arr = new (::soaview::heap::on_device) double[4]();
// CHECK-NEXT: void *al = ::soaview::heap::aligned_alloc(64, 128);
// CHECK: Pair *in = new (raw) Pair{1, 2};
// CHECK: ::soaview::heap::delete_object(q);
// CHECK-NEXT: ::soaview::heap::delete_object(w);
// CHECK-NEXT: ::soaview::heap::delete_array(arr);
// CHECK-NEXT: ::soaview::heap::free(al);
// HOST-NOT: soaview::heap
// HOST-NOT: heap_omp.h
