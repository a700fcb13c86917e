//===- soaview/heap.h - malloc and free in offloaded code -----*- C++ -*-===//
//
// One heap, allocated once from the host, from which code running on the
// device (CUDA kernels, OpenMP target regions, or host threads when
// offloading to the host) allocates and frees without a global lock.
//
// Layout (docs/runtime.md, "Device heap"): the heap is cut into slabs of
// 256 KiB. A slab serves one size class (16 B to 64 KiB, powers of two) and
// keeps a bitmap of its blocks and a count of blocks in use, outside the
// blocks themselves: user data never aliases the allocator's state, so a
// thread delayed at any point cannot corrupt it. Requests above 64 KiB take
// runs of whole slabs. Following [Vinkler2015] (docs/references.md:
// several allocation offsets, one per SM, instead of one), each thread
// starts from the slab its lane (a hash of its warp, team or thread) last
// used, and from a word of the bitmap chosen by its own index: threads
// rarely touch the same word. Large classes spread over more lanes
// (lanes_of). Where prim::warp_groups() holds (CUDA devices, sm_80 and later)
// the threads of a warp allocating or freeing at once act as one group
// (allocate_group, free_group): one reservation per slab, one atomic per
// bitmap word.
//
//   allocate:  reserve a block in a slab of the class (one atomic add on the
//              slab's count; on a full slab, undo and move on), then claim a
//              free bit of its bitmap (atomic or). A reservation guarantees
//              that a free bit exists, so the claim always ends.
//   free:      clear the bit (atomic and, release), then give the
//              reservation back.
//
// Contracts:
//  * Alignment: a block of class c is aligned to its size (16 B at least);
//    slab runs to 256 KiB. aligned_allocate serves any power-of-two
//    alignment up to 256 KiB.
//  * Ownership: blocks belong to the caller until freed; the heap and all
//    blocks die with device_heap::release (host side).
//  * Thread safety: every operation may run concurrently on any number of
//    threads; there is no lock.
//  * Errors: running out returns nullptr, never traps; the heap records the
//    failure (count and request sizes), which the host reports after the
//    launch with the loop's site (soaview::heap_report). Freeing a pointer
//    the heap did not return is undefined, as with free().
//  * Fragmentation: a slab serves one size class while any of its blocks
//    is in use; when its last block is freed it returns to the free slabs
//    (its count is closed first, so that no reservation slips in), as slab
//    runs do; for classes up to 128 B, a lane's current slab stays open.
//
// Platform primitives (atomics and their memory orders, thread hashes, bit
// counts, warp operations) live in soaview/heap_prim.h with their contracts,
// called here as prim::NAME. This file holds the layout and the algorithm,
// the same on every platform but for one choice: prim::warp_groups() selects
// the warp-group path (allocate_in, free_in). Compiled for CUDA devices
// (nvcc), OpenMP offload devices (clang), and the host. Tested by
// test/Unit/heap_test.cpp (host threads, ThreadSanitizer) and
// test/Unit/cuda_heap_test.cu; benchmark: tools/heap-bench (CUDA).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_HEAP_H
#define SOAVIEW_HEAP_H

#include "soaview/heap_prim.h"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace soaview::heap {

inline constexpr unsigned kSlabShift = 18; // 256 KiB slabs
inline constexpr std::size_t kSlabBytes = std::size_t(1) << kSlabShift;
inline constexpr unsigned kMinShift = 4; // 16 B, the smallest block
inline constexpr unsigned kClasses = 13; // 16 B .. 64 KiB
inline constexpr unsigned kLanes = 256;  // allocation offsets ([Vinkler2015])
/// Lanes of the largest classes: a slab of 8 KiB blocks holds one warp's
/// requests, so large classes spread over more lanes (lanes_of).
inline constexpr unsigned kMaxLanes = 8192;
/// The last small class (128 B; a slab holds 2,048 blocks or more). Small
/// classes share the base lanes and keep a lane's emptied current slab
/// open; larger ones spread over more lanes and give emptied slabs back.
inline constexpr unsigned kLastSmall = 3;
inline constexpr unsigned kWordsPerSlab = (kSlabBytes >> kMinShift) / 32;
inline constexpr std::uint32_t kFree = 0;
inline constexpr std::uint32_t kRunHead = 0x40000000u; // | slab count
inline constexpr std::uint32_t kRunPart = 0x20000000u;
/// The count of a slab that is free (no reservation can succeed): a byte
/// pattern, so that a heap is set up by one memset.
inline constexpr std::uint32_t kClosed = 0x80808080u;

