//===- soaview/cuda.h - CUDA device memory and launches for soaview -*- C++
//-*-===//
//
// The CUDA backend of the soaview runtime, included by the CUDA source that
// `soaview-translate --backend=cuda` writes (compile it with nvcc and the
// flags `soaview-config --cflags` prints).
//
// An offloaded loop invocation:
//   host_frame    gathers the view's fields into pinned host buffers;
//   device_frame  leases device buffers of the same layout from the pool
//                 (cudaMalloc, cached per site, thread and depth: after
//                 warm-up no allocation) and queues the copies to the device
//                 on the calling thread's stream;
//   launch        queues a grid-stride kernel running the loop body (a
//                 __device__ lambda) once per element, queues the copies of
//                 the written fields back, and waits for the stream once;
//   ~host_frame   scatters the written fields into the elements.
//
// Contracts: every host thread uses its own stream (cudaStreamPerThread), so
// threads launching converted loops do not serialise on one another; device
// buffers are owned by the runtime and valid while the device_frame lives;
// the thread that built a frame destroys it. Errors follow the runtime's one
// policy: a message naming the loop site on stderr, then an exception
// (std::bad_alloc when memory runs out, soaview::cuda::error for any other
// CUDA failure). One exception to it: a process that sees no CUDA device
// (no GPU, no driver) stops at its first offloaded loop with one line,
// "soaview: no CUDA device (<CUDA error>): ...", after flushing stdout, and
// exit status 1 (no abort; atexit handlers do not run, other threads may be
// mid-loop). Covered by test/Unit/cuda_pool_test.cu (run on the GPU node by
// tools/gpu/run-gpu.sh) and the translated programs of test/Offload
// (cuda-no-device.test: the exit without a GPU).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_CUDA_H
#define SOAVIEW_CUDA_H

#include "soaview/soaview.h"
#include "soaview/sweep.h"

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

/// A constant table read by device code (a kernel's coefficients) gets a
/// copy in device memory, declared after the table by the translator, with
/// the same initializer; each reference in code compiled for the device is
/// written SOAVIEW_DEVICE_TABLE(table, copy): the copy in nvcc's device
/// pass, the table as written in its host pass (docs/offload.md).
#ifdef __CUDA_ARCH__
#define SOAVIEW_DEVICE_TABLE(host, device) device
#else
#define SOAVIEW_DEVICE_TABLE(host, device) host
#endif

