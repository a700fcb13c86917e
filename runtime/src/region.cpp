//===- region.cpp - views kept across sweeps: view regions ----------------===//
//
// soaview/region.h describes what a region keeps. Cost per sweep in a
// region after its first run: one parallel pass over its lists (checking
// they are unchanged, against the region's slots and the site's index: no
// copy of the lists is kept) and the launch. Here: the region's buffers,
// gathers, write-backs and syncs, and the entry points; its side of the
// sweeps (slots, indices, launches) is region_sweeps.cpp's.
//===----------------------------------------------------------------------===//
#include "options.h"
#include "region_impl.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace soaview::rt {

resident::resident() : s_(new storage) {}
resident::~resident() { delete s_; }
std::size_t resident::slots() const noexcept { return s_->elems.size(); }
std::size_t resident::locals() const noexcept { return s_->locals; }
void *const *resident::elements() const noexcept { return s_->elems.data(); }

extern const bool overlap_on = option_switch(option::overlap, true);
std::mutex learned_mutex;

namespace {

thread_local region_impl *tl_current = nullptr;

/// Per region site and element type (never freed: sites are static).
std::map<std::pair<const site *, type_key>, learned_views> learned_by_site;

learned_views *learned_views_of(const site &s, type_key key) {
  std::lock_guard<std::mutex> lock(learned_mutex);
  return &learned_by_site[{&s, key}];
}

/// A copy of the views a site learned (other threads may add to them).
learned_list views_of(const learned_views &l) {
  std::lock_guard<std::mutex> lock(learned_mutex);
  return l.views;
}

/// soaview::sync's copies on the thread's second stream (overlap_ops),
/// until it returns or throws.
struct side_stream {
  const overlap_ops *ops = nullptr;
  int device = -1;
  side_stream() = default;
  side_stream(const side_stream &) = delete;
  ~side_stream() {
    if (ops)
      ops->end(device);
  }
};

/// Runs f with no region on this thread (soaview::sync): loops in it run
/// as outside the region, and a sync in it only calls its function.
struct suspended {
  region_impl *saved = tl_current;
  suspended() { tl_current = nullptr; }
  ~suspended() { tl_current = saved; }
};

} // namespace

void resident::bind(const char *name, std::size_t elem, void *&host,
                    void *&dev) {
  std::size_t k = 0;
  while (k < s_->fields.size() &&
         !(s_->fields[k].name == name && s_->fields[k].elem == elem))
    ++k;
  switch (s_->mode) {
  case bind_mode::record: // cover_of: which fields each view binds
    host = dev = nullptr;
    s_->bound->push_back(k);
    return;
  case bind_mode::probe: // ready: whether they are all on the device
    host = dev = nullptr;
    s_->all_on_device &= k < s_->fields.size() && s_->fields[k].on_device;
    return;
  case bind_mode::make:
    break;
  }
  if (k == s_->fields.size()) {
    field f{name, elem, nullptr, nullptr, false, false};
    f.dev = s_->owner->take(elem * s_->elems.size(), s_->ops->device_memory,
                            s_->device);
    f.host = s_->ops->host_memory == s_->ops->device_memory // one memory
                 ? f.dev
                 : s_->owner->take(elem * s_->elems.size(),
                                   s_->ops->host_memory, s_->device);
    s_->fields.push_back(f);
  }
  field &f = s_->fields[k];
  dev = f.dev;
  if (f.on_device) {
    host = scratch(elem);
    return;
  }
  if (!std::count(s_->pending.begin(), s_->pending.end(), k))
    s_->pending.push_back(k);
  host = f.host;
}

void *resident::scratch(std::size_t elem) {
  for (const auto &b : s_->scratch)
    if (b.first == elem)
      return b.second;
  s_->scratch.emplace_back(elem,
                           s_->owner->take(elem * s_->elems.size(),
                                           s_->ops->host_memory, s_->device));
  return s_->scratch.back().second;
}

bool resident::fresh() const noexcept { return !s_->pending.empty(); }

