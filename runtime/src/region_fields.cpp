//===- region_fields.cpp - a view region's gathers and write-backs --------===//
//
// The fields of a region's residents on their way between the elements and
// the device (region_fields, region_impl.h): the views a region's site
// learned, gathered in one pass when none of their fields is on the device;
// the fields its sweeps wrote, copied back and scattered at its end, at a
// flush or for a soaview::sync's elements; and a sync's elements gathered
// again.
//===----------------------------------------------------------------------===//
#include "region_impl.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <vector>

namespace soaview::rt {

namespace {
/// A copy of the views a site learned (other threads may add to them).
learned_list views_of(const learned_views &l) {
  std::lock_guard<std::mutex> lock(learned_mutex);
  return l.views;
}
} // namespace

void region_fields::write_back(resident &r) {
  resident::storage &store = r.state();
  phase_clock clock(site_);
  bool copied = false;
  for (resident::field &f : store.fields)
    if (f.dirty && f.on_device && f.host != f.dev && store.locals) {
      // the local slots: sweeps write no others, scatters read no others
      store.ops->to_host(site_, f.host, f.dev, f.elem * store.locals,
                         store.device);
      copied = true;
    }
  if (copied && store.ops->wait) // one wait, then the host buffers are read
    store.ops->wait(site_, store.device);
  clock.mark(phase::from_device, copied);
  const std::vector<resident::scatter_fn> &fns = store.scatters;
  if (!fns.empty())
    in_blocks(store.locals, [&](std::size_t b, std::size_t e) {
      for (resident::scatter_fn fn : fns)
        fn(r, b, e);
    });
  store.scatters.clear();
  for (resident::field &f : store.fields)
    f.dirty = false;
  clock.mark(phase::scatter);
}

/// When no field of r is on the device: the views the region's sweeps of
/// r's type used before (in earlier entries, or before a write-back) are
/// bound and gathered in one pass over the elements, and copied.
void region_fields::gather_learned(const site &s, resident &r) {
  for (const resident::field &f : r.state().fields)
    if (f.on_device)
      return;
  const auto views = views_of(*r.state().learned);
  if (views.empty())
    return;
  phase_clock clock(s);
  check_.verify(); // the elements are read: the lists must be those recorded
  clock.mark(phase::index);
  for (auto &v : views)
    v.first(r);
  const auto &gathers = cover_of(r, views);
  in_blocks(r.slots(), [&](std::size_t b, std::size_t e) {
    for (resident::gather_fn g : gathers)
      g(r, b, e);
  });
  r.upload();
  clock.mark(phase::gather);
}

namespace {
/// Of views binding fields `bound[i]` (indices below nf; nf or more: a
/// field not made yet), those whose gathers write every field, largest
/// first: a view whose fields the views taken before it all bind is left
/// out.
std::vector<std::size_t>
covering(const std::vector<std::vector<std::size_t>> &bound, std::size_t nf) {
  std::vector<std::size_t> order(bound.size()), taken;
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return bound[a].size() != bound[b].size()
               ? bound[a].size() > bound[b].size()
               : a < b;
  });
  std::vector<char> written(nf, 0);
  for (std::size_t i : order) {
    bool adds = false;
    for (std::size_t k : bound[i])
      adds |= k >= nf || !written[k]; // a field not made yet: keep the view
    if (!adds)
      continue;
    for (std::size_t k : bound[i])
      if (k < nf)
        written[k] = 1;
    taken.push_back(i);
  }
  return taken;
}
} // namespace

/// The gathers of `views` (those the region's site learned for r's type)
/// that write every field the views bind (covering(): a field holds the
/// element's value whichever view gathers it, and a gather writes every
/// buffer of its views, spec.h). Kept until a view or a field is added.
const std::vector<resident::gather_fn> &
region_fields::cover_of(resident &r, const learned_list &views) {
  resident::storage &store = r.state();
  if (store.cover_views == views.size() &&
      store.cover_fields == store.fields.size())
    return store.cover;
  std::vector<std::vector<std::size_t>> bound(views.size());
  for (std::size_t i = 0; i < views.size(); ++i) {
    store.bound = &bound[i];
    asking(store, bind_mode::record, [&] { views[i].first(r); });
  }
  store.bound = nullptr;
  store.cover.clear();
  for (std::size_t i : covering(bound, store.fields.size()))
    store.cover.push_back(views[i].second);
  store.cover_views = views.size();
  store.cover_fields = store.fields.size();
  if (profiling()) {
    std::lock_guard<std::mutex> lock(learned_mutex);
    if (store.learned->reported_views != views.size() &&
        store.cover.size() < views.size())
      std::fprintf(stderr,
                   "soaview: %s gathers %zu of %zu views (the fields of the "
                   "others are among theirs)\n",
                   site_.where(), store.cover.size(), views.size());
    store.learned->reported_views = views.size();
  }
  return store.cover;
}