namespace soaview::cuda {

/// A CUDA call that failed (other than running out of memory).
class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The one error policy: message naming the site, then an exception.
[[noreturn]] inline void fail(const site &s, const char *what, cudaError_t e) {
  std::fprintf(stderr, "soaview: %s at the loop %s failed: %s\n", what,
               s.where(), cudaGetErrorString(e));
  throw error(std::string("soaview: ") + what + ": " + cudaGetErrorString(e));
}
inline void check(cudaError_t e, const site &s, const char *what) {
  if (e != cudaSuccess)
    fail(s, what, e);
}

/// Makes `device` current for its lifetime and restores the device that was
/// current before (the runtime never changes the device a thread chose).
class device_guard {
public:
  explicit device_guard(int device) noexcept {
    if (device >= 0 && cudaGetDevice(&prev_) == cudaSuccess && prev_ != device)
      switched_ = cudaSetDevice(device) == cudaSuccess;
  }
  ~device_guard() {
    if (switched_)
      cudaSetDevice(prev_);
  }
  device_guard(const device_guard &) = delete;
  device_guard &operator=(const device_guard &) = delete;

private:
  int prev_ = -1;
  bool switched_ = false;
};

/// The process sees no CUDA device: one line on stderr after what the
/// program printed, then exit status 1 (docs/cuda.md, "Without a GPU").
/// The first thread to get here ends the process; others wait for it.
[[noreturn]] inline void no_device(cudaError_t e) noexcept {
  static std::atomic<bool> ending{false};
  if (ending.exchange(true))
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  std::cout.flush(); // also when unsynchronised with stdio
  std::fflush(nullptr);
  std::fprintf(stderr,
               "soaview: no CUDA device (%s: %s): this program's offloaded "
               "loops run only on a GPU; run it where one is visible, or "
               "build it without the CUDA backend\n",
               cudaGetErrorName(e), cudaGetErrorString(e));
  std::_Exit(EXIT_FAILURE); // threads may be mid-loop: no destructors
}

/// cudaSuccess when the process sees at least one CUDA device, else why not
/// (probed once).
inline cudaError_t device_probe() noexcept {
  static const cudaError_t status = [] {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    return e == cudaSuccess && n < 1 ? cudaErrorNoDevice : e;
  }();
  return status;
}

/// The calling thread's current device, where its offloaded loops run.
/// At the thread's first use, SOAVIEW_DEVICE (when set) becomes it if the
/// thread is still on device 0, where every thread starts; without a device
/// the process ends there (no_device).
inline int current_device() noexcept {
  static thread_local bool applied = false;
  if (!applied) {
    applied = true;
    if (cudaError_t e = device_probe(); e != cudaSuccess)
      no_device(e);
    int n = 0;
    if (int d = 0; cudaGetDevice(&d) == cudaSuccess && d == 0 &&
                   cudaGetDeviceCount(&n) == cudaSuccess)
      if (int e = rt::device_from_env(n); e > 0)
        cudaSetDevice(e);
  }
  int d = 0;
  cudaGetDevice(&d);
  return d;
}

inline void *allocate(std::size_t bytes, int device) {
  device_guard on(device);
  void *p = nullptr;
  if (cudaError_t e = cudaMalloc(&p, bytes); e != cudaSuccess) {
    std::fprintf(stderr, "soaview: cudaMalloc on device %d: %s\n", device,
                 cudaGetErrorString(e));
    cudaGetLastError(); // clear the error; the pool reports it, naming the site
    return nullptr;
  }
  return p;
}
inline void deallocate(void *p, int device) noexcept {
  device_guard on(device);
  cudaFree(p);
}
inline const rt::backend backend = {"cuda", allocate, deallocate};

// Page-locked host memory: host buffers of offloaded loops live there, so
// the copies run asynchronously and at the interconnect's speed. Staging
// belongs to a device like the device buffers (pooled per current device,
// allocated with that device current); it is portable, so a copy to another
// device stays correct and pinned.
inline void *allocate_pinned(std::size_t bytes, int device) {
  device_guard on(device);
  void *p = nullptr;
  if (cudaError_t e = cudaHostAlloc(&p, bytes, cudaHostAllocPortable);
      e != cudaSuccess) {
    std::fprintf(stderr, "soaview: cudaHostAlloc: %s\n", cudaGetErrorString(e));
    cudaGetLastError();
    return nullptr;
  }
  return p;
}
inline void deallocate_pinned(void *p, int device) noexcept {
  device_guard on(device);
  cudaFreeHost(p);
}
inline const rt::backend pinned = {"cuda-pinned", allocate_pinned,
                                   deallocate_pinned, current_device};

/// The host frame of an offloaded loop: its buffers are pinned.
template <class Spec, bool Scatter = true>
using host_frame = frame<Spec, Scatter, &pinned>;

/// Blocks per grid for n elements: enough to fill every multiprocessor,
/// never more than the elements need; the kernel strides over the rest.
inline unsigned grid_for(std::size_t n, unsigned block, int device) {
  static thread_local int sms = 0, sms_device = -1;
  if (sms_device != device) {
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) !=
        cudaSuccess)
      sms = 1;
    sms_device = device;
  }
  std::size_t need = (n + block - 1) / block, cap = std::size_t(sms) * 32;
  return unsigned(need < cap ? need : cap);
}

inline constexpr unsigned kBlock = 256;

/// The kernel of every offloaded loop: a grid-stride loop calling the loop
/// body (a __device__ lambda over the device buffers) once per element.
template <class Body>
__global__ void __launch_bounds__(kBlock) for_each(std::size_t n, Body body) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
       i < n; i += std::size_t(blockDim.x) * gridDim.x)
    body(i);
}

