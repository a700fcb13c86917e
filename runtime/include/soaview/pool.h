//===- soaview/pool.h - sites, leases and the buffer pool -------*- C++ -*-===//
//
// The memory of views: a site per annotated loop, buffers leased per (site,
// thread, nesting depth) from a pool that keeps them for the next call.
//
// Contracts (docs/runtime.md):
//  * Alignment: buffers handed out by a lease are aligned to
//    soaview::kAlignment (64 B); an arena carves them into arrays that keep
//    that alignment.
//  * Ownership: the runtime owns every buffer; it stays valid until the
//    lease is destroyed, and is reused by the next lease of the same site,
//    thread and depth.
//  * Thread safety: no lock on the hot path (buffers are per thread); site
//    registration and the statistics are thread-safe; recursion of one loop
//    on one thread gets a fresh buffer per depth.
//  * Errors: one policy for the whole runtime: a message naming the loop
//    site on stderr, then an exception (std::bad_alloc for memory,
//    std::logic_error for refused uses, soaview::cuda::error for CUDA).
//
// Implemented in runtime/src/pool.cpp; tested by test/Unit/pool_test.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_POOL_H
#define SOAVIEW_POOL_H

#include <cstddef>
#include <cstdint>

// What generated views run on a CUDA device (the CUDA backend) is marked
// host-device; in every other compile the mark is empty.
#if defined(__CUDACC__)
#define SOAVIEW_HD __host__ __device__
#else
#define SOAVIEW_HD
#endif

