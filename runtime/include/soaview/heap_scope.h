//===- soaview/heap_scope.h - the host side of a loop that allocates -*- C++
//-*-===//
//
// What each device heap binding's loop_scope (soaview/heap_cuda.h,
// soaview/heap_omp.h) shares: soaview declares a loop_scope before the
// device frame of every offloaded loop whose code allocates; it binds this
// translation unit's device code to the device's heap once, and after the
// launch reports the allocations that returned null, naming the loop.
// Host code only; internal linkage (each translation unit binds its own
// heap pointer).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_HEAP_SCOPE_H
#define SOAVIEW_HEAP_SCOPE_H

#include <exception>
#include <map>
#include <mutex>

namespace soaview {
class site;
}
namespace soaview::heap {
struct state;
namespace {
/// Runs bind() the first time this translation unit's device code meets
/// heap h on `device`, under a lock: no launch of this translation unit
/// starts before its heap pointer is set.
template <class Bind> void bind_once(int device, state *h, Bind bind) {
  static std::mutex m;
  static std::map<int, state *> bound;
  std::lock_guard<std::mutex> hold(m);
  state *&b = bound[device];
  if (b != h) {
    bind();
    b = h;
  }
}

/// Ends a loop scope: after the launch, reports the allocations that
/// returned null, naming the loop (unless an exception is already on its
/// way). No heap: nothing to report.
template <class Heap> class scope_report {
public:
  scope_report(const site &s, Heap *h)
      : site_(s), heap_(h), unwinding_(std::uncaught_exceptions()) {}
  ~scope_report() noexcept(false) {
    if (heap_ && std::uncaught_exceptions() == unwinding_)
      heap_->check(site_);
  }
  scope_report(const scope_report &) = delete;
  scope_report &operator=(const scope_report &) = delete;

protected:
  const site &site_;
  Heap *heap_;
  int unwinding_;
};
} // namespace
} // namespace soaview::heap

#endif