/// Runs body(i) for i in [0, n) in one kernel on the thread's stream, copies
/// the written fields of Spec's buffers back (dev -> host) and waits for the
/// stream once: the end of every device frame and sweep.
template <class Spec, class Body>
void launch_and_copy_back(const site &s, int device, std::size_t n,
                          const typename Spec::soa &host,
                          const typename Spec::soa &dev, const Body &body) {
  rt::phase_clock clock(s);
  if (n) {
    for_each<<<grid_for(n, kBlock, device), kBlock, 0, cudaStreamPerThread>>>(
        n, body);
    check(cudaGetLastError(), s, "kernel launch");
  }
  if (clock.on()) { // profiling times each phase on its own
    check(cudaStreamSynchronize(cudaStreamPerThread), s, "kernel");
    clock.mark(rt::phase::kernel);
  }
  cudaError_t e = cudaSuccess;
  rt::copy_runs<Spec>(
      host, dev, n, true, [&](const void *h, void *d, std::size_t bytes) {
        if (e == cudaSuccess)
          e = cudaMemcpyAsync(const_cast<void *>(h), d, bytes,
                              cudaMemcpyDeviceToHost, cudaStreamPerThread);
      });
  check(e, s, "copy from the device");
  check(cudaStreamSynchronize(cudaStreamPerThread), s, "kernel");
  clock.mark(rt::phase::from_device);
}

/// The device side of one offloaded loop invocation (or of the hoisted
/// inner view of an offloaded nest): device buffers with the host frame's
/// layout, from the pool; the viewed fields are copied to the device on the
/// thread's stream, adjacent buffers in one copy (rt::copy_runs). launch()
/// runs the kernel and brings the written fields back before the host frame
/// scatters them.
template <class Spec> class device_frame : public rt::device_buffers<Spec> {
public:
  template <class Frame>
  device_frame(const site &s, const Frame &host, int device = current_device())
      : rt::device_buffers<Spec>(s, host, &backend, device), site_(s),
        device_(device) {
    rt::phase_clock clock(s);
    cudaError_t e = cudaSuccess;
    this->copy_to_device([&](const void *h, void *d, std::size_t bytes) {
      if (e == cudaSuccess)
        e = cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice,
                            cudaStreamPerThread);
    });
    if (e != cudaSuccess)
      fail(s, "copy to the device", e);
    if (clock.on()) { // profiling times each phase on its own
      cudaStreamSynchronize(cudaStreamPerThread);
      clock.mark(rt::phase::to_device);
    }
  }

  /// Runs body(i) for i in [0, size()) on the device, copies the written
  /// fields back and waits for the thread's stream: the one wait of the
  /// invocation.
  template <class Body> void launch(const Body &body) {
    launch_and_copy_back<Spec>(site_, device_, this->size(),
                               this->host_buffers(), this->buffers(), body);
  }

private:
  const site &site_;
  int device_;
};

/// The stream of a view region's copies on this thread: the thread's own,
/// which its kernels use, or (inside soaview::sync, region_begin) its
/// second stream on the device.
inline thread_local cudaStream_t tl_region_copies = cudaStreamPerThread;

/// The copies of a view region's buffers (soaview/region.h): queued on the
/// region's copy stream; the region waits once after a batch (region_wait),
/// before it reads what came back or gathers into the host buffers again.
inline void region_to_device(const site &s, void *d, const void *h,
                             std::size_t bytes, int) {
  check(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, tl_region_copies),
        s, "copy to the device");
}
inline void region_to_host(const site &s, void *h, const void *d,
                           std::size_t bytes, int) {
  check(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, tl_region_copies),
        s, "copy from the device");
}
inline void region_wait(const site &s, int) {
  check(cudaStreamSynchronize(tl_region_copies), s, "kernel");
}