void *region_impl::take(std::size_t bytes, const backend *mem, int device) {
  bytes = bytes ? bytes : kAlignment;
  const int on = device_for(mem, device);
  held *best = nullptr;
  for (held &h : leases_)
    if (h.retired && h.mem == mem && h.buffer->device() == on &&
        h.bytes >= bytes && (!best || h.bytes < best->bytes))
      best = &h;
  if (best) {
    best->retired = false;
    return best->buffer->data();
  }
  leases_.push_back(
      {std::make_unique<lease>(site_, bytes, mem, device), bytes, mem, false});
  return leases_.back().buffer->data();
}

void region_impl::retire(const void *p) noexcept {
  for (held &h : leases_)
    if (p && h.buffer->data() == p)
      h.retired = true;
}

/// Only the fields the sweep that bound them has just gathered: a field
/// not on the device that this sweep does not use is gathered by the one
/// that does.
void resident::upload() {
  phase_clock clock(s_->owner->where());
  bool copied = false;
  for (std::size_t k : s_->pending) {
    field &f = s_->fields[k];
    if (f.host != f.dev) {
      s_->ops->to_device(s_->owner->where(), f.dev, f.host,
                         f.elem * s_->elems.size(), s_->device);
      copied = true;
    }
    f.on_device = true;
  }
  s_->pending.clear();
  if (copied && s_->ops->wait) // one wait for the batch
    s_->ops->wait(s_->owner->where(), s_->device);
  clock.mark(phase::to_device, copied);
}

/// `dev` points into the field's device buffer: a sweep over part of the
/// region's cells starts at its first slot.
void resident::written(const void *dev) noexcept {
  const auto d = reinterpret_cast<std::uintptr_t>(dev);
  for (field &f : s_->fields) {
    const auto b = reinterpret_cast<std::uintptr_t>(f.dev);
    if (d >= b && d < b + f.elem * s_->elems.size())
      f.dirty = true;
  }
}

void resident::learn(bind_fn bind, gather_fn gather) {
  std::lock_guard<std::mutex> lock(learned_mutex);
  auto &v = s_->learned->views;
  if (std::find(v.begin(), v.end(), std::make_pair(bind, gather)) == v.end())
    v.emplace_back(bind, gather);
}

void resident::on_exit(scatter_fn fn) {
  for (scatter_fn g : s_->scatters)
    if (g == fn)
      return;
  s_->scatters.push_back(fn);
}

void *resident::host(const char *name) const noexcept {
  for (const field &f : s_->fields)
    if (f.name == name)
      return f.host;
  return nullptr;
}