/// The heap's state, at the start of its device allocation; the slab states,
/// counts and bitmaps follow it, then (slab aligned) the slabs.
struct state {
  unsigned long long data;     ///< device address of slab 0
  std::uint32_t slabs;         ///< number of slabs
  std::uint32_t lanes;         ///< lanes of the small classes: one per 32 slabs
  std::uint32_t max_lanes;     ///< lanes of the largest: one per 8 slabs
  unsigned long long failures; ///< allocations that returned null
  unsigned long long fail_bytes_max; ///< the largest failed request
  std::uint32_t *slab_state; ///< kFree, class + 1, kRunHead | n, kRunPart
  std::uint32_t *slab_used;  ///< blocks reserved in the slab
  std::uint32_t *bitmap;     ///< kWordsPerSlab words per slab
  std::uint32_t
      *hint; ///< per class, max_lanes words: last slab used + 1 (0: none)
};

inline constexpr std::uint32_t lanes_for(std::size_t slabs) {
  return (std::uint32_t)(slabs / 32 < 1        ? 1
                         : slabs / 32 > kLanes ? kLanes
                                               : slabs / 32);
}
inline constexpr std::uint32_t max_lanes_for(std::size_t slabs) {
  return (std::uint32_t)(slabs / 8 < lanes_for(slabs) ? lanes_for(slabs)
                         : slabs / 8 > kMaxLanes      ? kMaxLanes
                                                      : slabs / 8);
}
/// Bytes of state for a heap of `slabs` slabs (what precedes the slabs).
inline constexpr std::size_t state_bytes(std::size_t slabs) {
  return (((sizeof(state) + 63) / 64 * 64 + slabs * 4 * (2 + kWordsPerSlab) +
           std::size_t(4) * kClasses * max_lanes_for(slabs)) +
          kSlabBytes - 1) /
         kSlabBytes * kSlabBytes;
}

/// Records a failed request of `bytes` bytes (count, largest request).
SOAVIEW_HEAP_FN void count_failure(state *h, std::size_t bytes) {
  prim::add_relaxed(&h->failures, 1ull);
  prim::max_relaxed(&h->fail_bytes_max, (unsigned long long)bytes);
}

/// Size class of a request (kClasses for slab runs).
SOAVIEW_HEAP_FN unsigned class_of(std::size_t bytes) {
  unsigned c = 0;
  while (c < kClasses && (std::size_t(1) << (kMinShift + c)) < bytes)
    ++c;
  return c;
}
SOAVIEW_HEAP_FN std::uint32_t blocks_per_slab(unsigned c) {
  return (std::uint32_t)(kSlabBytes >> (kMinShift + c));
}
/// The lanes class c spreads over: the small classes' (a slab holds many
/// warps' blocks), doubling per class from 256 B (1,024 blocks or fewer).
SOAVIEW_HEAP_FN std::uint32_t lanes_of(const state *h, unsigned c) {
  std::uint32_t n = c > kLastSmall ? h->lanes << (c - kLastSmall) : h->lanes;
  return n < h->max_lanes ? n : h->max_lanes;
}
/// The hint of class c for the calling thread's lane, l (prim::lane() modulo
/// lanes_of): the last slab the lane took blocks of the class from.
SOAVIEW_HEAP_FN std::uint32_t *hint_of(const state *h, unsigned c,
                                       std::uint32_t l) {
  return h->hint + (std::size_t)c * h->max_lanes + l;
}
/// The slab a hint names (slabs or more when none), and naming one.
SOAVIEW_HEAP_FN std::uint32_t hinted(const std::uint32_t *hint) {
  return prim::load(hint) - 1;
}
SOAVIEW_HEAP_FN void set_hint(std::uint32_t *hint, std::uint32_t s) {
  prim::store(hint, s + 1);
}
/// The calling thread's lane among those of class c.
SOAVIEW_HEAP_FN std::uint32_t lane_of(const state *h, unsigned c) {
  return prim::lane() % lanes_of(h, c);
}
/// Where lane l of class c starts looking for a slab.
SOAVIEW_HEAP_FN std::uint32_t lane_start(const state *h, unsigned c,
                                         std::uint32_t l) {
  return (std::uint32_t)((unsigned long long)l * h->slabs / lanes_of(h, c));
}