// soaview::sync beside the region's sweeps (rt::overlap_ops): a mark is an
// event recorded on the thread's stream after a sweep's kernel; the sync's
// copies run on a second stream of the thread (one per device, never
// destroyed: threads keep them until the process ends), which waits for
// the mark of the last sweep whose slots the copies touch. Events are
// reused (the thread's free list per device).
inline std::vector<cudaEvent_t> &free_marks(int device) {
  static thread_local std::vector<std::vector<cudaEvent_t>> marks;
  if (marks.size() <= std::size_t(device))
    marks.resize(device + 1);
  return marks[device];
}
inline void *region_mark(const site &s, int device) {
  device_guard on(device);
  std::vector<cudaEvent_t> &free = free_marks(device);
  cudaEvent_t e = nullptr;
  if (free.empty()) {
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), s, "event");
  } else {
    e = free.back();
    free.pop_back();
  }
  check(cudaEventRecord(e, cudaStreamPerThread), s, "event");
  return e;
}
inline void region_release(void *mark, int device) {
  free_marks(device).push_back(static_cast<cudaEvent_t>(mark));
}
inline void region_begin(const site &s, int device, void *after) {
  static thread_local std::vector<cudaStream_t> side;
  device_guard on(device);
  if (side.size() <= std::size_t(device))
    side.resize(device + 1, nullptr);
  if (!side[device])
    check(cudaStreamCreateWithFlags(&side[device], cudaStreamNonBlocking), s,
          "stream");
  if (after)
    check(cudaStreamWaitEvent(side[device], static_cast<cudaEvent_t>(after), 0),
          s, "event");
  tl_region_copies = side[device];
}
inline void region_end(int) { tl_region_copies = cudaStreamPerThread; }
inline const rt::overlap_ops region_overlap = {region_mark, region_release,
                                               region_begin, region_end};
inline const rt::device_ops region_ops = {&backend,         &pinned,
                                          region_to_device, region_to_host,
                                          region_wait,      &region_overlap};

/// A sweep over cells on the GPU (soaview/sweep.h): the host side with
/// pinned buffers, one device block of the same layout copied whole by
/// start(), and launch() running the local loop's body once per local slot
/// in one kernel, then copying the written fields back (the host side
/// scatters them when the sweep ends).
template <class LSpec, class ISpec = void, bool Scatter = true>
class sweep : public sweep_host<LSpec, ISpec, Scatter, &pinned> {
  using base = sweep_host<LSpec, ISpec, Scatter, &pinned>;

public:
  explicit sweep(const site &s, int device = current_device())
      : base(s), device_(device) {}

  /// After the cells are recorded: slots, index and gathers on the host,
  /// then one copy to the device on the thread's stream.
  /// In a view region: the region's buffers and index instead.
  void start() {
    if (this->join_region(region_ops, device_, this->dl_, this->di_, this->dx_,
                          true))
      return;
    this->prepare();
    rt::phase_clock clock(this->site_);
    std::size_t bytes = this->layout_.bytes();
    dev_.emplace(this->site_, bytes ? bytes : kAlignment, &backend, device_);
    arena a(dev_->data());
    this->layout_.carve(a, this->dl_, this->di_, this->dx_);
    if (bytes)
      check(cudaMemcpyAsync(dev_->data(), this->host_->data(), bytes,
                            cudaMemcpyHostToDevice, cudaStreamPerThread),
            this->site_, "copy to the device");
    if (clock.on()) {
      check(cudaStreamSynchronize(cudaStreamPerThread), this->site_,
            "copy to the device");
      clock.mark(rt::phase::to_device);
    }
  }

  /// Runs body(i) for every local slot i in one kernel, copies the written
  /// fields back and waits for the thread's stream.
  /// In a view region: only the kernel (the region copies back at its end).
  template <class Body> void launch(const Body &body) {
    if (!this->in_region())
      return launch_and_copy_back<LSpec>(this->site_, device_, this->size(),
                                         this->lsoa_, this->dl_, body);
    rt::phase_clock clock(this->site_);
    if (this->size()) {
      for_each<<<grid_for(this->size(), kBlock, device_), kBlock, 0,
                 cudaStreamPerThread>>>(this->size(), body);
      check(cudaGetLastError(), this->site_, "kernel launch");
    }
    if (clock.on()) { // profiling times the kernel and the check apart
      check(cudaStreamSynchronize(cudaStreamPerThread), this->site_, "kernel");
      clock.mark(rt::phase::kernel);
      rt::region_verify();
      clock.mark(rt::phase::index);
    } else {
      rt::region_launched();
      rt::region_verify(); // the lists, checked while the kernel runs
    }
    this->region_wrote(this->dl_);
  }

private:
  int device_;
  std::optional<lease> dev_;
};

} // namespace soaview::cuda

#endif
