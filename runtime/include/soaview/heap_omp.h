//===- soaview/heap_omp.h - the device heap on an OpenMP device ----*- C++
//-*-===//
//
// The device heap of soaview/heap.h for code offloaded with OpenMP target
// regions: allocation that soaview routes there (soaview/heap_route.h) and
// soaview::heap::malloc / free / calloc / aligned_alloc called directly.
//
// The heap device code uses is a declare-target variable of each
// translation unit (soaview_heap_state): its device copy is set by a
// loop_scope before the first offloaded loop that allocates; its host copy
// stays null, so host code calling the same functions keeps the standard
// allocation functions. After the target region, the scope copies the
// failure record back and reports failed allocations, naming the loop.
//
// Contracts: as soaview/heap.h; one heap per device, made on first use with
// heap::bytes() bytes and kept until the process ends; thread-safe. Errors
// follow the runtime's policy: a message on stderr, then std::bad_alloc when
// the heap cannot be allocated, or std::runtime_error when a copy to or from
// the device fails. Tested through host offloading
// (test/Offload/host-offload.test, examples/small/offload_alloc.cpp).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_HEAP_OMP_H
#define SOAVIEW_HEAP_OMP_H

#include "soaview/heap_scope.h"
#include "soaview/omp.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <omp.h>

#pragma omp declare target
#include "soaview/heap.h"
/// This translation unit's heap, for device code (set by loop_scope).
static soaview::heap::state *soaview_heap_state = nullptr;
#define SOAVIEW_ROUTE_FN inline
namespace soaview::heap {
namespace {
/// The heap device code of this translation unit allocates from; null in
/// host code (the host copy of the variable is never set).
SOAVIEW_ROUTE_FN state *device_state() { return soaview_heap_state; }
} // namespace
} // namespace soaview::heap
#include "soaview/heap_route.h"
#pragma omp end declare target

namespace soaview::heap {

/// A heap on one OpenMP device, owned by the host.
class omp_heap {
public:
  explicit omp_heap(int device, std::size_t bytes = heap::bytes())
      : device_(device), bytes_(bytes) {
    mem_ = omp_target_alloc(bytes, device);
    std::size_t zero = 0;
    state heap_state;
    auto at =
        plan_owned(mem_, bytes, heap_state, zero, omp_target_free, device);
    state_ = (state *)(std::uintptr_t)at;
    // The state, cleared bitmaps and closed counts, built here: one copy.
    std::vector<unsigned char> image(zero, 0);
    auto [counts, count_bytes] = closed_counts(heap_state);
    std::memset(image.data() + (counts - at), 0x80, count_bytes);
    std::memcpy(image.data(), &heap_state, sizeof heap_state);
    copy(state_, image.data(), zero, device_,
         "writing the device heap's state");
  }
  ~omp_heap() { omp_target_free(mem_, device_); }
  omp_heap(const omp_heap &) = delete;
  omp_heap &operator=(const omp_heap &) = delete;

  state *get() const { return state_; }
  std::size_t bytes() const { return bytes_; }
  int device() const { return device_; }
  /// After a target region: reports failed allocations (naming the loop)
  /// and clears the record; returns whether any failed.
  bool check(const site &s) const {
    state heap_state;
    copy(&heap_state, state_, sizeof heap_state, omp_get_initial_device(),
         "reading the device heap's state");
    if (!report(s, heap_state, bytes_))
      return false;
    unsigned long long zero[2] = {0, 0};
    static_assert(offsetof(state, fail_bytes_max) ==
                  offsetof(state, failures) + sizeof zero[0]);
    copy(&state_->failures, zero, sizeof zero, device_,
         "clearing the device heap's failure record");
    return true;
  }

private:
  /// A copy between the host and this heap's device (`to`: the device
  /// that receives).
  void copy(void *dst, const void *src, std::size_t n, int to,
            const char *what) const {
    const int host = omp_get_initial_device();
    if (omp_target_memcpy(dst, src, n, 0, 0, to, to == host ? device_ : host)) {
      std::fprintf(stderr, "soaview: %s failed (device %d)\n", what, device_);
      throw std::runtime_error(std::string("soaview: ") + what + " failed");
    }
  }
  void *mem_ = nullptr;
  state *state_ = nullptr;
  int device_;
  std::size_t bytes_;
};

/// The heap of an OpenMP device that offloaded loops allocate from: made on
/// first use with heap::bytes() bytes, kept until the process ends.
/// Thread-safe.
inline omp_heap &shared_omp_heap(int device) {
  static std::mutex m;
  static std::map<int, omp_heap *> heaps; // never freed: used until exit
  std::lock_guard<std::mutex> hold(m);
  omp_heap *&h = heaps[device];
  if (!h)
    h = new omp_heap(device);
  return *h;
}

namespace {
/// Around an offloaded loop whose code allocates (soaview declares one
/// before the loop's device frame): sets this translation unit's device
/// copy of the heap pointer to the device's shared heap (once per
/// translation unit and device), and after the target region reports
/// allocations that returned null, naming the loop. Thread-safe; the report
/// may count another thread's concurrent failures on the same device.
class loop_scope : scope_report<omp_heap> {
public:
  explicit loop_scope(const site &s, int device = omp::default_device())
      : scope_report(s, offloads(device) ? &shared_omp_heap(device) : nullptr) {
    if (heap_)
      bind_once(device, heap_->get(), [&] { bind(device, heap_->get()); });
  }

private:
  /// Sets this translation unit's device copy of the heap pointer.
  static void bind(int device, state *p) {
#pragma omp target device(device) firstprivate(p)
    soaview_heap_state = p;
  }
  /// Target regions that run on the host (no offload device) keep the
  /// standard allocation, like all host code.
  static bool offloads(int device) {
    return device != omp_get_initial_device() && device < omp_get_num_devices();
  }
};
} // namespace

} // namespace soaview::heap

#endif