/// The address of block b of class c in slab s.
SOAVIEW_HEAP_FN void *block_at(const state *h, std::uint32_t s, unsigned c,
                               std::size_t b) {
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the heap's addresses are numbers
  return (void *)(std::uintptr_t)(h->data + ((std::size_t)s << kSlabShift) +
                                  (b << (kMinShift + c)));
}

/// Claims a free bit of slab s, of which the caller holds a reservation.
SOAVIEW_HEAP_FN void *claim(state *h, std::uint32_t s, unsigned c) {
  const std::uint32_t n = blocks_per_slab(c);
  const std::uint32_t words = n >= 32 ? n / 32 : 1;
  const std::uint32_t valid = n >= 32 ? 0xffffffffu : (1u << n) - 1;
  std::uint32_t *bm = h->bitmap + (std::size_t)s * kWordsPerSlab;
  const unsigned hash = prim::thread_hash();
  std::uint32_t w = (hash >> 8) % words;
  const unsigned k = hash >> 27;
  for (;;) {
    std::uint32_t free = ~prim::load(&bm[w]) & valid;
    if (!free) {
      w = w + 1 == words ? 0 : w + 1;
      continue;
    }
    // The first free bit from a position of the thread's own: threads of
    // a warp claiming in one word pick different bits.
    std::uint32_t rot = k ? (free >> k) | (free << (32 - k)) : free;
    std::uint32_t b = (prim::ctz32(rot) + k) & 31, bit = 1u << b;
    if (!(prim::fetch_or(&bm[w], bit) & bit)) {
      return block_at(h, s, c, (std::size_t)w * 32 + b);
    }
  }
}

/// Reserves up to `want` blocks in slab s of class c; returns how many (0
/// when the slab is full or not of the class).
SOAVIEW_HEAP_FN std::uint32_t reserve(state *h, std::uint32_t s, unsigned c,
                                      std::uint32_t want) {
  // Once the add succeeds the slab cannot be closed (closing needs a count
  // of zero): its class, checked after the add, stays what it is now. An
  // add to a closed slab or one of another class is given back. The count
  // may pass the capacity for a moment: whoever adds then finds it full and
  // gives back, so reservations never exceed it.
  const std::uint32_t cap = blocks_per_slab(c);
  const std::uint32_t old = prim::fetch_add(&h->slab_used[s], want);
  if (old < cap && prim::load(&h->slab_state[s]) == c + 1) {
    const std::uint32_t got = cap - old < want ? cap - old : want;
    if (got < want)
      prim::fetch_sub(&h->slab_used[s], want - got);
    return got;
  }
  prim::fetch_sub(&h->slab_used[s], want);
  return 0;
}

/// Slab s, when it is of class c with room or free (then made one of class
/// c), with up to `want` blocks reserved there (`got`). A thread that loses
/// the race for a free slab joins the winner's class when it is its own
/// (threads of a warp would otherwise take one slab each).
SOAVIEW_HEAP_FN bool try_slab(state *h, std::uint32_t s, unsigned c,
                              std::uint32_t want, std::uint32_t &got) {
  std::uint32_t slab_word = prim::load(&h->slab_state[s]);
  if (slab_word == kFree) {
    slab_word = prim::cas(&h->slab_state[s], kFree, c + 1);
    if (slab_word == kFree) { // taken: open its count
      prim::fetch_sub(&h->slab_used[s], kClosed);
      slab_word = c + 1;
    }
  }
  return slab_word == c + 1 &&
         prim::load(&h->slab_used[s]) < blocks_per_slab(c) &&
         (got = reserve(h, s, c, want)) != 0;
}

