//===- region_lists.cpp - a view region's check of its sweeps' lists ------===//
//
// See region_lists.h. The cost per sweep run in a region: one parallel pass
// over its lists (against the region's slots and the site's index).
//===----------------------------------------------------------------------===//
#include "region_lists.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace soaview::rt {

/// Records what the index `st` of ranges `local` and `inner` was built from
/// into `b` (see built_lists): O(ranges + runs), nothing per element.
void record_lists(const sweep_state &st, inner_runs runs,
                  const std::vector<void *> &slots, std::size_t first,
                  built_lists &b) {
  const std::vector<sweep_range> &local = st.local, &inner = st.inner;
  const std::size_t nl = local.size(), ni = inner.size();
  std::unordered_map<const void *, std::uint32_t> storage(2 * nl);
  for (std::size_t c = 0; c < nl; ++c)
    if (local[c].data)
      storage.emplace(local[c].data, static_cast<std::uint32_t>(c));
  b.count.resize(nl + ni);
  b.mirror.assign(ni, built_lists::kOwn);
  b.at.resize(nl);
  std::size_t n = first;
  for (std::size_t c = 0; c < nl; ++c) {
    b.count[c] = static_cast<std::uint32_t>(local[c].n);
    b.at[c] = n;
    n += local[c].n;
  }
  for (std::size_t c = 0; c < ni; ++c) {
    const sweep_range &r = inner[c];
    b.count[nl + c] = static_cast<std::uint32_t>(r.n);
    if (!r.data)
      continue;
    auto it = storage.find(r.data);
    if (it != storage.end() && local[it->second].n == r.n &&
        local[it->second].stride == r.stride)
      b.mirror[c] = it->second;
  }
  b.run_off = std::move(runs.off);
  b.run_start = std::move(runs.start);
  b.run_len = std::move(runs.len);
  b.slots = &slots;
}

void record_places(const sweep_state &st, std::size_t outside, list_places &p) {
  p.ranges.assign(st.local.begin(), st.local.end());
  p.ranges.insert(p.ranges.end(), st.inner.begin(), st.inner.end());
  p.outside = outside;
  p.known = std::all_of(p.ranges.begin(), p.ranges.end(),
                        [](const sweep_range &r) { return r.data; });
  p.found.assign(1, st.recording);
}

bool same_places(const sweep_state &st, std::size_t outside, list_places &p) {
  const std::size_t nl = st.local.size();
  if (!p.known || p.outside != outside ||
      nl + st.inner.size() != p.ranges.size())
    return false;
  if (st.recording &&
      std::find(p.found.begin(), p.found.end(), st.recording) != p.found.end())
    return true;
  auto same = [](const sweep_range &a, const sweep_range &b) {
    return a.data == b.data && a.n == b.n && a.stride == b.stride;
  };
  if (!std::equal(st.local.begin(), st.local.end(), p.ranges.begin(), same) ||
      !std::equal(st.inner.begin(), st.inner.end(), p.ranges.begin() + nl,
                  same))
    return false;
  constexpr std::size_t kFound = 8; // sites sharing an index, recent runs
  if (p.found.size() == kFound)
    p.found.erase(p.found.begin());
  p.found.push_back(st.recording);
  return true;
}

namespace {
/// The inner elements of st that the table lacks, in order of first
/// appearance (one thread).
std::vector<void *> not_in_table(const slot_table &table,
                                 const sweep_state &st) {
  std::vector<void *> missing;
  std::unordered_map<const void *, char> seen;
  const sweep_range *ir = st.inner.data();
  for (std::size_t c = 0; c < st.inner.size(); ++c)
    for (std::size_t k = 0; k < ir[c].n; ++k) {
      void *p = element_at(ir[c], st.owned.data(), k);
      if (table.find(p) == slot_table::kMissing && seen.emplace(p, 0).second)
        missing.push_back(p);
    }
  return missing;
}
} // namespace

