//===- soaview/omp.h - OpenMP device memory for soaview -------*- C++ -*-===//
//
// The OpenMP target-memory backend of the soaview pool: device buffers come
// from omp_target_alloc on the chosen device and are cached per (site,
// thread, depth) like host buffers, so after warm-up an offloaded loop site
// performs no device allocation. Included only by code built with -fopenmp.
//
// Contracts: device buffers are owned by the runtime and valid until the
// device_lease is destroyed; the host thread that acquired them must release
// them. Errors follow the runtime's one policy (message naming the site,
// std::bad_alloc). Covered by test/Unit/omp_pool_test.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_OMP_H
#define SOAVIEW_OMP_H

#include "soaview/omp_bare.h"
#include "soaview/soaview.h"
#include "soaview/sweep.h"

#include <mutex>

#include <omp.h>

namespace soaview::omp {

inline void *allocate(std::size_t bytes, int device) {
  return omp_target_alloc(bytes, device);
}
inline void deallocate(void *p, int device) noexcept {
  omp_target_free(p, device);
}
inline const rt::backend backend = {"omp", allocate, deallocate};

// Pinned (page-locked) host memory from LLVM's offload runtime: host buffers
// of offloaded loops live there, so copies to and from the device run at the
// interconnect's speed instead of through a bounce buffer.
//
// Pinned allocations and frees are serialised: LLVM 19's offload runtime frees
// pinned memory before it drops the buffer from its table of locked buffers,
// so another thread's allocation at the freed address in between is refused
// ("Partial overlapping not allowed in locked buffers"; seen with 64 threads
// launching SPH cells on an H100, docs/offload.md). After warm-up the pools
// allocate nothing, so the lock costs nothing there. Pinned memory that code
// outside soaview allocates in the same process is not covered.
extern "C" void *llvm_omp_target_alloc_host(std::size_t, int);
extern "C" void llvm_omp_target_free_host(void *, int);
inline std::mutex &pinned_mutex() {
  // Never destroyed: buffers freed during exit still take it.
  static std::mutex *m = new std::mutex;
  return *m;
}
/// The calling thread's default device, where its offloaded loops run.
/// At the thread's first use, SOAVIEW_DEVICE (when set) becomes it if the
/// thread is still on device 0, where every thread starts.
inline int default_device() noexcept {
  static thread_local bool applied = false;
  if (!applied) {
    applied = true;
    if (omp_get_default_device() == 0)
      if (int d = rt::device_from_env(omp_get_num_devices()); d > 0)
        omp_set_default_device(d);
  }
  return omp_get_default_device();
}

// Pinned staging belongs to a device: pooled per the thread's default device
// (rt::backend::current_device) and allocated and freed through that
// device's plugin.
inline void *allocate_pinned(std::size_t bytes, int device) {
  std::lock_guard<std::mutex> hold(pinned_mutex());
  return llvm_omp_target_alloc_host(bytes, device);
}
inline void deallocate_pinned(void *p, int device) noexcept {
  std::lock_guard<std::mutex> hold(pinned_mutex());
  llvm_omp_target_free_host(p, device);
}
inline const rt::backend pinned = {"pinned", allocate_pinned, deallocate_pinned,
                                   default_device};

/// The host frame of an offloaded loop: its buffers are pinned.
template <class Spec, bool Scatter = true>
using host_frame = frame<Spec, Scatter, &pinned>;

/// RAII lease of device memory from the pool.
class device_lease : public lease {
public:
  device_lease(const site &s, std::size_t bytes, int device = default_device())
      : lease(s, bytes, &backend, device) {}
};

/// After a (synchronous) target region that began at the clock's last
/// mark: records the kernel's time and copies the written fields of Spec's
/// buffers back (dev -> host); the end of every device frame and sweep.
template <class Spec>
void copy_back(rt::phase_clock &clock, const typename Spec::soa &host,
               const typename Spec::soa &dev, std::size_t n, int device) {
  clock.mark(rt::phase::kernel);
  int init = omp_get_initial_device();
  rt::copy_runs<Spec>(
      host, dev, n, true, [&](const void *h, void *d, std::size_t bytes) {
        omp_target_memcpy(const_cast<void *>(h), d, bytes, 0, 0, init, device);
      });
  clock.mark(rt::phase::from_device);
}

/// The device side of one offloaded loop invocation: device buffers with the
/// host frame's layout (from the pool), the viewed fields copied to the
/// device on construction, the written fields copied back into the host
/// buffers on destruction -- before the host frame scatters them; adjacent
/// buffers go in one copy (rt::copy_runs).
template <class Spec> class device_frame : public rt::device_buffers<Spec> {
public:
  template <class Frame>
  device_frame(const site &s, const Frame &host, int device = default_device())
      : rt::device_buffers<Spec>(s, host, &backend, device), clock_(s) {
    int dev = this->device(), init = omp_get_initial_device();
    this->copy_to_device([&](const void *h, void *d, std::size_t bytes) {
      omp_target_memcpy(d, h, bytes, 0, 0, dev, init);
    });
    clock_.mark(rt::phase::to_device);
  }
  ~device_frame() {
    copy_back<Spec>(clock_, this->host_buffers(), this->buffers(), this->size(),
                    this->device());
  }

private:
  rt::phase_clock clock_; ///< to the device, then the kernel, then back
};

/// The copies of a view region's buffers (soaview/region.h).
inline void region_to_device(const site &, void *d, const void *h,
                             std::size_t bytes, int device) {
  omp_target_memcpy(d, h, bytes, 0, 0, device, omp_get_initial_device());
}
inline void region_to_host(const site &, void *h, const void *d,
                           std::size_t bytes, int device) {
  omp_target_memcpy(h, d, bytes, 0, 0, omp_get_initial_device(), device);
}
inline const rt::device_ops region_ops = {&backend, &pinned, region_to_device,
                                          region_to_host};

/// A sweep over cells on an OpenMP device (soaview/sweep.h): the host side
/// with pinned buffers, and one device block of the same layout, copied
/// whole to the device by start() and copied back (the written fields of
/// the local view) by the destructor, before the host side scatters.
template <class LSpec, class ISpec = void, bool Scatter = true>
class sweep : public sweep_host<LSpec, ISpec, Scatter, &pinned> {
  using base = sweep_host<LSpec, ISpec, Scatter, &pinned>;

public:
  explicit sweep(const site &s, int device = default_device())
      : base(s), device_(device), clock_(s) {}
  ~sweep() {
    if (dev_)
      copy_back<LSpec>(clock_, this->lsoa_, this->dl_, this->size(), device_);
    else if (this->in_region()) // the written fields stay on the device
      region_end();
  }

  /// After the cells are recorded: slots, index and gathers on the host,
  /// then one copy to the device. In a view region: the region's buffers
  /// and index instead.
  void start() {
    if (this->join_region(region_ops, device_, this->dl_, this->di_,
                          this->dx_)) {
      clock_ = rt::phase_clock(this->site_); // the kernel starts
      return;
    }
    this->prepare();
    clock_ = rt::phase_clock(this->site_);
    std::size_t bytes = this->layout_.bytes();
    dev_.emplace(this->site_, bytes ? bytes : kAlignment, device_);
    arena a(dev_->data());
    this->layout_.carve(a, this->dl_, this->di_, this->dx_);
    if (bytes)
      omp_target_memcpy(dev_->data(), this->host_->data(), bytes, 0, 0, device_,
                        omp_get_initial_device());
    clock_.mark(rt::phase::to_device);
  }

  int device() const noexcept { return device_; }

private:
  void region_end() {
    clock_.mark(rt::phase::kernel);
    this->region_wrote(this->dl_);
  }

  int device_;
  rt::phase_clock clock_; ///< from start(): to the device, kernel, back
  std::optional<device_lease> dev_;
};

} // namespace soaview::omp

#endif
