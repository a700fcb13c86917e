//===- pool.cpp - host buffer pool of the soaview runtime -------------------===//
//
// Buffers are cached per (site, thread, nesting depth). The hot path touches
// only thread_local state: no lock, no atomic read-modify-write. A block grows
// (never shrinks) until trim() or thread exit.
//
// Environment:
//   SOAVIEW_STATS=1        print per-site statistics at exit (stderr)
//   SOAVIEW_MAX_BYTES=N    refuse a single lease larger than N bytes
//
// Covered by test/Unit/pool_test.cpp.
//===----------------------------------------------------------------------===//
#include "soaview/soaview.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
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

// Registry of sites: names for messages and statistics. Written once per site
// (at its static initialisation), read at exit.
struct Registry {
  std::mutex mu;
  std::vector<const char *> names;
  std::vector<SiteStats> totals; // merged from exited threads
};

Registry &registry() {
  static Registry *r = new Registry; // leaked: used from thread/exit dtors
  return *r;
}

std::atomic<unsigned> next_site_id{0};

std::size_t env_size(const char *name) {
  const char *v = std::getenv(name);
  return v ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) : 0;
}
const std::size_t max_bytes = env_size("SOAVIEW_MAX_BYTES");
const bool want_stats = env_size("SOAVIEW_STATS") != 0;

void merge_stats(std::vector<SiteCache> &sites) {
  if (!want_stats)
    return;
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  if (r.totals.size() < sites.size())
    r.totals.resize(sites.size());
  for (std::size_t i = 0; i < sites.size(); ++i) {
    SiteStats &t = r.totals[i];
    const SiteStats &s = sites[i].stats;
    t.calls += s.calls;
    t.hits += s.hits;
    t.misses += s.misses;
    if (s.peak_bytes > t.peak_bytes)
      t.peak_bytes = s.peak_bytes;
  }
}

struct ThreadCache {
  std::vector<SiteCache> sites;
  ~ThreadCache() {
    merge_stats(sites);
    for (SiteCache &s : sites)
      for (Block &b : s.depth_blocks)
        std::free(b.data);
  }
};

thread_local ThreadCache tls;

[[noreturn]] void fail(const site &s, std::size_t bytes, const char *why) {
  std::fprintf(stderr,
               "soaview: cannot provide %zu bytes for the view of the loop at "
               "%s: %s\n",
               bytes, s.where(), why);
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
    std::fprintf(stderr, "soaview: %-40s %10s %10s %10s %14s\n", "site",
                 "calls", "hits", "misses", "peak bytes");
    for (std::size_t i = 0; i < r.totals.size() && i < r.names.size(); ++i) {
      const SiteStats &t = r.totals[i];
      std::fprintf(stderr, "soaview: %-40s %10zu %10zu %10zu %14zu\n",
                   r.names[i], t.calls, t.hits, t.misses, t.peak_bytes);
    }
  }
} stats_printer;

} // namespace

site::site(const char *where) noexcept : where_(where) {
  id_ = next_site_id.fetch_add(1, std::memory_order_relaxed);
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  if (r.names.size() <= id_)
    r.names.resize(id_ + 1, "?");
  r.names[id_] = where;
}

namespace rt {

void *acquire(const site &s, std::size_t bytes) {
  if (max_bytes && bytes > max_bytes)
    fail(s, bytes, "larger than SOAVIEW_MAX_BYTES");
  if (tls.sites.size() <= s.id())
    tls.sites.resize(s.id() + 1);
  SiteCache &c = tls.sites[s.id()];
  if (c.depth_blocks.size() <= c.depth)
    c.depth_blocks.resize(c.depth + 1);
  Block &b = c.depth_blocks[c.depth];
  ++c.stats.calls;
  if (b.capacity < bytes || !b.data) {
    ++c.stats.misses;
    std::size_t cap = bytes + bytes / 2;
    cap = arena::round_up(cap ? cap : kAlignment);
    void *p = std::aligned_alloc(kAlignment, cap);
    if (!p)
      fail(s, bytes, "out of memory");
    std::free(b.data);
    b.data = p;
    b.capacity = cap;
  } else {
    ++c.stats.hits;
  }
  if (bytes > c.stats.peak_bytes)
    c.stats.peak_bytes = bytes;
  ++c.depth;
  return b.data;
}

void release(const site &s) noexcept { --tls.sites[s.id()].depth; }

void trim() noexcept {
  for (SiteCache &c : tls.sites)
    for (std::size_t d = c.depth; d < c.depth_blocks.size(); ++d) {
      std::free(c.depth_blocks[d].data);
      c.depth_blocks[d] = Block{};
    }
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

} // namespace rt
} // namespace soaview
