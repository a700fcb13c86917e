//===- region_sweeps.cpp - a view region's side of its sweeps -------------===//
//
// How a sweep joins a view region (region_impl.h): the slots it shares
// (all of the region's local slots, a run of them for a sweep over part of
// its cells, or new slots) and its index per site and set of lists
// (site_indices), the check of its lists (list_check), and the marks of
// its launches that soaview::sync's copies wait for (region_launches).
//===----------------------------------------------------------------------===//
#include "region_impl.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace soaview::rt {

namespace {
/// See index_key.
index_key index_key_of(const site &s, const sweep_state &st) {
  const void *data = st.local.empty() ? nullptr : st.local.front().data;
  return {reinterpret_cast<std::uintptr_t>(&s),
          reinterpret_cast<std::uintptr_t>(data), data ? 0 : st.local.size()};
}
} // namespace

//--- list_check: whether a sweep's lists are its index's ----------------------

/// A check that passes records where the lists are (known_at).
void list_check::verify() {
  if (!pending_.site)
    return;
  pending check = pending_;
  pending_ = {};
  if (!same_lists(check.st->local, check.st->inner, check.st->owned.data(),
                  check.x->lists))
    stop(*check.site);
  known_at(*check.x, *check.st);
}

void list_check::stop(const site &s) {
  stopped_ = true;
  std::fprintf(
      stderr,
      "soaview: the region at %s stopped: the lists of the sweep at "
      "%s changed inside it (elements added, removed, reordered or moved "
      "to another cell); "
      "nothing more is computed and nothing is written back: change "
      "the lists outside the region\n",
      site_.where(), s.where());
  throw std::logic_error("soaview: region stopped: its lists changed");
}

//--- site_indices: the sites' indices and the slots they number ---------------

/// The site's index of st's lists: the one it built or took before (its
/// check left for later, unless st's lists are where they were when last
/// known to be its: list_check::still_at), else one built before, here or
/// at another site, from the same lists (same_as_before), else a new one.
const site_index &site_indices::index_for(const site &s, type_key key,
                                          resident &r, sweep_state &st,
                                          bool writes, bool inner) {
  const index_key k = index_key_of(s, st);
  auto it = index_.find(k);
  if (it != index_.end() && it->second.valid && it->second.key == key) {
    site_index &x = it->second;
    if (st.local.size() + st.inner.size() != x.lists.count.size())
      check_.stop(s); // other cells: the index does not fit them
    if (!check_.still_at(st, x))
      check_.check_later(s, st, x); // else: the lists it was checked with
    return x;
  }
  if (site_index *x = same_as_before(key, st, writes, inner))
    return *x;
  site_index &x = index_[k];
  x.key = key;
  build(s, x, r, st, writes, inner);
  return x;
}

/// An index built from lists that hold, cell by cell, what st's hold: the
/// site's own over the same lists in other storage (made again for each
/// run, say), or another site's over the same lists (a scheme's density and
/// force sweeps of one set of cells), which the sweep uses instead of
/// building one more. An index built by a sweep that does not write
/// through its local lists was not checked for elements local in two cells
/// (table_local), so a sweep that writes does not take it; one built
/// without inner runs (`inner` false) serves only such sweeps. First the
/// indices whose lists are where st's are (list_places: O(cells) each, O(1)
/// for a recording found there before), then those whose lists hold the
/// same elements (same_lists), whose places are st's from then on
/// (known_at). Null: none.
site_index *site_indices::same_as_before(type_key key, const sweep_state &st,
                                         bool writes, bool inner) {
  auto serves = [&](const site_index &x) {
    return x.valid && x.key == key && (x.writes_checked || !writes) &&
           x.inner == inner &&
           x.lists.count.size() == st.local.size() + st.inner.size();
  };
  for (auto &[k, x] : index_)
    if (serves(x) && check_.still_at(st, x))
      return &x;
  for (auto &[k, x] : index_)
    if (serves(x) && same_lists(st.local, st.inner, st.owned.data(), x.lists)) {
      check_.known_at(x, st);
      return &x;
    }
  return nullptr;
}

