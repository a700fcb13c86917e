//===- region_sweeps.cpp - a view region's side of its sweeps -------------===//
//
// How a sweep joins a view region (region_impl.h): the slots it shares
// (all of the region's local slots, a run of them for a sweep over part of
// its cells, or new slots), its index per site and set of lists, and the
// marks of its launches that soaview::sync's copies wait for.
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

/// Whether the sweep's slots (just indexed in st) are the resident's: the
/// same local elements, and its inner elements outside them among the
/// resident's others, in the same order.
bool region_impl::fits(const resident &r, const sweep_state &st,
                       bool inner) const {
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
void region_impl::reset(resident &r, const sweep_state &st, bool inner) {
  resident::storage &store = r.state();
  relayout(r);
  for (auto &x : index_)
    if (x.second.key == store.key && x.second.valid) {
      x.second.valid = false;
      sweep_index &d = x.second.dev;
      for (const std::uint32_t *p :
           {d.cell_of, d.run_off, d.run_start, d.run_len})
        retire(p);
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
void region_impl::grow(resident &r, const std::vector<void *> &more) {
  relayout(r);
  std::vector<void *> &e = r.state().elems;
  e.insert(e.end(), more.begin(), more.end());
}

/// Before r's slots change: what the region's sweeps wrote is written back,
/// the device's work ends, and its fields start again, in buffers that the
/// old ones retire (take() reuses them: a region whose sweeps lay the slots
/// out again and again allocates nothing after the first time).
void region_impl::relayout(resident &r) {
  resident::storage &store = r.state();
  if (!store.elems.empty()) {
    write_back(r);
    if (store.ops->wait) // kernels that only read the buffers may still run
      store.ops->wait(site_, store.device);
  }
  release_launches(r);
  for (const resident::field &f : store.fields) {
    retire(f.dev);
    retire(f.host); // the same buffer where the device's memory is the host's
  }
  for (const auto &b : store.scratch)
    retire(b.second);
  store.fields.clear();
  store.pending.clear();
  store.scratch.clear();                    // sized for the old slots
  store.table_generation = ~std::size_t(0); // other slots: look them up again
  for (resident::storage::synced_list &l : store.synced)
    l.elems.clear();
}

/// Whether the sweep's local elements (just indexed in st) are a run of
/// r's local slots, fewer than all of them: a sweep over part of the
/// region's cells. Its index then numbers inner slots as the region does
/// (the inner elements the region lacks become slots after its others:
/// grow()), and x holds the slots it writes and reads.
bool region_impl::index_partial_sweep(resident &r, const sweep_state &st,
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

void region_impl::stop(const site &s) {
  stopped = true;
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

/// The sweep's index, built from its recorded lists, copied to the device.
void region_impl::build(const site &s, site_index &x, resident &r,
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
    auto *d = static_cast<std::uint32_t *>(
        take(kEntryBytes * v.size(), ops.device_memory, r.state().device));
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
  known_at(x, st);
  x.valid = true;
}

resident *region_impl::join(const site &s, type_key key, const device_ops &ops,
                            int device, sweep_state &st, bool writes,
                            bool inner, sweep_index &dev) {
  phase_clock clock(s);
  verify();
  if (stopped)
    stop(s);
  resident &r = resident_for(key, ops, device);
  const index_key k = index_key_of(s, st);
  auto it = index_.find(k);
  site_index *x = nullptr;
  if (it != index_.end() && it->second.valid && it->second.key == key) {
    x = &it->second;
    if (st.local.size() + st.inner.size() != x->lists.count.size())
      stop(s); // other cells: the index does not fit them
    if (!same_places(st, outside_, x->places))
      pending_ = {&s, &st, x}; // else: the lists it was checked with
  } else {
    // One built before, here or at another site, checked to hold these
    // lists; else a new one.
    x = same_as_before(key, st, writes, inner);
    if (x) {
      known_at(*x, st);
    } else {
      x = &index_[k];
      x->key = key;
      build(s, *x, r, st, writes, inner);
    }
  }
  dev = x->dev;
  st.region_first = x->first;
  st.region_count = x->count;
  last_resident_ = &r;
  last_index_ = x;
  clock.mark(phase::index);
  gather_learned(s, r);
  return &r;
}

/// An index built from lists that hold, cell by cell, what st's hold: the
/// site's own over the same lists in other storage (made again for each
/// run, say), or another site's over the same lists (a scheme's density and
/// force sweeps of one set of cells), which the sweep uses instead of
/// building one more. An index built by a sweep that does not write
/// through its local lists was not checked for elements local in two cells
/// (table_local), so a sweep that writes does not take it; one built
/// without inner runs (`inner` false) serves only such sweeps. First the
/// indices whose lists are where st's are (list_places: O(cells) each),
/// then those whose lists hold the same elements (same_lists). Null: none.
site_index *region_impl::same_as_before(type_key key, const sweep_state &st,
                                        bool writes, bool inner) {
  auto fits = [&](const site_index &x) {
    return x.valid && x.key == key && (x.writes_checked || !writes) &&
           x.inner == inner &&
           x.lists.count.size() == st.local.size() + st.inner.size();
  };
  for (auto &[k, x] : index_)
    if (fits(x) && same_places(st, outside_, x.places))
      return &x;
  for (auto &[k, x] : index_)
    if (fits(x) && same_lists(st.local, st.inner, st.owned.data(), x.lists))
      return &x;
  return nullptr;
}

/// At most this many launches are listed (the older ones: `floor`).
constexpr std::size_t kLaunches = 16;

void region_impl::launched() {
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

void region_impl::release_launches(resident &r) {
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
void *region_impl::after(resident &r, const slot_runs &reads,
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

} // namespace soaview::rt