inline constexpr std::uint32_t kNear = 8, kProbes = 8;
/// A slab for class c with up to `want` blocks reserved (`got`); slabs if
/// none. First the kNear slabs from `from` (a lane's slabs of a class lie
/// together), then kProbes slabs spread over the heap (a linear scan alone
/// would pile lanes whose slabs are taken onto their neighbours' slabs,
/// as in linear probing), then every slab once.
SOAVIEW_HEAP_FN std::uint32_t find_slab(state *h, unsigned c,
                                        std::uint32_t from, std::uint32_t want,
                                        std::uint32_t &got) {
  const std::uint32_t n = h->slabs;
  auto at = [&](std::uint32_t i) {
    return from + i < n ? from + i : from + i - n;
  };
  for (std::uint32_t i = 0; i < kNear && i < n; ++i)
    if (try_slab(h, at(i), c, want, got))
      return at(i);
  std::uint32_t x = prim::thread_hash() ^ (from * 0x9e3779b9u);
  for (std::uint32_t k = 0; k < kProbes; ++k) {
    x = x * 1664525u + 1013904223u;
    const std::uint32_t s = (std::uint32_t)(((unsigned long long)x * n) >> 32);
    if (try_slab(h, s, c, want, got))
      return s;
  }
  for (std::uint32_t i = kNear; i < n; ++i)
    if (try_slab(h, at(i), c, want, got))
      return at(i);
  return n;
}

/// A run of k free slabs, claimed; slabs if none.
SOAVIEW_HEAP_FN std::uint32_t take_run(state *h, std::uint32_t k,
                                       std::uint32_t from) {
  const std::uint32_t n = h->slabs;
  if (k == 0 || k > n)
    return n;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t s = (from + i) % n;
    if (s + k > n)
      continue;
    std::uint32_t got = 0;
    while (got < k && prim::cas(&h->slab_state[s + got], kFree,
                                got ? kRunPart : kRunHead | k) == kFree)
      ++got;
    if (got == k)
      return s;
    while (got > 0) // give back what was taken
      prim::store(&h->slab_state[s + --got], kFree);
  }
  return n;
}

/// A request above the largest class: a run of whole slabs.
SOAVIEW_HEAP_FN void *allocate_run(state *h, std::size_t bytes) {
  std::size_t k = (bytes + kSlabBytes - 1) >> kSlabShift;
  std::uint32_t s = take_run(h, (std::uint32_t)(k > h->slabs ? 0 : k),
                             lane_start(h, kClasses, lane_of(h, kClasses)));
  if (s < h->slabs)
    return block_at(h, s, 0, 0);
  count_failure(h, bytes);
  return nullptr;
}

/// One thread's block of class c, from its lane's slab or the next with room.
SOAVIEW_HEAP_FN void *allocate_one(state *h, unsigned c, std::size_t bytes) {
  const std::uint32_t l = lane_of(h, c);
  std::uint32_t *hint = hint_of(h, c, l);
  std::uint32_t s = hinted(hint), got = 0;
  if (s >= h->slabs || !reserve(h, s, c, 1)) {
    s = find_slab(h, c, s < h->slabs ? s : lane_start(h, c, l), 1, got);
    if (s >= h->slabs) {
      count_failure(h, bytes);
      return nullptr;
    }
    set_hint(hint, s);
  }
  return claim(h, s, c);
}

