//===- region.cpp - views kept across sweeps: view regions ----------------===//
//
// soaview/region.h describes what a region keeps. Cost per sweep in a
// region after its first run: one parallel pass over its lists (checking
// they are unchanged, against the region's slots and the site's index: no
// copy of the lists is kept) and the launch. Here: the region's buffers
// (region_buffers), its residents, soaview::sync and the entry points; its
// fields' gathers and write-backs are region_fields.cpp's, its side of the
// sweeps (slots, indices, checks, launches) region_sweeps.cpp's.
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
    f.dev = s_->owner->buffers().take(elem * s_->elems.size(),
                                      s_->ops->device_memory, s_->device);
    f.host = s_->ops->host_memory == s_->ops->device_memory // one memory
                 ? f.dev
                 : s_->owner->buffers().take(elem * s_->elems.size(),
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
  s_->scratch.emplace_back(
      elem, s_->owner->buffers().take(elem * s_->elems.size(),
                                      s_->ops->host_memory, s_->device));
  return s_->scratch.back().second;
}

bool resident::fresh() const noexcept { return !s_->pending.empty(); }

void *region_buffers::take(std::size_t bytes, const backend *mem, int device) {
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

void region_buffers::retire(const void *p) noexcept {
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

void region_impl::close() {
  verify();
  for (auto &r : residents_)
    fields_.write_back(*r);
}

void region_impl::flush(type_key key) {
  verify();
  check_.ran_outside(); // a loop that runs as written may change the lists
  for (auto &r : residents_)
    if (!key || r->state().key == key) {
      fields_.write_back(*r);
      for (resident::field &f : r->state().fields)
        f.on_device = false; // gathered again by the next sweep
    }
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
  if (!key || (listed && (r ? !fields_.ready(*r) : !residents_.empty()))) {
    flush(r ? key : nullptr);
  } else if (r && listed) {
    read_runs = fields_.runs_of(*r, reads, nr);
    write_runs = writes == reads && nw == nr ? read_runs
                                             : fields_.runs_of(*r, writes, nw);
    side.ops = overlap_of(r->state().ops);
    if (side.ops) { // beside the sweeps computing
      side.device = r->state().device;
      side.ops->begin(site_, r->state().device,
                      region_launches::after(*r, read_runs, write_runs));
    }
    fields_.write_back(*r, read_runs);
    partial = r;
  }
  check_.ran_outside(); // f may change the lists
  try {
    suspended none;
    call(f);
  } catch (...) { // what f wrote stands, as without the region
    if (partial)
      fields_.refresh(*partial, write_runs);
    throw;
  }
  if (partial)
    fields_.refresh(*partial, write_runs);
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

std::uint64_t region_kept_mark() noexcept {
  return tl_current ? tl_current->kept_mark() : 0;
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
  if (impl->stopped())
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
