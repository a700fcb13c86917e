//===- pool.cpp - buffer pools of the soaview runtime
//-----------------------===//
//
// Buffers are cached per (memory backend, device, site, thread, nesting
// depth). The hot path touches only thread_local state: no lock, no atomic
// read-modify-write. A block grows (never shrinks) until trim() or thread
// exit, so after warm-up a loop site allocates nothing. Host memory is one
// backend; device memory (OpenMP target memory, CUDA) are others, defined in
// the headers offload code includes (soaview/omp.h), all behind rt::backend.
//
// Environment:
//   SOAVIEW_STATS=1        print per-site statistics at exit (stderr)
//   SOAVIEW_MAX_BYTES=N    refuse a single lease larger than N bytes
//   SOAVIEW_DEVICE=N|local the device each thread's offloaded loops start on
//
// Covered by test/Unit/pool_test.cpp and test/Unit/omp_pool_test.cpp.
//===----------------------------------------------------------------------===//
#include "soaview/soaview.h"

#include "options.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <vector>

namespace soaview {
namespace {

struct Block {
  void *data = nullptr;
  std::size_t capacity = 0;
};

struct SiteStats {
  std::size_t calls = 0, hits = 0, misses = 0, peak_bytes = 0;
};

struct SiteCache {
  std::vector<Block> depth_blocks; // index = nesting depth
  unsigned depth = 0;
  SiteStats stats;
};

/// The caches of one (backend, device) on one thread.
struct Pool {
  const rt::backend *b;
  int device;
  std::vector<SiteCache> sites;
};

// Registry of sites (names for messages and statistics, written once per
// site) and of the statistics of exited threads.
struct Registry {
  std::mutex mu;
  std::vector<const char *> names;
  struct Totals {
    const rt::backend *b;
    int device;
    std::vector<SiteStats> sites;
  };
  std::vector<Totals> totals;
};

Registry &registry() {
  static Registry *r = new Registry; // leaked: used from thread/exit dtors
  return *r;
}

std::atomic<unsigned> next_site_id{0};

const std::size_t max_bytes = rt::option_number(rt::option::max_bytes);
const bool want_stats = rt::option_number(rt::option::stats) != 0;
std::atomic<bool> want_profile{rt::option_number(rt::option::stats) >= 2};
const bool print_profile = want_profile.load();
// Benchmark baseline only: give every buffer back at release, so each call
// allocates again (what soaview's pool exists to avoid).
const bool no_pool = rt::option_number(rt::option::no_pool) != 0;

// Phase times per site (SOAVIEW_STATS=2): summed with relaxed atomics; only
// touched when profiling.
constexpr unsigned kMaxProfiledSites = 1024;
std::atomic<std::uint64_t> phase_ns[kMaxProfiledSites][rt::phase_count];
std::atomic<std::uint64_t> phase_calls[kMaxProfiledSites][rt::phase_count];
std::atomic<std::uint64_t> phase_max[kMaxProfiledSites][rt::phase_count];

void *host_allocate(std::size_t bytes, int) {
  return std::aligned_alloc(kAlignment, arena::round_up(bytes));
}
void host_deallocate(void *p, int) noexcept { std::free(p); }
const rt::backend host_backend = {"host", host_allocate, host_deallocate};

void merge_stats(const Pool &p) {
  if (!want_stats)
    return;
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  Registry::Totals *t = nullptr;
  for (auto &x : r.totals)
    if (x.b == p.b && x.device == p.device)
      t = &x;
  if (!t) {
    r.totals.push_back({p.b, p.device, {}});
    t = &r.totals.back();
  }
  if (t->sites.size() < p.sites.size())
    t->sites.resize(p.sites.size());
  for (std::size_t i = 0; i < p.sites.size(); ++i) {
    SiteStats &a = t->sites[i];
    const SiteStats &s = p.sites[i].stats;
    a.calls += s.calls;
    a.hits += s.hits;
    a.misses += s.misses;
    if (s.peak_bytes > a.peak_bytes)
      a.peak_bytes = s.peak_bytes;
  }
}

// Set by an atexit handler: from then on threads that end (OpenMP workers
// joined by the OpenMP runtime's own shutdown, after every atexit handler)
// leave device and pinned buffers to the process exit instead of calling
// into an offload runtime that may be gone.
std::atomic<bool> process_exiting{false};
void mark_exiting() { process_exiting.store(true); }
const int exit_hook = std::atexit(mark_exiting);

struct ThreadCache {
  std::vector<Pool> pools; // a few entries: host, and one per device used
  Pool &pool(const rt::backend &b, int device) {
    for (Pool &p : pools)
      if (p.b == &b && p.device == device)
        return p;
    pools.push_back({&b, device, {}});
    return pools.back();
  }
  ~ThreadCache() {
    for (Pool &p : pools) {
      merge_stats(p);
      for (SiteCache &s : p.sites)
        for (Block &blk : s.depth_blocks)
          if (blk.data && (p.b == &host_backend || !process_exiting.load()))
            p.b->deallocate(blk.data, p.device);
    }
  }
};

thread_local ThreadCache tls;

[[noreturn]] void fail(const site &s, const rt::backend &b, std::size_t bytes,
                       const char *why) {
  std::fprintf(stderr,
               "soaview: cannot provide %zu bytes of %s memory for the view of "
               "the loop at %s: %s\n",
               bytes, b.name, s.where(), why);
  throw std::bad_alloc();
}

struct StatsPrinter {
  ~StatsPrinter() {
    if (!want_stats)
      return;
    // Thread-local caches (the main thread's included) merged themselves when
    // their threads ended, which precedes static destruction.
    Registry &r = registry();
    std::lock_guard<std::mutex> g(r.mu);
    std::fprintf(stderr, "soaview: %-32s %-8s %10s %10s %10s %14s\n", "site",
                 "memory", "calls", "hits", "misses", "peak bytes");
    for (const auto &t : r.totals)
      for (std::size_t i = 0; i < t.sites.size() && i < r.names.size(); ++i) {
        const SiteStats &s = t.sites[i];
        if (!s.calls)
          continue;
        char mem[32];
        std::snprintf(mem, sizeof mem,
                      t.device >= 0 && t.b != &host_backend ? "%s:%d" : "%s",
                      t.b->name, t.device);
        std::fprintf(stderr, "soaview: %-32s %-8s %10zu %10zu %10zu %14zu\n",
                     r.names[i], mem, s.calls, s.hits, s.misses, s.peak_bytes);
      }
    if (!print_profile)
      return;
    static const char *names[] = {"gather",      "to-device", "kernel",
                                  "from-device", "scatter",   "index"};
    static_assert(sizeof names / sizeof *names == rt::phase_count);
    std::fprintf(stderr, "soaview: %-32s %-12s %10s %14s %14s\n", "site",
                 "phase", "calls", "mean us", "max us");
    for (std::size_t i = 0; i < r.names.size() && i < kMaxProfiledSites; ++i)
      for (std::size_t p = 0; p < rt::phase_count; ++p) {
        std::uint64_t c = phase_calls[i][p].load(), ns = phase_ns[i][p].load();
        if (c)
          std::fprintf(stderr, "soaview: %-32s %-12s %10llu %14.1f %14.1f\n",
                       r.names[i], names[p], (unsigned long long)c,
                       ns / 1e3 / c, phase_max[i][p].load() / 1e3);
      }
  }
} stats_printer;

} // namespace

namespace rt {
void index_past_bound(const site &s) noexcept {
  std::fprintf(stderr,
               "soaview: the index loop at %s starts past its bound: as "
               "written it would run until its index wraps around\n",
               s.where());
  std::abort();
}
} // namespace rt

site::site(const char *where) noexcept : where_(where) {
  id_ = next_site_id.fetch_add(1, std::memory_order_relaxed);
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  if (r.names.size() <= id_)
    r.names.resize(id_ + 1, "?");
  r.names[id_] = where;
}

namespace rt {

void *acquire_on(const backend &b, int device, const site &s,
                 std::size_t bytes) {
  if (max_bytes && bytes > max_bytes)
    fail(s, b, bytes, "larger than SOAVIEW_MAX_BYTES");
  Pool &p = tls.pool(b, device);
  if (p.sites.size() <= s.id())
    p.sites.resize(s.id() + 1);
  SiteCache &c = p.sites[s.id()];
  if (c.depth_blocks.size() <= c.depth)
    c.depth_blocks.resize(c.depth + 1);
  Block &blk = c.depth_blocks[c.depth];
  ++c.stats.calls;
  if (blk.capacity < bytes || !blk.data) {
    ++c.stats.misses;
    std::size_t cap = arena::round_up(bytes ? bytes + bytes / 2 : kAlignment);
    void *mem = b.allocate(cap, device);
    if (!mem)
      fail(s, b, bytes, "out of memory");
    if (blk.data)
      b.deallocate(blk.data, device);
    blk.data = mem;
    blk.capacity = cap;
  } else {
    ++c.stats.hits;
  }
  if (bytes > c.stats.peak_bytes)
    c.stats.peak_bytes = bytes;
  ++c.depth;
  return blk.data;
}

void release_on(const backend &b, int device, const site &s) noexcept {
  SiteCache &c = tls.pool(b, device).sites[s.id()];
  --c.depth;
  if (no_pool) {
    Block &blk = c.depth_blocks[c.depth];
    if (blk.data)
      b.deallocate(blk.data, device);
    blk = Block{};
  }
}

namespace {
int parse_device(const char *v, int devices, const char *&why) {
  if (devices <= 0)
    return why = "no device", -1;
  if (!std::strcmp(v, "local")) {
    long r = launcher_local_rank();
    return r < 0 ? (why = "no local rank set by the launcher", -1)
                 : static_cast<int>(r % devices);
  }
  char *end = nullptr;
  long d = std::strtol(v, &end, 10);
  if (end == v || *end || d < 0)
    return why = "not a device number or 'local'", -1;
  if (d >= devices)
    return why = "no such device", -1;
  return static_cast<int>(d);
}
} // namespace

int device_from_env(int devices) noexcept {
  const char *v = option_text(option::device);
  if (!v)
    return -1;
  const char *why = nullptr;
  int d = parse_device(v, devices, why);
  static std::atomic<bool> reported{false};
  if (d < 0 && !reported.exchange(true))
    std::fprintf(stderr,
                 "soaview: SOAVIEW_DEVICE=%s ignored: %s (%d devices)\n", v,
                 why, devices);
  return d;
}

bool stats_wanted() noexcept { return want_stats; }

bool profiling() noexcept {
  return want_profile.load(std::memory_order_relaxed);
}

void set_profiling(bool on) noexcept {
  want_profile.store(on, std::memory_order_relaxed);
}

phase_times phase_totals() noexcept {
  phase_times t;
  for (std::size_t p = 0; p < phase_count; ++p)
    for (unsigned i = 0; i < kMaxProfiledSites; ++i)
      t.ns[p] += phase_ns[i][p].load(std::memory_order_relaxed);
  return t;
}

void reset_phases() noexcept {
  for (unsigned i = 0; i < kMaxProfiledSites; ++i)
    for (std::size_t p = 0; p < phase_count; ++p) {
      phase_ns[i][p].store(0, std::memory_order_relaxed);
      phase_calls[i][p].store(0, std::memory_order_relaxed);
      phase_max[i][p].store(0, std::memory_order_relaxed);
    }
}

void record(const site &s, phase p, std::uint64_t ns) noexcept {
  if (s.id() >= kMaxProfiledSites)
    return;
  const auto k = static_cast<unsigned>(p);
  phase_ns[s.id()][k].fetch_add(ns, std::memory_order_relaxed);
  phase_calls[s.id()][k].fetch_add(1, std::memory_order_relaxed);
  std::atomic<std::uint64_t> &max = phase_max[s.id()][k];
  for (std::uint64_t m = max.load(std::memory_order_relaxed);
       m < ns && !max.compare_exchange_weak(m, ns, std::memory_order_relaxed);)
    ; // the longest call: a first run's build stands out from the mean
}

std::uint64_t now_ns() noexcept {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

void *acquire(const site &s, std::size_t bytes) {
  return acquire_on(host_backend, -1, s, bytes);
}

void release(const site &s) noexcept { release_on(host_backend, -1, s); }

void trim() noexcept {
  for (Pool &p : tls.pools)
    for (SiteCache &c : p.sites)
      for (std::size_t d = c.depth; d < c.depth_blocks.size(); ++d) {
        if (c.depth_blocks[d].data)
          p.b->deallocate(c.depth_blocks[d].data, p.device);
        c.depth_blocks[d] = Block{};
      }
}

pool_counters counters(const site &s) noexcept {
  pool_counters r;
  for (const Pool &p : tls.pools)
    if (s.id() < p.sites.size()) {
      const SiteStats &stats = p.sites[s.id()].stats;
      auto &dst = p.b == &host_backend ? r.host : r.device;
      dst.calls += stats.calls;
      dst.hits += stats.hits;
      dst.misses += stats.misses;
    }
  return r;
}

std::size_t scratch_bytes(std::size_t n) noexcept {
  std::size_t cap = 16;
  while (cap < 2 * n)
    cap *= 2;
  return cap * sizeof(std::size_t);
}

const std::size_t *find_duplicates(const void *const *ptrs, std::size_t n,
                                   std::size_t *remap, void *scratch) {
  // Fast path: strictly increasing addresses (contiguous storage, sorted
  // pointer lists) are distinct.
  std::size_t i = 1;
  while (i < n && reinterpret_cast<std::uintptr_t>(ptrs[i - 1]) <
                      reinterpret_cast<std::uintptr_t>(ptrs[i]))
    ++i;
  if (i >= n)
    return nullptr;

  // Open addressing over indices; slot value 0 = empty, else index + 1.
  std::size_t cap = scratch_bytes(n) / sizeof(std::size_t);
  auto *table = static_cast<std::size_t *>(scratch);
  std::memset(table, 0, cap * sizeof(std::size_t));
  bool any = false;
  for (std::size_t k = 0; k < n; ++k) {
    auto key = reinterpret_cast<std::uintptr_t>(ptrs[k]);
    std::size_t h = (key >> 4) * 0x9E3779B97F4A7C15ull;
    std::size_t slot = (h ^ (h >> 29)) & (cap - 1);
    for (;;) {
      std::size_t v = table[slot];
      if (v == 0) {
        table[slot] = k + 1;
        remap[k] = k;
        break;
      }
      if (ptrs[v - 1] == ptrs[k]) {
        remap[k] = v - 1;
        any = true;
        break;
      }
      slot = (slot + 1) & (cap - 1);
    }
  }
  return any ? remap : nullptr;
}

void refuse_repeats_on_device(const site &s) {
  std::fprintf(stderr,
               "soaview: the offloaded loop at %s writes an element that "
               "its container holds more than once; its iterations are "
               "not independent\n",
               s.where());
  throw std::logic_error("soaview: repeated element in offloaded loop");
}

} // namespace rt
} // namespace soaview