/// Gives slab s back to the free slabs when `k` blocks freed by the caller
/// were its last, unless a reservation came in first (then the count is no
/// longer zero), or the class is small and s is the slab the caller's lane
/// allocates it from (kept open: allocate-free cycles would close and reopen
/// it each time; large classes, spread over many lanes, would hold a slab
/// per lane).
SOAVIEW_HEAP_FN void release_blocks(state *h, std::uint32_t s, unsigned c,
                                    std::uint32_t k) {
  if (prim::fetch_sub(&h->slab_used[s], k) == k &&
      (c > kLastSmall || hinted(hint_of(h, c, lane_of(h, c))) != s) &&
      prim::cas(&h->slab_used[s], 0, kClosed) == 0)
    prim::store(&h->slab_state[s], kFree);
}

//--- Warp groups (where prim::warp_groups(): CUDA, sm_80 and later) -------
// The threads of a warp that allocate (or free) at the same time act as one:
// those asking for the same class make one reservation and claim their bits
// with one atomic or per bitmap word; those freeing in the same slab clear
// each word once and give their reservations back with one subtraction.
// [Vinkler2015]'s tests show why: a warp's 32 requests otherwise meet on one
// slab's count and, for large blocks, on one bitmap word. Compiled on every
// platform, called only where prim::warp_groups() holds (allocate_in,
// free_in); elsewhere the warp primitives are declared, not defined.
/// The lowest n set bits of m.
SOAVIEW_HEAP_FN std::uint32_t lowest_bits(std::uint32_t m, std::uint32_t n) {
  std::uint32_t r = 0;
  for (; n > 0 && m; --n, m &= m - 1)
    r |= m & (~m + 1);
  return r;
}
/// The position of the n-th (from 0) set bit of m.
SOAVIEW_HEAP_FN unsigned nth_bit(std::uint32_t m, unsigned n) {
  for (; n > 0; --n)
    m &= m - 1;
  return prim::ctz32(m);
}

/// Claims `got` free bits of slab s, of which the group holds `got`
/// reservations, and returns the block of the thread whose index in this
/// round is `index` (the index-th bit claimed). The group's threads look at
/// as many bitmap words at once, from `w`; the first whose word has free
/// bits claims what is still needed there with one atomic or.
SOAVIEW_HEAP_FN void *claim_group(state *h, std::uint32_t s, unsigned c,
                                  std::uint32_t got, unsigned group,
                                  unsigned rank, unsigned index,
                                  std::uint32_t w) {
  const std::uint32_t n = blocks_per_slab(c);
  const std::uint32_t words = n >= 32 ? n / 32 : 1;
  const std::uint32_t valid = n >= 32 ? 0xffffffffu : (1u << n) - 1;
  const std::uint32_t span =
      prim::popcount(group) < words ? prim::popcount(group) : words;
  std::uint32_t *bm = h->bitmap + (std::size_t)s * kWordsPerSlab;
  void *mine = nullptr;
  for (std::uint32_t done = 0, at = w % words; done < got;) {
    const std::uint32_t look = (at + rank) % words;
    const std::uint32_t free = rank < span ? ~prim::load(&bm[look]) & valid : 0;
    const unsigned found = prim::ballot(group, free != 0);
    if (!found) {
      at = (at + span) % words;
      continue;
    }
    const unsigned claimant = prim::ctz32(found);
    std::uint32_t taken = 0;
    if (prim::warp_lane_id() == claimant) {
      const std::uint32_t want = lowest_bits(free, got - done);
      taken = want & ~prim::fetch_or(&bm[look], want);
    }
    taken = prim::shuffle(group, taken, claimant);
    at = prim::shuffle(group, look, claimant); // it may have bits left
    const unsigned k = prim::popcount(taken);
    if (index >= done && index < done + k)
      mine = block_at(h, s, c,
                      (std::size_t)at * 32 + nth_bit(taken, index - done));
    done += k;
  }
  return mine;
}