/// The sweep's index, built from its recorded lists, copied to the device.
void site_indices::build(const site &s, site_index &x, resident &r,
                         sweep_state &st, bool writes, bool inner) {
  // A sweep over part of the region's cells numbers its slots as the
  // region does and leaves the sweep's own table and runs as they are, for
  // its next run over all the cells (index_local, index_inner).
  list_local(s, st);
  inner_runs runs;
  if (!index_partial_sweep(r, st, inner, x, runs)) {
    table_local(s, st, writes);
    if (inner) {
      index_inner(s, st, true);
    } else {
      st.extra.clear();
      st.run_off.assign(st.local.size() + 1, 0);
      st.run_start.clear();
      st.run_len.clear();
    }
    if (!fits(r, st, inner))
      reset(r, st, inner);
    x.first = x.read_lo = 0;
    x.count = r.locals();
    x.read_hi = r.slots();
    runs = {st.run_off, st.run_start, st.run_len};
  }
  const device_ops &ops = *r.state().ops;
  auto copy = [&](const std::vector<std::uint32_t> &v) {
    auto *d = static_cast<std::uint32_t *>(buffers_.take(
        kEntryBytes * v.size(), ops.device_memory, r.state().device));
    if (!v.empty())
      ops.to_device(site_, d, v.data(), kEntryBytes * v.size(),
                    r.state().device);
    return d;
  };
  x.dev.cell_of = copy(st.cell_of);
  x.dev.run_off = copy(runs.off);
  x.dev.run_start = copy(runs.start);
  x.dev.run_len = copy(runs.len);
  if (ops.wait)
    ops.wait(site_, r.state().device);
  record_lists(st, std::move(runs), r.state().elems, x.first, x.lists);
  x.writes_checked = writes;
  x.inner = inner;
  check_.known_at(x, st);
  x.valid = true;
}

/// Whether the sweep's local elements (just indexed in st) are a run of
/// r's local slots, fewer than all of them: a sweep over part of the
/// region's cells. Its index then numbers inner slots as the region does
/// (the inner elements the region lacks become slots after its others:
/// grow()), and x holds the slots it writes and reads.
bool site_indices::index_partial_sweep(resident &r, const sweep_state &st,
                                       bool inner, site_index &x,
                                       inner_runs &runs) {
  const std::vector<void *> &lp = st.local_elems, &e = r.state().elems;
  const std::size_t n = lp.size();
  if (!r.locals() || n >= r.locals())
    return false;
  std::uint32_t first = 0; // no local elements: none to find
  if (n) {
    first = with_table(r, [&](const slot_table &t) { return t.find(lp[0]); });
    if (first == slot_table::kMissing || first + n > r.locals() ||
        !std::equal(lp.begin(), lp.end(), e.begin() + first))
      return false;
  }
  x.first = first;
  x.count = n;
  x.read_lo = first;
  x.read_hi = first + n;
  if (!inner) {
    runs.off.assign(st.local.size() + 1, 0);
    return true;
  }
  std::vector<void *> missing;
  auto index = [&] {
    return with_table(r, [&](const slot_table &t) {
      return index_in_slots(r.state().elems, t, st, runs, missing);
    });
  };
  if (!index()) {
    grow(r, missing);
    index(); // every inner element is the region's now
  }
  for (std::size_t q = 0; q < runs.start.size(); ++q) {
    x.read_lo = std::min<std::size_t>(x.read_lo, runs.start[q]);
    x.read_hi = std::max<std::size_t>(x.read_hi, runs.start[q] + runs.len[q]);
  }
  return true;
}

/// Whether the sweep's slots (just indexed in st) are the resident's: the
/// same local elements, and its inner elements outside them among the
/// resident's others, in the same order.
bool site_indices::fits(const resident &r, const sweep_state &st, bool inner) {
  const std::vector<void *> &e = r.state().elems;
  if (st.local_elems.size() != r.locals() ||
      !std::equal(st.local_elems.begin(), st.local_elems.end(), e.begin()))
    return false;
  if (!inner)
    return true;
  return st.extra.size() <= e.size() - r.locals() &&
         std::equal(st.extra.begin(), st.extra.end(), e.begin() + r.locals());
}

/// New slots for a resident whose sweeps saw other elements: what the
/// region's sweeps wrote is written back, and its fields and the indices of
/// its sites start again (in buffers the old ones retire).
void site_indices::reset(resident &r, const sweep_state &st, bool inner) {
  resident::storage &store = r.state();
  relayout(r);
  for (auto &x : index_)
    if (x.second.key == store.key && x.second.valid) {
      x.second.valid = false;
      sweep_index &d = x.second.dev;
      for (const std::uint32_t *p :
           {d.cell_of, d.run_off, d.run_start, d.run_len})
        buffers_.retire(p);
      d = {};
    }
  std::vector<void *> &e = store.elems;
  e.assign(st.local_elems.begin(), st.local_elems.end());
  if (inner)
    e.insert(e.end(), st.extra.begin(), st.extra.end());
  store.locals = st.local_elems.size();
}

