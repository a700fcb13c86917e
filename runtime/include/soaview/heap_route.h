//===- soaview/heap_route.h - allocation routed to the device heap -*- C++
//-*-===//
//
// What soaview writes in place of allocation in offloaded code (and in the
// functions it calls), for both device backends:
//
//   malloc(n)            ::soaview::heap::malloc(n)       (calloc,
//                                                          aligned_alloc, free)
//   new T(...)           new (::soaview::heap::on_device) T(...)
//   new T[n]             new (::soaview::heap::on_device) T[n]
//   new (std::nothrow) T new (::soaview::heap::on_device) T
//   delete p             ::soaview::heap::delete_object(p)
//   delete[] p           ::soaview::heap::delete_array(p)
//
// In device code each of these allocates from the translation unit's device
// heap (soaview/heap.h) and returns null when it is out: the allocation
// functions below are non-throwing, so a new-expression returns null without
// constructing (devices have no exceptions); the loop's heap scope reports
// the failures after the launch. Everywhere else (host code calling the same
// functions) they do what the original spelling does: std::malloc, the
// global operator new (nothrow form), delete, delete[].
//
// Included by a backend's binding (heap_cuda.h, heap_omp.h), which first
// defines SOAVIEW_ROUTE_FN (how a function is compiled for the device) and
// soaview::heap::device_state(): this translation unit's heap in device
// code, null elsewhere. Everything here has internal linkage (an unnamed
// namespace, or a parameter of a type in one), since each translation unit
// has its own heap pointer.
//
// Contracts: blocks are aligned to 16 bytes at least (to the requested
// alignment for over-aligned types); a block is freed by the routed free or
// delete of the same translation unit's device code; arrays of types with
// non-trivial destructors are not routed (the plugin refuses them: their
// count would live in an ABI cookie).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_HEAP_ROUTE_H
#define SOAVIEW_HEAP_ROUTE_H

#include "soaview/heap.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace soaview::heap {
namespace {

/// The placement argument of new-expressions routed to the device heap.
struct on_device_t {
  explicit constexpr on_device_t() = default;
};
constexpr on_device_t on_device{};

SOAVIEW_ROUTE_FN void *malloc(std::size_t n) {
#if SOAVIEW_CUDA_DEVICE
  return allocate_in(device_state(), n);
#else
  if (state *h = device_state())
    return allocate_in(h, n);
  return std::malloc(n);
#endif
}
SOAVIEW_ROUTE_FN void free(void *p) {
#if SOAVIEW_CUDA_DEVICE
  free_in(device_state(), p);
#else
  if (state *h = device_state())
    free_in(h, p);
  else
    std::free(p);
#endif
}
SOAVIEW_ROUTE_FN void *aligned_alloc(std::size_t align, std::size_t n) {
#if SOAVIEW_CUDA_DEVICE
  return aligned_allocate_in(device_state(), align, n);
#else
  if (state *h = device_state())
    return aligned_allocate_in(h, align, n);
  return std::aligned_alloc(align, n);
#endif
}
SOAVIEW_ROUTE_FN void *calloc(std::size_t count, std::size_t size) {
#if !SOAVIEW_CUDA_DEVICE
  if (!device_state())
    return std::calloc(count, size);
#endif
  if (size && count > ~std::size_t(0) / size)
    return nullptr;
  void *p = heap::malloc(count * size);
  if (p)
    memset(p, 0, count * size);
  return p;
}

/// Block for a routed new-expression: null when the heap is out.
SOAVIEW_ROUTE_FN void *new_block(std::size_t n, std::size_t align, bool array) {
#if !SOAVIEW_CUDA_DEVICE
  if (!device_state()) {
    if (align > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
      return array ? ::operator new[](n, std::align_val_t(align), std::nothrow)
                   : ::operator new(n, std::align_val_t(align), std::nothrow);
    return array ? ::operator new[](n, std::nothrow)
                 : ::operator new(n, std::nothrow);
  }
#endif
  (void)array;
  return heap::aligned_alloc(align < 16 ? 16 : align, n);
}

/// `delete p` of a routed new.
template <class T> SOAVIEW_ROUTE_FN void delete_object(T *p) {
#if !SOAVIEW_CUDA_DEVICE
  if (!device_state()) {
    delete p;
    return;
  }
#endif
  if (p) {
    p->~T();
    heap::free(const_cast<void *>(static_cast<const volatile void *>(p)));
  }
}
/// `delete[] p` of a routed new[] (elements trivially destructible).
template <class T> SOAVIEW_ROUTE_FN void delete_array(T *p) {
#if !SOAVIEW_CUDA_DEVICE
  if (!device_state()) {
    delete[] p;
    return;
  }
#endif
  heap::free(const_cast<void *>(static_cast<const volatile void *>(p)));
}

} // namespace
} // namespace soaview::heap

// The allocation functions of routed new-expressions (and the placement
// deletes that free the block when a constructor throws on the host).
SOAVIEW_ROUTE_FN void *operator new(std::size_t n,
                                    soaview::heap::on_device_t) noexcept {
  return soaview::heap::new_block(n, 0, false);
}
SOAVIEW_ROUTE_FN void *operator new[](std::size_t n,
                                      soaview::heap::on_device_t) noexcept {
  return soaview::heap::new_block(n, 0, true);
}
SOAVIEW_ROUTE_FN void *operator new(std::size_t n, std::align_val_t a,
                                    soaview::heap::on_device_t) noexcept {
  return soaview::heap::new_block(n, (std::size_t)a, false);
}
SOAVIEW_ROUTE_FN void *operator new[](std::size_t n, std::align_val_t a,
                                      soaview::heap::on_device_t) noexcept {
  return soaview::heap::new_block(n, (std::size_t)a, true);
}
namespace soaview::heap {
namespace {
/// Frees a block of new_block (what the placement deletes do).
SOAVIEW_ROUTE_FN void delete_block(void *p, std::size_t align, bool array) {
#if !SOAVIEW_CUDA_DEVICE
  if (!device_state()) {
    if (align > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
      array ? ::operator delete[](p, std::align_val_t(align))
            : ::operator delete(p, std::align_val_t(align));
    else
      array ? ::operator delete[](p) : ::operator delete(p);
    return;
  }
#endif
  (void)align;
  (void)array;
  heap::free(p);
}
} // namespace
} // namespace soaview::heap
SOAVIEW_ROUTE_FN void operator delete(void *p,
                                      soaview::heap::on_device_t) noexcept {
  soaview::heap::delete_block(p, 0, false);
}
SOAVIEW_ROUTE_FN void operator delete[](void *p,
                                        soaview::heap::on_device_t) noexcept {
  soaview::heap::delete_block(p, 0, true);
}
SOAVIEW_ROUTE_FN void operator delete(void *p, std::align_val_t a,
                                      soaview::heap::on_device_t) noexcept {
  soaview::heap::delete_block(p, (std::size_t)a, false);
}
SOAVIEW_ROUTE_FN void operator delete[](void *p, std::align_val_t a,
                                        soaview::heap::on_device_t) noexcept {
  soaview::heap::delete_block(p, (std::size_t)a, true);
}

#endif
