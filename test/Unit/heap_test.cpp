//===- heap_test.cpp - the device heap's allocator, run on host threads ---===//
//
// The allocator of soaview/heap.h is the same code on a GPU, an OpenMP
// device and the host: here on host threads (also under ThreadSanitizer in
// CI). Classes, alignment, reuse after free, slab runs, running out (null
// and the failure record), the size setting, and a stress run of threads
// allocating, writing, checking and freeing blocks of random sizes.
//===----------------------------------------------------------------------===//
#include "soaview/heap.h"
#include "soaview/pool.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "check.h"

namespace hp = soaview::heap;

/// A heap of `bytes` in host memory.
struct host_heap {
  explicit host_heap(std::size_t bytes) : mem(std::malloc(bytes)) {
    hp::state st;
    std::size_t zero = 0;
    auto at =
        hp::plan((unsigned long long)(std::uintptr_t)mem, bytes, st, zero);
    CHECK(at != 0);
    std::memset((void *)(std::uintptr_t)at, 0, zero);
    auto [counts, count_bytes] = hp::closed_counts(st);
    std::memset((void *)(std::uintptr_t)counts, 0x80, count_bytes);
    h = (hp::state *)(std::uintptr_t)at;
    *h = st;
  }
  ~host_heap() { std::free(mem); }
  void *mem;
  hp::state *h;
};

static void classes_and_alignment() {
  host_heap H(8 << 20);
  std::set<void *> seen;
  for (std::size_t n : {1, 16, 17, 100, 4096, 8192, 65536}) {
    void *p = hp::allocate_in(H.h, n);
    CHECK(p != nullptr);
    std::size_t u = hp::usable_size_in(H.h, p);
    CHECK(u >= n && u < 2 * n + 16);
    CHECK((std::uintptr_t)p % (u < 16 ? 16 : u) == 0); // aligned to its size
    CHECK(seen.insert(p).second);
    std::memset(p, 0xab, n);
  }
  void *a = hp::aligned_allocate_in(H.h, 4096, 24);
  CHECK(a && (std::uintptr_t)a % 4096 == 0);
  CHECK(hp::aligned_allocate_in(H.h, 3, 24) == nullptr); // not a power of two
  for (void *p : seen)
    hp::free_in(H.h, p);
  hp::free_in(H.h, a);
  hp::free_in(H.h, nullptr);
}

static void reuse_after_free() {
  host_heap H(4 << 20);
  void *p = hp::allocate_in(H.h, 64);
  hp::free_in(H.h, p);
  void *q = hp::allocate_in(H.h, 64); // same thread, same lane and word
  CHECK(q == p);
  hp::free_in(H.h, q);
}

static void runs_and_running_out() {
  host_heap H(4 << 20); // about 14 slabs of 256 KiB after its state
  const std::uint32_t slabs = H.h->slabs;
  CHECK(slabs >= 8);
  void *big = hp::allocate_in(H.h, 3 * hp::kSlabBytes + 1); // a run of 4
  CHECK(big && (std::uintptr_t)big % hp::kSlabBytes == 0);
  CHECK(hp::usable_size_in(H.h, big) == 4 * hp::kSlabBytes);
  CHECK(hp::allocate_in(H.h, (std::size_t)slabs * hp::kSlabBytes) == nullptr);
  CHECK(H.h->failures == 1 && H.h->fail_bytes_max == slabs * hp::kSlabBytes);
  hp::free_in(H.h, big);
  // Every slab, then one block more: null, recorded; after a free it fits.
  std::vector<void *> all;
  for (void *p; (p = hp::allocate_in(H.h, 65536));)
    all.push_back(p);
  CHECK(all.size() == (std::size_t)slabs * 4);
  CHECK(hp::allocate_in(H.h, 16) == nullptr); // no slab left for 16 B
  CHECK(H.h->failures == 3);
  hp::free_in(H.h, all.back());
  all.pop_back();
  void *again = hp::allocate_in(H.h, 65536);
  CHECK(again != nullptr);
  all.push_back(again);
  for (void *p : all)
    hp::free_in(H.h, p);
  soaview::site s("heap_test:report");
  CHECK(hp::report(s, *H.h, 4 << 20)); // prints the failure record
}