/// Whether every field of every view the region's site learned for r's type
/// is on the device (then soaview::sync can refresh slots of it in place).
bool region_fields::ready(resident &r) {
  resident::storage &store = r.state();
  if (store.fields.empty() || !store.pending.empty())
    return false;
  for (const resident::field &f : store.fields)
    if (!f.on_device)
      return false;
  const auto views = views_of(*store.learned);
  store.all_on_device = true;
  asking(store, bind_mode::probe, [&] {
    for (auto &v : views)
      v.first(r);
  });
  return store.all_on_device;
}

/// The slots of the n elements at `elems` that r holds, as ranges.
slot_runs region_fields::runs_of(resident &r, void *const *elems,
                                 std::size_t n) {
  resident::storage &store = r.state();
  for (const resident::storage::synced_list &l : store.synced)
    if (l.elems.size() == n && std::equal(elems, elems + n, l.elems.begin()))
      return l.runs;
  std::vector<std::uint32_t> slots;
  slots.reserve(n);
  with_table(r, [&](const slot_table &t) {
    for (std::size_t k = 0; k < n; ++k) {
      std::uint32_t j = t.find(elems[k]);
      if (j != slot_table::kMissing)
        slots.push_back(j);
    }
  });
  std::sort(slots.begin(), slots.end());
  slot_runs runs;
  for (std::uint32_t j : slots)
    if (!runs.empty() && j <= runs.back().second)
      runs.back().second = std::max<std::size_t>(runs.back().second, j + 1);
    else
      runs.emplace_back(j, j + 1);
  resident::storage::synced_list &l = store.synced[store.synced_next];
  store.synced_next ^= 1;
  l.elems.assign(elems, elems + n);
  l.runs = runs;
  return runs;
}

/// Copies r's slots in `runs` of every field to the device, or of the
/// written fields back from it (local slots only: sweeps write no others);
/// one wait for the batch. Whether it copied.
bool region_fields::copy_runs(resident &r, const slot_runs &runs,
                              bool to_device) {
  resident::storage &store = r.state();
  const std::size_t limit = to_device ? r.slots() : r.locals();
  bool copied = false;
  for (resident::field &f : store.fields) {
    if (f.host == f.dev || (!to_device && !(f.dirty && f.on_device)))
      continue;
    for (auto [b, e] : runs) {
      e = std::min(e, limit);
      if (b >= e)
        continue;
      char *h = static_cast<char *>(f.host) + b * f.elem,
           *d = static_cast<char *>(f.dev) + b * f.elem;
      if (to_device)
        store.ops->to_device(site_, d, h, (e - b) * f.elem, store.device);
      else
        store.ops->to_host(site_, h, d, (e - b) * f.elem, store.device);
      copied = true;
    }
  }
  if (copied && store.ops->wait)
    store.ops->wait(site_, store.device);
  return copied;
}

/// Copies back and scatters the written fields of r's slots in `runs`.
void region_fields::write_back(resident &r, const slot_runs &runs) {
  phase_clock clock(site_);
  clock.mark(phase::from_device, copy_runs(r, runs, false));
  const std::vector<resident::scatter_fn> &fns = r.state().scatters;
  if (!fns.empty())
    in_runs(runs, r.locals(), [&](std::size_t b, std::size_t e) {
      for (resident::scatter_fn fn : fns)
        fn(r, b, e);
    });
  clock.mark(phase::scatter);
}

/// Gathers every learned view of r's slots in `runs` again, and copies them
/// to the device (r is ready()).
void region_fields::refresh(resident &r, const slot_runs &runs) {
  phase_clock clock(site_);
  const auto &gathers = cover_of(r, views_of(*r.state().learned));
  in_runs(runs, r.slots(), [&](std::size_t b, std::size_t e) {
    for (resident::gather_fn g : gathers)
      g(r, b, e);
  });
  clock.mark(phase::gather);
  clock.mark(phase::to_device, copy_runs(r, runs, true));
}

} // namespace soaview::rt