/// The calling warp's threads of class c take one block each: one
/// reservation per slab for all of them.
SOAVIEW_HEAP_FN void *allocate_group(state *h, unsigned c, std::size_t bytes) {
  const unsigned group = prim::match_any(prim::active_mask(), c);
  const unsigned me = prim::warp_lane_id(), leader = prim::ctz32(group);
  const unsigned rank = prim::popcount(group & ((1u << me) - 1)),
                 size = prim::popcount(group);
  const std::uint32_t l = prim::shuffle(group, lane_of(h, c), leader);
  const std::uint32_t word =
      prim::shuffle(group, prim::thread_hash() >> 8, leader);
  std::uint32_t *hint = hint_of(h, c, l);
  void *mine = nullptr;
  for (std::uint32_t base = 0; base < size;) {
    std::uint32_t s = 0, got = 0;
    if (me == leader) {
      s = hinted(hint);
      got = s < h->slabs ? reserve(h, s, c, size - base) : 0;
      if (!got) {
        s = find_slab(h, c, s < h->slabs ? s : lane_start(h, c, l), size - base,
                      got);
        if (s < h->slabs)
          set_hint(hint, s);
      }
    }
    s = prim::shuffle(group, s, leader);
    got = prim::shuffle(group, got, leader);
    if (s >= h->slabs)
      break; // out of memory: the group's threads without a block fail
    void *p = claim_group(h, s, c, got, group, rank, rank - base, word);
    if (rank >= base && rank < base + got)
      mine = p;
    base += got;
  }
  if (!mine)
    count_failure(h, bytes);
  return mine;
}

/// The calling warp's threads freeing blocks of slabs (not runs): one
/// clear per bitmap word, one subtraction per slab.
SOAVIEW_HEAP_FN void free_group(state *h, std::uint32_t s, unsigned c,
                                std::size_t block) {
  const unsigned active = prim::active_mask(), me = prim::warp_lane_id();
  std::uint32_t *word = &h->bitmap[(std::size_t)s * kWordsPerSlab + block / 32];
  const unsigned same_word = prim::match_any(active, (unsigned long long)word);
  const std::uint32_t bits = prim::reduce_or(same_word, 1u << (block % 32));
  prim::sync_group(
      same_word); // each thread's writes to its block before the clear
  if (me == prim::ctz32(same_word))
    prim::clear_release(word, bits);
  const unsigned same_slab = prim::match_any(active, s);
  prim::sync_group(
      same_slab); // every bit of the slab cleared before its count drops
  if (me == prim::ctz32(same_slab)) {
    prim::fence();
    release_blocks(h, s, c, prim::popcount(same_slab));
  }
}

SOAVIEW_HEAP_FN void *allocate_in(state *h, std::size_t bytes) {
  if (!h)
    return nullptr;
  const unsigned c = class_of(bytes == 0 ? 1 : bytes);
  if (c == kClasses)
    return allocate_run(h, bytes);
  if constexpr (prim::warp_groups())
    return allocate_group(h, c, bytes);
  else
    return allocate_one(h, c, bytes);
}

SOAVIEW_HEAP_FN void free_in(state *h, void *p) {
  if (!p || !h)
    return;
  std::size_t off = (std::size_t)((std::uintptr_t)p - h->data);
  std::uint32_t s = (std::uint32_t)(off >> kSlabShift);
  std::uint32_t slab_word = prim::load(&h->slab_state[s]);
  if (slab_word & kRunHead) {
    for (std::uint32_t k = slab_word & ~kRunHead; k > 1; --k)
      prim::store(&h->slab_state[s + k - 1], kFree);
    prim::store(&h->slab_state[s], kFree);
    return;
  }
  const unsigned c = slab_word - 1;
  const std::size_t block = (off & (kSlabBytes - 1)) >> (kMinShift + c);
  if constexpr (prim::warp_groups()) {
    free_group(h, s, c, block);
  } else {
    prim::clear_release(&h->bitmap[(std::size_t)s * kWordsPerSlab + block / 32],
                        1u << (block % 32));
    release_blocks(h, s, c, 1);
  }
}

/// A block of `bytes` aligned to `align` (a power of two up to 256 KiB).
SOAVIEW_HEAP_FN void *aligned_allocate_in(state *h, std::size_t align,
                                          std::size_t bytes) {
  if (align > kSlabBytes || (align & (align - 1))) {
    if (h)
      count_failure(h, bytes);
    return nullptr;
  }
  return allocate_in(h, bytes < align ? align : bytes);
}

