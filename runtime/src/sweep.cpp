//===- sweep.cpp - slots, index and runs of a sweep over cells
//-------------===//
//
// soaview/sweep.h describes what is built. Cost: one pass over the local
// lists (their slot table is rebuilt only when they changed since the last
// sweep of the site on this thread), one parallel pass over the inner lists
// that predicts each entry's slot from the previous one (a neighbour cell's
// local list is consecutive slots), looking up only where a run starts; or,
// when the inner lists hold the slots of the last sweep's runs, one
// parallel pass that checks so and keeps the runs.
//===----------------------------------------------------------------------===//
#include "soaview/sweep.h"

#include <atomic>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace soaview::rt {

namespace {
[[noreturn]] void refuse(const site &s, const char *why) {
  std::fprintf(stderr, "soaview: the sweep at %s %s\n", s.where(), why);
  throw std::logic_error(std::string("soaview: sweep refused: ") + why);
}

constexpr std::size_t kMaxSlots = std::numeric_limits<std::uint32_t>::max() - 1;

/// Offsets of ranges: off[c] = sum of n over ranges before c.
std::size_t offsets(const std::vector<sweep_range> &r,
                    std::vector<std::uint32_t> &off, const site &s) {
  off.resize(r.size() + 1);
  std::size_t total = 0;
  for (std::size_t c = 0; c < r.size(); ++c) {
    off[c] = static_cast<std::uint32_t>(total);
    total += r[c].n;
    if (total > kMaxSlots)
      refuse_sweep_size(s);
  }
  off[r.size()] = static_cast<std::uint32_t>(total);
  return total;
}

/// Whether range `r` holds, from its element `k` on, the elements of slots
/// [j, j + len): local slots (lp, n of them), then extras (ex, m).
bool holds_slots(const sweep_range &r, void *const *owned, void *const *lp,
                 std::size_t n, void *const *ex, std::size_t m, std::size_t k,
                 std::size_t j, std::size_t len) {
  if (j + len > n + m || k + len > r.n)
    return false;
  const std::size_t in_local = j < n ? std::min(len, n - j) : 0;
  return (!in_local || same_elements(r, owned, lp + j, k, in_local)) &&
         (in_local == len || same_elements(r, owned, ex + (j + in_local - n),
                                           k + in_local, len - in_local));
}

/// Whether the inner lists hold what the runs of the last sweep recorded
/// (st.runs_valid: over the same local slots): each cell's list as long as
/// it was, and its runs' slots (local ones and the extras the last sweep
/// found, in the order it found them) in order. One parallel pass.
bool same_runs(const sweep_state &st) {
  const std::size_t cells = st.inner.size(), n = st.local_elems.size(),
                    m = st.extra.size();
  if (st.inner_first.size() != cells + 1 || st.run_off.size() != cells + 1)
    return false;
  const sweep_range *ir = st.inner.data();
  void *const *owned = st.owned.data();
  void *const *lp = st.local_elems.data(), *const *ex = st.extra.data();
  const std::uint32_t *off = st.inner_first.data(), *ro = st.run_off.data(),
                      *rs = st.run_start.data(), *rl = st.run_len.data();
  int differ = 0;
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 16) reduction(| : differ)
#endif
  for (std::size_t c = 0; c < cells; ++c) {
    const sweep_range &r = ir[c];
    if (r.n != off[c + 1] - off[c]) {
      differ = 1;
      continue;
    }
    std::size_t k = 0;
    for (std::uint32_t q = ro[c]; q < ro[c + 1] && !differ; ++q) {
      differ |= !holds_slots(r, owned, lp, n, ex, m, k, rs[q], rl[q]);
      k += rl[q];
    }
    differ |= k != r.n;
  }
  return !differ;
}
} // namespace

std::uint64_t next_unique() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}

bool same_elements(const sweep_range &r, void *const *owned,
                   void *const *expect, std::size_t from, std::size_t n) {
  if (r.data && !r.stride) // a list of pointers, in place
    return !std::memcmp(
        static_cast<const void *>(static_cast<void *const *>(r.data) + from),
        static_cast<const void *>(expect), n * sizeof(void *));
  for (std::size_t k = 0; k < n; ++k)
    if (element_at(r, owned, from + k) != expect[k])
      return false;
  return true;
}