bool index_in_slots(const std::vector<void *> &slots, const slot_table &table,
                    const sweep_state &st, inner_runs &runs,
                    std::vector<void *> &missing) {
  constexpr std::uint32_t kMissing = slot_table::kMissing;
  const std::size_t cells = st.inner.size(), m = slots.size();
  const sweep_range *ir = st.inner.data();
  void *const *owned = st.owned.data(), *const *e = slots.data();
  // The slot of entry k of cell c: the one after the previous entry's
  // (neighbour lists are runs of cells), else the table's.
  auto slot_of = [&](std::size_t c, std::size_t k, std::uint32_t prev) {
    void *p = element_at(ir[c], owned, k);
    if (prev != kMissing && std::size_t(prev) + 1 < m && e[prev + 1] == p)
      return prev + 1;
    return table.find(p);
  };
  std::vector<std::uint32_t> &off = runs.off;
  off.assign(cells + 1, 0);
  int lost = 0;
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 16) reduction(| : lost)
#endif
  for (std::size_t c = 0; c < cells; ++c) {
    std::uint32_t prev = kMissing, count = 0;
    for (std::size_t k = 0; k < ir[c].n && !lost; ++k) {
      std::uint32_t j = slot_of(c, k, prev);
      lost |= j == kMissing;
      count += prev == kMissing || j != prev + 1;
      prev = j;
    }
    off[c + 1] = count;
  }
  missing.clear();
  if (lost) {
    missing = not_in_table(table, st);
    return false;
  }
  for (std::size_t c = 0; c < cells; ++c)
    off[c + 1] += off[c];
  runs.start.resize(off[cells]);
  runs.len.resize(off[cells]);
  std::uint32_t *rs = runs.start.data(), *rl = runs.len.data();
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 16)
#endif
  for (std::size_t c = 0; c < cells; ++c) {
    std::uint32_t prev = kMissing, q = off[c];
    for (std::size_t k = 0; k < ir[c].n; ++k) {
      std::uint32_t j = slot_of(c, k, prev);
      if (prev != kMissing && j == prev + 1) {
        ++rl[q - 1];
      } else {
        rs[q] = j;
        rl[q++] = 1;
      }
      prev = j;
    }
  }
  return true;
}

namespace {
/// Whether inner range `r` (the c-th) holds the slots of its recorded runs.
bool same_runs(const sweep_range &r, void *const *owned, const built_lists &b,
               std::size_t c) {
  void *const *e = b.slots->data();
  std::size_t k = 0;
  for (std::uint32_t q = b.run_off[c]; q < b.run_off[c + 1]; ++q) {
    const std::size_t len = b.run_len[q];
    if (k + len > r.n || b.run_start[q] + len > b.slots->size() ||
        !same_elements(r, owned, e + b.run_start[q], k, len))
      return false;
    k += len;
  }
  return k == r.n;
}

} // namespace

/// Whether ranges `local` and `inner` hold the elements, cell by cell, that
/// `b` recorded. One parallel pass.
bool same_lists(const std::vector<sweep_range> &local,
                const std::vector<sweep_range> &inner, void *const *owned,
                const built_lists &b) {
  const std::size_t nl = local.size(), ni = inner.size();
  if (nl + ni != b.count.size() || ni != b.mirror.size() ||
      (ni && b.run_off.size() != ni + 1))
    return false;
  const sweep_range *lr = local.data(), *ir = inner.data();
  void *const *e = b.slots->data();
  int differ = 0;
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 64) reduction(| : differ)
#endif
  for (std::size_t c = 0; c < nl + ni; ++c) {
    const sweep_range &r = c < nl ? lr[c] : ir[c - nl];
    if (r.n != b.count[c]) {
      differ = 1;
      continue;
    }
    if (c < nl) {
      differ |= b.at[c] + r.n > b.slots->size() ||
                !same_elements(r, owned, e + b.at[c], 0, r.n);
      continue;
    }
    std::uint32_t m = b.mirror[c - nl];
    if (m != built_lists::kOwn) { // the same storage as that local range
      const sweep_range &l = lr[m];
      differ |= r.data != l.data || r.stride != l.stride;
      continue;
    }
    differ |= !same_runs(r, owned, b, c - nl);
  }
  return !differ;
}

} // namespace soaview::rt