static void empty_slabs_change_class() {
  host_heap H(4 << 20);
  std::vector<void *> small;
  for (void *p; (p = hp::allocate_in(H.h, 16));) // every slab to 16 B
    small.push_back(p);
  CHECK(hp::allocate_in(H.h, 4096) == nullptr);
  for (void *p : small)
    hp::free_in(H.h, p);
  void *big = hp::allocate_in(H.h, 4096); // the emptied slabs are free again
  CHECK(big != nullptr);
  hp::free_in(H.h, big);
}

static void size_setting() {
  setenv("SOAVIEW_DEVICE_HEAP", "64M", 1);
  CHECK(hp::configured_bytes(1) == (64u << 20));
  setenv("SOAVIEW_DEVICE_HEAP", "123", 1);
  CHECK(hp::configured_bytes(1) == 123);
  setenv("SOAVIEW_DEVICE_HEAP", "12Q", 1);
  bool threw = false;
  try {
    hp::configured_bytes(1);
  } catch (const std::invalid_argument &) {
    threw = true;
  }
  CHECK(threw);
  unsetenv("SOAVIEW_DEVICE_HEAP");
  CHECK(hp::configured_bytes(7) == 7);
  CHECK(hp::bytes() == hp::kDefaultBytes);
  hp::set_bytes(1 << 30);
  CHECK(hp::bytes() == (1u << 30));
  hp::set_bytes(0); // back to the environment's or the default
}

/// Threads allocate blocks of random sizes, fill them with their own tag,
/// check them later and free them in random order.
static void stress() {
  host_heap H(64 << 20);
  const int threads = 8, rounds = 20000;
  std::vector<std::thread> ts;
  std::vector<int> bad(threads, 0);
  for (int t = 0; t < threads; ++t)
    ts.emplace_back([&, t] {
      std::mt19937 rng(1234 + t);
      std::vector<std::pair<unsigned char *, std::size_t>> live;
      for (int r = 0; r < rounds; ++r) {
        if (live.empty() || rng() % 3 != 0) {
          std::size_t n = std::size_t(1) << (rng() % 14);
          n += rng() % n;
          auto *p = (unsigned char *)hp::allocate_in(H.h, n);
          if (!p)
            continue;
          std::memset(p, t + 1, n);
          live.push_back({p, n});
        } else {
          std::size_t i = rng() % live.size();
          auto [p, n] = live[i];
          for (std::size_t k = 0; k < n; ++k)
            bad[t] += p[k] != t + 1;
          hp::free_in(H.h, p);
          live[i] = live.back();
          live.pop_back();
        }
      }
      for (auto [p, n] : live)
        hp::free_in(H.h, p);
    });
  for (auto &t : ts)
    t.join();
  for (int t = 0; t < threads; ++t)
    CHECK(bad[t] == 0);
  // Everything came back: each slab is free, or empty and kept open as a
  // lane's current slab of its class, a small one.
  for (std::uint32_t s = 0; s < H.h->slabs; ++s) {
    std::uint32_t st = H.h->slab_state[s];
    if (st == hp::kFree) {
      CHECK(H.h->slab_used[s] == hp::kClosed);
      continue;
    }
    CHECK(st >= 1 && st <= hp::kLastSmall + 1 && H.h->slab_used[s] == 0);
    bool current = false;
    for (std::uint32_t l = 0;
         st <= hp::kClasses && l < hp::lanes_of(H.h, st - 1); ++l)
      current |= hp::hinted(hp::hint_of(H.h, st - 1, l)) == s;
    CHECK(current);
  }
}

int main() {
  classes_and_alignment();
  reuse_after_free();
  runs_and_running_out();
  empty_slabs_change_class();
  size_setting();
  stress();
  return checksDone("heap_test");
}