void refuse_sweep_repeat(const site &s) {
  refuse(s, "writes an element that the local lists hold more than once (in "
            "two cells, or twice in one); its cells are not independent");
}
void refuse_sweep_size(const site &s) {
  refuse(s, "holds more than 2^32 - 2 list entries");
}
void refuse_sweep_recursion(const site &s) {
  refuse(s, "was entered again while it ran on this thread");
}

void slot_table::reset(std::size_t expected) {
  std::size_t cap = 16;
  unsigned bits = 4;
  while (cap < 2 * expected + 2) {
    cap *= 2;
    ++bits;
  }
  keys_.assign(cap, nullptr);
  slots_.resize(cap);
  mask_ = cap - 1;
  shift_ = 64 - bits;
  used_ = 0;
}

std::uint32_t slot_table::insert(const void *p, std::uint32_t slot) {
  if (2 * (used_ + 1) > keys_.size()) { // grow, keeping what is there
    std::vector<const void *> k = std::move(keys_);
    std::vector<std::uint32_t> v = std::move(slots_);
    reset(used_ + 1);
    for (std::size_t i = 0; i < k.size(); ++i)
      if (k[i])
        insert(k[i], v[i]);
  }
  for (std::size_t h = hash(p);; h = (h + 1) & mask_) {
    if (keys_[h] == p)
      return slots_[h];
    if (!keys_[h]) {
      keys_[h] = p;
      slots_[h] = slot;
      ++used_;
      return slot;
    }
  }
}

void index_local(const site &s, sweep_state &st, bool writes) {
  list_local(s, st);
  table_local(s, st, writes);
}

void list_local(const site &s, sweep_state &st) {
  const std::size_t cells = st.local.size();
  const std::size_t n = offsets(st.local, st.local_first, s);
  st.local_elems.resize(n);
  st.cell_of.resize(n);
  void *const *owned = st.owned.data();
  const sweep_range *lr = st.local.data();
  void **lp = st.local_elems.data();
  std::uint32_t *cell = st.cell_of.data();
  const std::uint32_t *off = st.local_first.data();
  SOAVIEW_PARALLEL_FOR
  for (std::size_t c = 0; c < cells; ++c)
    for (std::size_t k = 0; k < lr[c].n; ++k) {
      lp[off[c] + k] = element_at(lr[c], owned, k);
      cell[off[c] + k] = static_cast<std::uint32_t>(c);
    }
}

void table_local(const site &s, sweep_state &st, bool writes) {
  const std::size_t n = st.local_elems.size();
  void *const *lp = st.local_elems.data();
  if (st.slots_valid && st.local_elems == st.last_local_elems)
    return; // the same local lists as last time: the same slots
  st.slots_valid = false;
  st.runs_valid = false; // other slots: other runs
  st.slots.reset(n);
  for (std::size_t t = 0; t < n; ++t)
    if (st.slots.insert(lp[t], static_cast<std::uint32_t>(t)) != t && writes)
      refuse_sweep_repeat(s);
  st.last_local_elems = st.local_elems;
  st.slots_valid = true;
}

