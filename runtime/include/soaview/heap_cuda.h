//===- soaview/heap_cuda.h - the device heap on a CUDA device -----*- C++
//-*-===//
//
// Device code allocates with soaview::heap::malloc / free / calloc /
// aligned_alloc and creates objects with create / destroy (create_array /
// destroy_array for arrays): the allocator of soaview/heap.h over the heap
// that a soaview::heap::cuda_heap owns on the host.
//
// The heap device code uses is a variable of each translation unit
// (soaview_heap_state, static __device__): cuda_heap::bind() sets this
// translation unit's to its heap before launches (cheap: a 8-byte copy on
// the calling thread's stream). After the launch, check() copies the
// failure record back and reports failed allocations, naming the loop.
//
// Contracts: as soaview/heap.h; a cuda_heap belongs to the device current
// when it was made; errors follow the runtime's policy: a message on
// stderr, then std::bad_alloc when the heap cannot be allocated, or
// soaview::cuda::error for any other CUDA failure.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_HEAP_CUDA_H
#define SOAVIEW_HEAP_CUDA_H

#include "soaview/cuda.h"
#include "soaview/heap.h"
#include "soaview/heap_scope.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <utility>

/// This translation unit's heap, for device code (set by cuda_heap::bind).
static __device__ soaview::heap::state *soaview_heap_state = nullptr;

#define SOAVIEW_ROUTE_FN __host__ __device__ inline
namespace soaview::heap {
namespace {
/// The heap device code of this translation unit allocates from; null on
/// the host (host code keeps the standard allocation functions).
SOAVIEW_ROUTE_FN state *device_state() {
#if SOAVIEW_CUDA_DEVICE
  return soaview_heap_state;
#else
  return nullptr;
#endif
}
} // namespace
} // namespace soaview::heap
#include "soaview/heap_route.h"

namespace soaview::heap {

/// `new T(args...)`: null when the heap is out.
template <class T, class... A> __device__ T *create(A &&...args) {
  void *p = aligned_alloc(alignof(T) < 16 ? 16 : alignof(T), sizeof(T));
  return p ? ::new (p) T(static_cast<A &&>(args)...) : nullptr;
}
template <class T> __device__ void destroy(T *p) {
  if (p) {
    p->~T();
    free(p);
  }
}
/// `new T[n]`: the count goes in the 16 bytes before the first element.
template <class T> __device__ T *create_array(std::size_t n) {
  constexpr std::size_t pre = alignof(T) > 16 ? alignof(T) : 16;
  if (n > (~std::size_t(0) - pre) / sizeof(T))
    return nullptr;
  char *p = (char *)aligned_alloc(pre, pre + n * sizeof(T));
  if (!p)
    return nullptr;
  *(std::size_t *)p = n;
  T *a = (T *)(p + pre);
  for (std::size_t i = 0; i < n; ++i)
    ::new (a + i) T();
  return a;
}
template <class T> __device__ void destroy_array(T *a) {
  if (!a)
    return;
  constexpr std::size_t pre = alignof(T) > 16 ? alignof(T) : 16;
  char *p = (char *)a - pre;
  for (std::size_t i = *(std::size_t *)p; i > 0; --i)
    a[i - 1].~T();
  free(p);
}

/// A heap on the current CUDA device, owned by the host.
class cuda_heap {
public:
  explicit cuda_heap(std::size_t bytes = heap::bytes())
      : device_(cuda::current_device()), bytes_(bytes) {
    const int device = device_;
    mem_ = cuda::allocate(bytes, device);
    std::size_t zero = 0;
    state heap_state;
    auto at =
        plan_owned(mem_, bytes, heap_state, zero, cuda::deallocate, device);
    state_ = (state *)(std::uintptr_t)at;
    must(cudaMemset(state_, 0, zero), "clearing the device heap");
    auto [counts, count_bytes] = closed_counts(heap_state);
    must(cudaMemset((void *)(std::uintptr_t)counts, 0x80, count_bytes),
         "closing the device heap's slabs");
    must(cudaMemcpy(state_, &heap_state, sizeof heap_state,
                    cudaMemcpyHostToDevice),
         "writing the device heap's state");
  }
  ~cuda_heap() { cuda::deallocate(mem_, device_); }
  cuda_heap(const cuda_heap &) = delete;
  cuda_heap &operator=(const cuda_heap &) = delete;

  state *get() const { return state_; }
  std::size_t bytes() const { return bytes_; }
  /// Makes this translation unit's device code allocate from this heap.
  void bind(cudaStream_t stream = cudaStreamPerThread) const {
    must(cudaMemcpyToSymbolAsync(soaview_heap_state, &state_, sizeof state_, 0,
                                 cudaMemcpyHostToDevice, stream),
         "binding the device heap");
  }
  /// After a launch on `stream`: reports failed allocations (naming the
  /// loop) and clears the record; returns whether any failed.
  bool check(const site &s, cudaStream_t stream = cudaStreamPerThread) const {
    state heap_state;
    cuda::check(cudaMemcpyAsync(&heap_state, state_, sizeof heap_state,
                                cudaMemcpyDeviceToHost, stream),
                s, "reading the device heap's state");
    cuda::check(cudaStreamSynchronize(stream), s,
                "reading the device heap's state");
    if (!report(s, heap_state, bytes_))
      return false;
    unsigned long long zero[2] = {0, 0};
    cuda::check(cudaMemcpyAsync(&state_->failures, zero, sizeof zero,
                                cudaMemcpyHostToDevice, stream),
                s, "clearing the device heap's failure record");
    return true;
  }

private:
  /// A CUDA call outside any loop: message, then soaview::cuda::error.
  static void must(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
      std::fprintf(stderr, "soaview: %s failed: %s\n", what,
                   cudaGetErrorString(e));
      throw cuda::error(std::string("soaview: ") + what + ": " +
                        cudaGetErrorString(e));
    }
  }
  int device_;
  void *mem_ = nullptr;
  state *state_ = nullptr;
  std::size_t bytes_;
};

/// The heap of the current device that offloaded loops allocate from:
/// made on first use with heap::bytes() bytes, kept until the process ends.
/// Thread-safe.
inline cuda_heap &shared_cuda_heap() {
  static std::mutex m;
  static std::map<int, cuda_heap *> heaps; // never freed: used until exit
  const int d = cuda::current_device();
  std::lock_guard<std::mutex> hold(m);
  cuda_heap *&h = heaps[d];
  if (!h)
    h = new cuda_heap();
  return *h;
}

namespace {
/// Around an offloaded loop whose code allocates (soaview declares one
/// before the loop's device frame): binds this translation unit's device
/// code to the device's shared heap (once per translation unit and device),
/// and after the launch reports allocations that returned null, naming the
/// loop. Thread-safe; the report may count another thread's concurrent
/// failures on the same device.
class loop_scope : scope_report<cuda_heap> {
public:
  explicit loop_scope(const site &s) : scope_report(s, &shared_cuda_heap()) {
    state *p = heap_->get();
    bind_once(cuda::current_device(), p, [&] {
      cuda::check(cudaMemcpyToSymbol(soaview_heap_state, &p, sizeof p), s,
                  "binding the device heap");
    });
  }
};
} // namespace

} // namespace soaview::heap

#endif