/// The usable size of a block the heap returned.
SOAVIEW_HEAP_FN std::size_t usable_size_in(const state *h, const void *p) {
  std::size_t off = (std::size_t)((std::uintptr_t)p - h->data);
  std::uint32_t slab_word = h->slab_state[off >> kSlabShift];
  if (slab_word & kRunHead)
    return (std::size_t)(slab_word & ~kRunHead) << kSlabShift;
  return std::size_t(1) << (kMinShift + slab_word - 1);
}

//--- Host side ------------------------------------------------------------
/// Where a heap of `bytes` bytes at device address `base` puts its state:
/// `heap_state` is to be copied to the returned address after the `zero` bytes
/// from it are cleared and closed_counts(heap_state) filled with 0x80 bytes
/// (slab states and bitmaps start zero, every slab free with a closed count).
/// Returns 0 when `bytes` holds no slab.
inline unsigned long long plan(unsigned long long base, std::size_t bytes,
                               state &heap_state, std::size_t &zero) {
  const unsigned long long at =
      (base + kSlabBytes - 1) / kSlabBytes * kSlabBytes;
  if (base + bytes < at + 2 * kSlabBytes)
    return 0;
  const std::size_t usable = (std::size_t)(base + bytes - at);
  std::size_t slabs = usable / kSlabBytes;
  while (slabs > 0 && state_bytes(slabs) + slabs * kSlabBytes > usable)
    --slabs;
  if (slabs == 0)
    return 0;
  heap_state = state{};
  heap_state.slabs = (std::uint32_t)slabs;
  heap_state.lanes = lanes_for(slabs);
  heap_state.max_lanes = max_lanes_for(slabs);
  heap_state.data = at + state_bytes(slabs);
  const unsigned long long meta = at + (sizeof(state) + 63) / 64 * 64;
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the heap's addresses are numbers
  heap_state.slab_state = (std::uint32_t *)(std::uintptr_t)meta;
  heap_state.slab_used = heap_state.slab_state + slabs;
  heap_state.bitmap = heap_state.slab_used + slabs;
  heap_state.hint =
      heap_state.bitmap + slabs * kWordsPerSlab; // zero: no slab yet
  zero = state_bytes(slabs);
  return at;
}

/// The counts of a planned heap, to be filled with bytes 0x80 (kClosed)
/// after the zeroing: where they start and how many bytes.
inline std::pair<unsigned long long, std::size_t>
closed_counts(const state &heap_state) {
  return {(unsigned long long)(std::uintptr_t)heap_state.slab_used,
          4 * (std::size_t)heap_state.slabs};
}

/// Heap size from SOAVIEW_DEVICE_HEAP (bytes, or with a K, M or G suffix),
/// else `fallback`.
std::size_t configured_bytes(std::size_t fallback);
/// The size of heaps created from now on: set_bytes()'s, else
/// SOAVIEW_DEVICE_HEAP's, else kDefaultBytes. Thread-safe.
inline constexpr std::size_t kDefaultBytes = std::size_t(64) << 20;
std::size_t bytes();
void set_bytes(std::size_t n);
} // namespace soaview::heap
namespace soaview {
class site;
}
namespace soaview::heap {
/// Prints, when a heap's state (copied back after a launch) records failed
/// allocations, how many failed and the largest request, naming the loop;
/// returns whether it did. Implemented in runtime/src/heap.cpp.
bool report(const site &s, const state &snapshot, std::size_t heap_bytes);
/// For a heap's owner, after allocating `mem` (`bytes` bytes; null when the
/// device had none): plan() over it. When there is no memory, or it holds no
/// slab (then release(mem, device) first), prints the runtime's message and
/// throws std::bad_alloc. Implemented in runtime/src/heap.cpp.
unsigned long long plan_owned(void *mem, std::size_t bytes, state &heap_state,
                              std::size_t &zero, void (*release)(void *, int),
                              int device);

} // namespace soaview::heap

#endif