namespace {

/// index_inner's first pass, parallel over cells: each entry's slot
/// (predicted as the slot after the previous entry's, else looked up among
/// the n local slots; kMissing for an element local in no cell), and per
/// cell its count of runs; `missed` marks cells with a missing entry.
void slot_entries(sweep_state &st, std::size_t n, bool shared) {
  const std::size_t cells = st.inner.size();
  void *const *owned = st.owned.data();
  void *const *lp = st.local_elems.data();
  const sweep_range *ir = st.inner.data();
  const std::uint32_t *off = st.inner_first.data();
  std::uint32_t *idx = st.inner_slot.data(), *runs = st.run_off.data();
  unsigned char *missed = st.missed.data();
  const slot_table &slots = st.slots;
  constexpr std::uint32_t kMissing = slot_table::kMissing;
  SOAVIEW_PARALLEL_FOR_DYNAMIC
  for (std::size_t c = 0; c < cells; ++c) {
    std::size_t next = n; // the slot after the previous entry's
    std::uint32_t count = 0, prev = kMissing;
    for (std::size_t k = 0; k < ir[c].n; ++k) {
      void *p = element_at(ir[c], owned, k);
      std::uint32_t j = next < n && lp[next] == p
                            ? static_cast<std::uint32_t>(next)
                            : (shared ? slots.find(p) : kMissing);
      idx[off[c] + k] = j;
      if (j == kMissing) {
        missed[c] = 1;
        next = n;
      } else {
        next = std::size_t(j) + 1;
      }
      count += (j == kMissing || prev == kMissing || j != prev + 1);
      prev = j;
    }
    runs[c] = count;
  }
}

/// Elements local in no cell (ghosts, halo particles) get slots after the n
/// local ones, in order of first appearance, from a table of their own, so
/// that the local slots' table stands for the next sweep (one thread: the
/// entries the local slots missed); their cells' runs are counted again.
void slot_extras(const site &s, sweep_state &st, std::size_t n) {
  constexpr std::uint32_t kMissing = slot_table::kMissing;
  const sweep_range *ir = st.inner.data();
  void *const *owned = st.owned.data();
  const std::uint32_t *off = st.inner_first.data();
  std::uint32_t *idx = st.inner_slot.data(), *runs = st.run_off.data();
  st.extra.clear();
  bool any = false;
  for (std::size_t c = 0; c < st.inner.size(); ++c) {
    if (!st.missed[c])
      continue;
    if (!any)
      st.extra_slots.reset(64);
    any = true;
    std::uint32_t count = 0, prev = kMissing;
    for (std::size_t k = 0; k < ir[c].n; ++k) {
      std::uint32_t &j = idx[off[c] + k];
      if (j == kMissing) {
        void *p = element_at(ir[c], owned, k);
        std::size_t slot = n + st.extra.size();
        if (slot > kMaxSlots)
          refuse_sweep_size(s);
        j = st.extra_slots.insert(p, static_cast<std::uint32_t>(slot));
        if (j == slot)
          st.extra.push_back(p);
      }
      count += (prev == kMissing || j != prev + 1);
      prev = j;
    }
    runs[c] = count;
  }
}

/// The runs per cell become the offsets of each cell's first run
/// (run_off); then, parallel over cells, each run's first slot and length.
void fill_runs(sweep_state &st) {
  const std::size_t cells = st.inner.size();
  std::uint32_t *runs = st.run_off.data();
  std::size_t total = 0;
  for (std::size_t c = 0; c < cells; ++c) {
    std::size_t r = runs[c];
    runs[c] = static_cast<std::uint32_t>(total);
    total += r;
  }
  runs[cells] = static_cast<std::uint32_t>(total);
  st.run_start.resize(total);
  st.run_len.resize(total);
  const sweep_range *ir = st.inner.data();
  const std::uint32_t *off = st.inner_first.data(), *idx = st.inner_slot.data();
  std::uint32_t *rs = st.run_start.data(), *rl = st.run_len.data();
  SOAVIEW_PARALLEL_FOR_DYNAMIC
  for (std::size_t c = 0; c < cells; ++c) {
    std::size_t r = runs[c];
    for (std::size_t k = 0; k < ir[c].n; ++k) {
      std::uint32_t j = idx[off[c] + k];
      if (k > 0 && j == idx[off[c] + k - 1] + 1) {
        ++rl[r - 1];
      } else {
        rs[r] = j;
        rl[r] = 1;
        ++r;
      }
    }
  }
}

} // namespace

std::size_t index_inner(const site &s, sweep_state &st, bool shared) {
  if (shared && st.runs_valid && same_runs(st)) {
    st.inner_base = st.local_elems.size();
    return st.local_elems.size() +
           st.extra.size(); // the same lists: the same runs
  }
  st.runs_valid = false;
  const std::size_t cells = st.inner.size();
  const std::size_t entries = offsets(st.inner, st.inner_first, s);
  const std::size_t n = shared ? st.local_elems.size() : 0;
  st.inner_base = n;
  st.inner_slot.resize(entries);
  st.missed.assign(cells, 0);
  st.run_off.resize(cells + 1);
  slot_entries(st, n, shared);
  slot_extras(s, st, n);
  fill_runs(st);
  st.runs_valid = shared;
  return n + st.extra.size();
}

} // namespace soaview::rt