namespace soaview {

inline constexpr std::size_t kAlignment = 64;

/// A static loop site: one per annotated loop (and element type). Constructed
/// as a function-local static by generated code; registration is thread-safe.
class site {
public:
  explicit site(const char *where) noexcept;
  const char *where() const noexcept { return where_; }
  unsigned id() const noexcept { return id_; }

private:
  const char *where_;
  unsigned id_;
};

namespace rt {
/// The one seam between the pool and a kind of memory. `allocate` returns
/// null on failure and memory aligned to kAlignment; `deallocate` frees what
/// `allocate` returned, given the same device. Host memory is built in;
/// device memory backends live in the headers offload code includes
/// (soaview/omp.h, soaview/cuda.h).
///
/// Devices (docs/runtime.md, "Several devices"): every buffer belongs to the
/// device it was leased for, and the pool keys its caches by (backend,
/// device), so no buffer is handed to another device. A backend of memory
/// that belongs to a device without being on it (pinned host staging) names
/// `current_device`: a lease of it for device -1 is then for the calling
/// thread's current device.
struct backend {
  const char *name;
  void *(*allocate)(std::size_t bytes, int device);
  void (*deallocate)(void *p, int device) noexcept;
  int (*current_device)() noexcept = nullptr;
};

/// The device SOAVIEW_DEVICE names among `devices` (docs/runtime.md,
/// "Several devices"): a number, or `local` for the process's rank on its
/// node (Open MPI, MPICH or Slurm) modulo `devices`; -1 when unset. A value
/// it cannot use is reported once on stderr and ignored.
int device_from_env(int devices) noexcept;

/// The device a lease of `mem` for `device` belongs to (see backend).
inline int device_for(const backend *mem, int device) noexcept {
  return mem && device < 0 && mem->current_device ? mem->current_device()
                                                  : device;
}

/// Returns a buffer of at least `bytes` bytes for (site, calling thread,
/// current depth) and enters one nesting level. Throws std::bad_alloc.
void *acquire(const site &s, std::size_t bytes);
/// Leaves the nesting level entered by the matching acquire().
void release(const site &s) noexcept;
/// The same for memory of backend `b` on `device`: cached per (backend,
/// device, site, thread, depth); after warm-up a site allocates nothing.
void *acquire_on(const backend &b, int device, const site &s,
                 std::size_t bytes);
void release_on(const backend &b, int device, const site &s) noexcept;
/// Frees every cached buffer of the calling thread that is not in use.
void trim() noexcept;

/// Time spent per phase of a view, recorded when SOAVIEW_STATS=2 (printed
/// at exit, per site) or after set_profiling(true). `index`: a sweep's
/// lists (the slots of their elements, the runs, and in a view region the
/// check that they hold the elements they held before).
enum class phase : unsigned {
  gather,
  to_device,
  kernel,
  from_device,
  scatter,
  index,
};
inline constexpr std::size_t phase_count = 6;
static_assert(static_cast<unsigned>(phase::index) + 1 == phase_count);
/// Nanoseconds per phase.
struct phase_times {
  std::uint64_t ns[phase_count] = {};
  std::uint64_t operator[](phase p) const noexcept {
    return ns[static_cast<unsigned>(p)];
  }
};
/// SOAVIEW_STATS is set (not 0): statistics are printed at exit.
bool stats_wanted() noexcept;
bool profiling() noexcept;
/// Turns phase recording on or off at run time (benchmarks); thread-safe.
void set_profiling(bool on) noexcept;
/// Nanoseconds recorded per phase, summed over all sites and threads, since
/// the start or the last reset_phases().
phase_times phase_totals() noexcept;
void reset_phases() noexcept;
void record(const site &s, phase p, std::uint64_t ns) noexcept;
std::uint64_t now_ns() noexcept;

/// The one timer of the phases of a site: started when profiling is on
/// (otherwise it reads no clock and records nothing), each mark() records
/// the time since the last mark (or the start) as one phase and starts the
/// next. A phase that did not happen is marked with `happened` false: its
/// time is skipped, not recorded.
class phase_clock {
public:
  explicit phase_clock(const site &s) noexcept
      : site_(&s), last_(profiling() ? now_ns() : 0) {}
  void mark(phase p, bool happened = true) noexcept {
    if (!last_)
      return;
    const std::uint64_t t = now_ns();
    if (happened)
      record(*site_, p, t - last_);
    last_ = t;
  }
  /// Whether it times (profiling was on at its start).
  bool on() const noexcept { return last_ != 0; }
  /// When the last phase ended (0: off); for a phase that ends elsewhere.
  std::uint64_t last() const noexcept { return last_; }

private:
  const site *site_;
  std::uint64_t last_;
};

/// Calls, cache hits and misses (allocations) of one site on the calling
/// thread, for tests and benchmarks.
struct pool_counters {
  struct counts {
    std::size_t calls = 0, hits = 0, misses = 0;
  } host, device;
};
pool_counters counters(const site &s) noexcept;

/// Finds repeated addresses among ptrs[0..n). Returns nullptr when all are
/// distinct; otherwise fills remap (n entries) with the index of each
/// address's first occurrence and returns remap. `scratch` must hold
/// scratch_bytes(n) bytes.
const std::size_t *find_duplicates(const void *const *ptrs, std::size_t n,
                                   std::size_t *remap, void *scratch);
std::size_t scratch_bytes(std::size_t n) noexcept;
} // namespace rt

/// RAII form of rt::acquire / rt::release: host memory, or memory of the
/// backend `mem` on `device` (pinned host memory for offloaded loops, -1:
/// the thread's current device; device memory of the offload backends).
/// Every buffer the runtime hands out, host or device, is held by a lease.
class lease {
public:
  lease(const site &s, std::size_t bytes, const rt::backend *mem = nullptr,
        int device = -1)
      : site_(s), mem_(mem), device_(rt::device_for(mem, device)),
        data_(mem ? rt::acquire_on(*mem, device_, s, bytes)
                  : rt::acquire(s, bytes)) {}
  ~lease() {
    if (mem_)
      rt::release_on(*mem_, device_, site_);
    else
      rt::release(site_);
  }
  lease(const lease &) = delete;
  lease &operator=(const lease &) = delete;
  void *data() const noexcept { return data_; }
  int device() const noexcept { return device_; }

private:
  const site &site_;
  const rt::backend *mem_;
  int device_;
  void *data_;
};

/// Carves aligned arrays out of one leased block.
class arena {
public:
  explicit arena(void *base) noexcept : cur_(static_cast<char *>(base)) {}
  template <class T> T *take(std::size_t n) noexcept {
    T *p = reinterpret_cast<T *>(cur_);
    cur_ += round_up(sizeof(T) * n);
    return p;
  }
  void *take_bytes(std::size_t bytes) noexcept {
    void *p = cur_;
    cur_ += round_up(bytes);
    return p;
  }
  static constexpr std::size_t round_up(std::size_t b) noexcept {
    return (b + kAlignment - 1) / kAlignment * kAlignment;
  }

private:
  char *cur_;
};

} // namespace soaview

#endif // SOAVIEW_POOL_H