void region_impl::write_back(resident &r) {
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

resident &region_impl::resident_for(type_key key, const device_ops &ops,
                                    int device) {
  for (auto &r : residents_)
    if (r->state().key == key) {
      if (r->state().ops != &ops || r->state().device != device) {
        std::fprintf(stderr,
                     "soaview: the region at %s: sweeps of one element type "
                     "run on two devices or backends in it\n",
                     site_.where());
        throw std::logic_error("soaview: region refused: two devices");
      }
      return *r;
    }
  residents_.push_back(std::make_unique<resident>());
  resident &r = *residents_.back();
  resident::storage &store = r.state();
  store.owner = this;
  store.key = key;
  store.ops = &ops;
  store.device = device;
  store.learned = learned_views_of(site_, key);
  return r;
}

/// When no field of r is on the device: the views the region's sweeps of
/// r's type used before (in earlier entries, or before a write-back) are
/// bound and gathered in one pass over the elements, and copied.
void region_impl::gather_learned(const site &s, resident &r) {
  for (const resident::field &f : r.state().fields)
    if (f.on_device)
      return;
  const auto views = views_of(*r.state().learned);
  if (views.empty())
    return;
  phase_clock clock(s);
  verify(); // the elements are read: the lists must be those recorded
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
region_impl::cover_of(resident &r, const learned_list &views) {
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
bool region_impl::ready(resident &r) {
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
slot_runs region_impl::runs_of(resident &r, void *const *elems, std::size_t n) {
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
bool region_impl::copy_runs(resident &r, const slot_runs &runs,
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
void region_impl::write_back(resident &r, const slot_runs &runs) {
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
void region_impl::refresh(resident &r, const slot_runs &runs) {
  phase_clock clock(site_);
  const auto &gathers = cover_of(r, views_of(*r.state().learned));
  in_runs(runs, r.slots(), [&](std::size_t b, std::size_t e) {
    for (resident::gather_fn g : gathers)
      g(r, b, e);
  });
  clock.mark(phase::gather);
  clock.mark(phase::to_device, copy_runs(r, runs, true));
}

/// soaview::sync (sync.h): the slots of the elements f reads written back,
/// f run with no region, the slots of those it writes gathered again; or
/// the whole write-back (below), after which the next sweep gathers
/// everything again.
void region_impl::sync(type_key key, void *const *reads, std::size_t nr,
                       void *const *writes, std::size_t nw,
                       void (*call)(void *), void *f) {
  verify();
  resident *r = nullptr;
  for (auto &x : residents_)
    if (x->state().key == key)
      r = x.get();
  // The whole write-back: without lists; while r's sweeps have not all
  // joined; or listed elements of a type the region holds no views of,
  // while it holds others (they may be the same elements, as a base).
  // Otherwise the listed elements' slots, unless none are held or listed.
  const bool listed = nr || nw;
  resident *partial = nullptr;
  slot_runs read_runs, write_runs;
  side_stream side;
  if (!key || (listed && (r ? !ready(*r) : !residents_.empty()))) {
    flush(r ? key : nullptr);
  } else if (r && listed) {
    read_runs = runs_of(*r, reads, nr);
    write_runs =
        writes == reads && nw == nr ? read_runs : runs_of(*r, writes, nw);
    side.ops = overlap_of(r->state().ops);
    if (side.ops) { // beside the sweeps computing
      side.device = r->state().device;
      side.ops->begin(site_, r->state().device,
                      after(*r, read_runs, write_runs));
    }
    write_back(*r, read_runs);
    partial = r;
  }
  ++outside_; // f may change the lists
  try {
    suspended none;
    call(f);
  } catch (...) { // what f wrote stands, as without the region
    if (partial)
      refresh(*partial, write_runs);
    throw;
  }
  if (partial)
    refresh(*partial, write_runs);
}

void region_sync_elements(type_key key, void *const *reads, std::size_t nr,
                          void *const *writes, std::size_t nw,
                          void (*call)(void *), void *f) {
  if (tl_current)
    tl_current->sync(key, reads, nr, writes, nw, call, f);
  else
    call(f);
}

void region_flush(type_key key) {
  if (tl_current)
    tl_current->flush(key);
}

resident *region_join(const site &s, type_key key, const device_ops &ops,
                      int device, sweep_state &st, bool writes, bool inner,
                      sweep_index &dev, bool check_later) {
  if (!tl_current)
    return nullptr;
  resident *r = tl_current->join(s, key, ops, device, st, writes, inner, dev);
  if (!check_later) {
    phase_clock clock(s);
    tl_current->verify();
    clock.mark(phase::index);
  }
  return r;
}

void region_verify() {
  if (tl_current)
    tl_current->verify();
}

void region_launched() {
  if (tl_current)
    tl_current->launched();
}

} // namespace soaview::rt

namespace soaview {

region::region(const site &s, region_lists lists)
    : unwinding_(std::uncaught_exceptions()) {
  if (rt::tl_current)
    return; // joins the outer region (whose code this region's is part of)
  // SOAVIEW_KEPT_LISTS=0: every run's lists checked in full (to compare).
  static const bool kept_on = rt::option_switch(rt::option::kept_lists, true);
  impl_ = new rt::region_impl(s, kept_on && lists == region_lists::kept);
  rt::tl_current = impl_;
}

region::~region() noexcept(false) {
  if (!impl_)
    return;
  rt::tl_current = nullptr;
  std::unique_ptr<rt::region_impl> impl(impl_); // freed on every way out
  if (impl->stopped)
    return;
  if (std::uncaught_exceptions() > unwinding_) {
    try { // an exception leaves the region: write back, never throw
      impl->close();
    } catch (...) { // NOLINT(bugprone-empty-catch): the first one goes on
    }
    return;
  }
  impl->close();
}

rt::region_impl *region::current() noexcept { return rt::tl_current; }

void region_sync() {
  if (rt::tl_current)
    rt::tl_current->flush(nullptr); // every element type
}

} // namespace soaview
