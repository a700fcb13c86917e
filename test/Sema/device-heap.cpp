// Allocation in offloaded code that cannot be routed to the device heap is
// refused where it is written (checks/HeapChecks.cpp).
// RUN: %soaview_verify %offload_syntax %s
// The CUDA backend refuses the same.
// RUN: %soaview_verify -fplugin-arg-soaview-backend=cuda -fplugin-arg-soaview-dump=%t.cu %s
// With the device heap off, allocation stays as written: nothing to refuse
// here but what no device runs (the class's own operator new is a call).
// RUN: %soaview_cc1 %offload_syntax -fplugin-arg-soaview-device-heap=off %s 2>&1 | FileCheck %s --allow-empty --check-prefix=OFF
// OFF-NOT: device heap
#include <cstdlib>
#include <memory>
#include <vector>

#define ALLOC(n) std::malloc(n)

struct P { double x, y; double *buf; int n; };

void grow(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{allocate the new size with malloc, copy the contents, and free the old block}}
  for (auto *p : v) {
    double *b = static_cast<double *>(std::malloc(16));
    b = static_cast<double *>(std::realloc(b, 32)); // expected-error {{cannot offload loop: 'realloc' cannot run on the device, whose heap does not resize blocks}}
    p->x = b[0];
    std::free(b);
  }
}

void operatorCall(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded code allocates with malloc, calloc, aligned_alloc and free}}
  for (auto *p : v) {
    void *b = ::operator new(16); // expected-error {{cannot offload loop: the call of 'operator new' cannot be routed to the device heap: explicit calls of allocation functions are not routed}}
    p->x = 1;
    ::operator delete(b);
  }
}

struct Pooled {
  double v;
  static void *operator new(std::size_t n);
  static void operator delete(void *p);
};

void classNew(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded code allocates with malloc}}
  for (auto *p : v) {
    Pooled *q = new Pooled{p->y}; // expected-error {{cannot offload loop: 'new' cannot be routed to the device heap: it calls 'Pooled::operator new' of 'Pooled'}}
    p->x = q->v;
  }
}

struct Counted {
  double v = 0;
  ~Counted() { v = -1; }
};

void arrayWithDestructor(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded code allocates with malloc}}
  for (auto *p : v) {
    Counted *c = new Counted[4]; // expected-error {{cannot offload loop: 'new[]' cannot be routed to the device heap: the elements of type 'Counted' have a destructor}}
    p->x = c[0].v;
  }
}

struct Base {
  virtual ~Base() {}
  double v = 1;
};

void polymorphicDelete(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded code allocates with malloc}}
  for (auto *p : v) {
    Base *b = new Base;
    p->x = b->v;
    delete b; // expected-error {{cannot offload loop: 'delete' cannot be routed to the device heap: 'Base' is polymorphic (the object may be a different class's)}}
  }
}

void inMacro(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{written outside macros}}
  for (auto *p : v) {
    void *b = ALLOC(8); // expected-error {{cannot offload loop: 'malloc' cannot be routed to the device heap: it is written inside a macro}}
    p->x = b ? 1 : 0;
    std::free(b);
  }
}

void smartPointer(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{standard containers and smart pointers cannot hold blocks of the device heap}}
  for (auto *p : v) {
    std::unique_ptr<double> d(new double(p->y)); // expected-error-re {{cannot offload loop: '{{.*}}unique_ptr{{.*}}' frees memory inside a system header, where soaview cannot route it to the device heap that this loop allocates from}}
    p->x = *d;
  }
}

void escapes(std::vector<P *> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{blocks of the device heap cannot outlive the launch: free them within the iteration and keep results in plain fields}}
  for (auto *p : v) {
    p->buf = new double[4]; // expected-error {{cannot offload loop: it allocates on the device and writes the pointer field 'buf'}}
    p->n = 4;
  }
}
