//===- region_lists.cpp - a view region's check of its sweeps' lists ------===//
//
// See region_lists.h. The cost per sweep run in a region: one parallel pass
// over its lists (against the region's slots and the site's index).
//===----------------------------------------------------------------------===//
#include "region_lists.h"

#include <unordered_map>

namespace soaview::rt {

/// Records what the index `st` of ranges `local` and `inner` was built from
/// into `b` (see built_lists): O(ranges + runs), nothing per element.
void record_lists(const sweep_state &st, const std::vector<void *> &slots,
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
  std::size_t n = 0;
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
  b.run_off = st.run_off;
  b.run_start = st.run_start;
  b.run_len = st.run_len;
  b.slots = &slots;
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