/// More slots after r's others (the halo particles of a sweep over part of
/// the region's cells): what the region's sweeps wrote is written back and
/// its fields start again, sized for the new slots; the slots the region
/// had keep their numbers, and with them every site's index.
void site_indices::grow(resident &r, const std::vector<void *> &more) {
  relayout(r);
  std::vector<void *> &e = r.state().elems;
  e.insert(e.end(), more.begin(), more.end());
}

/// Before r's slots change: what the region's sweeps wrote is written back,
/// the device's work ends, and its fields start again, in buffers that the
/// old ones retire (region_buffers::take() reuses them: a region whose sweeps
/// lay the slots out again and again allocates nothing after the first time).
void site_indices::relayout(resident &r) {
  resident::storage &store = r.state();
  if (!store.elems.empty()) {
    fields_.write_back(r);
    if (store.ops->wait) // kernels that only read the buffers may still run
      store.ops->wait(site_, store.device);
  }
  region_launches::release(r);
  for (const resident::field &f : store.fields) {
    buffers_.retire(f.dev);
    // the same buffer where the device's memory is the host's
    buffers_.retire(f.host);
  }
  for (const auto &b : store.scratch)
    buffers_.retire(b.second);
  store.fields.clear();
  store.pending.clear();
  store.scratch.clear();                    // sized for the old slots
  store.table_generation = ~std::size_t(0); // other slots: look them up again
  for (resident::storage::synced_list &l : store.synced)
    l.elems.clear();
}

//--- region_launches: the sweeps launched, marked for soaview::sync -----------

/// At most this many launches are listed (the older ones: `floor`).
constexpr std::size_t kLaunches = 16;

void region_launches::launched() {
  resident *r = last_resident_;
  const overlap_ops *ov =
      r && last_index_ ? overlap_of(r->state().ops) : nullptr;
  if (!ov)
    return;
  const overlap_ops &o = *ov;
  resident::storage &store = r->state();
  if (store.launches.size() == kLaunches) {
    if (store.floor)
      o.release(store.floor, r->state().device);
    store.floor = store.launches.front().mark;
    store.launches.erase(store.launches.begin());
  }
  const site_index &x = *last_index_;
  store.launches.push_back({o.mark(site_, r->state().device), x.first,
                            x.first + x.count, x.read_lo, x.read_hi});
}

void region_launches::release(resident &r) {
  resident::storage &store = r.state();
  if (const overlap_ops *o = overlap_of(store.ops)) {
    for (const auto &l : store.launches)
      o->release(l.mark, store.device);
    if (store.floor)
      o->release(store.floor, store.device);
  }
  store.launches.clear();
  store.floor = nullptr;
}

/// What a soaview::sync's copies of r's slots `reads` (back from the
/// device) and `writes` (to it) wait for: the last sweep launched that
/// writes a slot of `reads`, or reads or writes one of `writes`; else the
/// newest no longer listed (`floor`, null: none).
void *region_launches::after(const resident &r, const slot_runs &reads,
                             const slot_runs &writes) {
  auto meets = [](const slot_runs &runs, std::size_t lo, std::size_t hi) {
    for (auto [b, e] : runs)
      if (b < hi && lo < e)
        return true;
    return false;
  };
  void *m = r.state().floor;
  for (const auto &l : r.state().launches)
    if (meets(reads, l.write_lo, l.write_hi) ||
        meets(writes, std::min(l.read_lo, l.write_lo),
              std::max(l.read_hi, l.write_hi)))
      m = l.mark;
  return m;
}

//--- region_impl: a sweep joins the region ------------------------------------

resident *region_impl::join(const site &s, type_key key, const device_ops &ops,
                            int device, sweep_state &st, bool writes,
                            bool inner, sweep_index &dev) {
  phase_clock clock(s);
  verify();
  if (stopped())
    check_.stop(s);
  resident &r = resident_for(key, ops, device);
  const site_index &x = indices_.index_for(s, key, r, st, writes, inner);
  dev = x.dev;
  st.region_first = x.first;
  st.region_count = x.count;
  launches_.joined(r, x);
  clock.mark(phase::index);
  fields_.gather_learned(s, r);
  return &r;
}

} // namespace soaview::rt
