//===- region_impl.h - a view region's state, inside the runtime -*- C++
//-*-===//
//
// Internal to the runtime (region.cpp, region_fields.cpp,
// region_sweeps.cpp): what a view region keeps per element type (resident's
// storage) and per sweep site and set of lists (site_index), and the region
// itself (region_impl), which holds one piece per concern:
//   * region_buffers: the buffers it leases from the pool and retires;
//   * list_check: the check that its sweeps' lists are unchanged, and the
//     stop when they are not;
//   * region_fields: its fields' gathers, write-backs and refreshes;
//   * site_indices: the indices of its sweep sites, and the slots they
//     number;
//   * region_launches: the sweeps launched, marked for soaview::sync.
// region.cpp holds the buffers, the residents, soaview::sync and the entry
// points; region_fields.cpp the gathers and write-backs; region_sweeps.cpp
// the region's side of the sweeps that join it: their slots, indices,
// checks and launches.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REGION_IMPL_H
#define SOAVIEW_REGION_IMPL_H

#include "soaview/region.h"

#include "region_lists.h"
#include "soaview/sweep.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace soaview::rt {

struct resident::field {
  std::string name;
  std::size_t elem;
  void *host, *dev;
  bool on_device, dirty;
};

/// The views that sweeps of one element type used in a region's site, over
/// all its entries (resident::learn): shared by the threads that run the
/// site, so guarded by learned_mutex.
using learned_list =
    std::vector<std::pair<resident::bind_fn, resident::gather_fn>>;
struct learned_views {
  learned_list views;
  /// The slots of the elements `table_elems` (a resident's, the last that
  /// soaview::sync asked), kept across entries: a region over the same
  /// elements finds them without building the table again. `generation`
  /// counts the tables built.
  std::vector<void *> table_elems;
  slot_table table;
  std::size_t generation = 0;
  /// How many views the last cover reported (SOAVIEW_STATS=2) was of.
  std::size_t reported_views = 0;
};

/// What resident::bind does: make a field's buffers (what sweeps ask), or
/// answer one of the region's questions about the fields a view binds.
enum class bind_mode { make, probe, record };

class region_impl;

struct resident::storage {
  region_impl *owner = nullptr;
  type_key key = nullptr;
  const device_ops *ops = nullptr;
  int device = -1;
  /// The slots' elements, local slots (the first `locals`) first.
  std::vector<void *> elems;
  std::size_t locals = 0;
  std::vector<field> fields;
  std::vector<scatter_fn> scatters;
  std::vector<std::size_t> pending; ///< bound since upload(), not on device
  /// Per field size, slots' worth of bytes that gathers of fields already
  /// on the device write and nothing reads (bind).
  std::vector<std::pair<std::size_t, void *>> scratch;
  learned_views *learned = nullptr; ///< the site's, for this element type
  /// learned->table holds these slots while learned->generation is this.
  std::size_t table_generation = ~std::size_t(0);
  /// The last two lists of elements soaview::sync was given (what an
  /// exchange sends and what it receives: the same every step) and their
  /// slots, until the slots change; `synced_next` is replaced next.
  struct synced_list {
    std::vector<void *> elems;
    std::vector<std::pair<std::size_t, std::size_t>> runs;
  };
  synced_list synced[2];
  unsigned synced_next = 0;
  /// What bind() does (asking() sets it for the length of a question):
  /// make the buffers, or make nothing and answer region_fields::ready
  /// (`probe`: all_on_device stays true while each field bound is on the
  /// device) or cover_of (`record`: the index of each field bound goes to
  /// `bound`, fields.size() for one not made yet).
  bind_mode mode = bind_mode::make;
  bool all_on_device = true;
  std::vector<std::size_t> *bound = nullptr;
  /// The gathers of the learned views that write every field they bind
  /// (cover_of), for `cover_views` views over `cover_fields` fields.
  std::vector<resident::gather_fn> cover;
  std::size_t cover_views = 0, cover_fields = 0;
  /// The sweeps launched and perhaps still computing (a backend with
  /// overlap_ops), oldest first, with the slots each writes and reads;
  /// `floor` marks the newest of those no longer listed.
  struct launch {
    void *mark;
    std::size_t write_lo, write_hi, read_lo, read_hi;
  };
  std::vector<launch> launches;
  void *floor = nullptr;
};

/// The index of one sweep site in a region over one set of lists: its
/// device copy, the lists it was built from, its local slots [first, first +
/// count) and the slots its sweeps read, within [read_lo, read_hi).
struct site_index {
  type_key key;
  sweep_index dev;
  built_lists lists;
  list_places places; ///< where the lists were when last known to be those
  std::size_t first = 0, count = 0, read_lo = 0, read_hi = 0;
  bool valid = true;
  /// Built by a sweep that writes through its local lists: the check for
  /// elements local in two cells ran (table_local).
  bool writes_checked = false;
  bool inner = false; ///< built with inner runs (a sweep's `inner`)
};

/// Which index of a site a sweep's lists select: the storage of its first
/// local list, or (a list without storage of its own: empty, or copied by
/// the sweep) the number of cells. A site swept over several sets of cells
/// in one region (a slab's interior, then its edge rows) keeps an index per
/// set; lists that change keep theirs, and the check finds the change; the
/// same lists in new storage find theirs, and a site over lists another
/// site's index was built from uses that index (same_as_before).
/// (Addresses as integers: ordered whatever they point to.)
using index_key = std::tuple<std::uintptr_t, std::uintptr_t, std::size_t>;

/// Guards every site's learned_views (region.cpp).
extern std::mutex learned_mutex;
/// SOAVIEW_OVERLAP=0: syncs wait for every sweep launched (to compare).
extern const bool overlap_on;
/// The overlap of a backend's sweeps and syncs in use (null: none).
inline const overlap_ops *overlap_of(const device_ops *ops) {
  return overlap_on && ops ? ops->overlap : nullptr;
}

/// Calls f(begin, end) over slots [0, n) in chunks, in parallel.
template <class F> void in_chunks(std::size_t n, const F &f) {
  constexpr std::size_t kChunk = 4096;
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1)
#endif
  for (std::size_t c = 0; c < chunks; ++c)
    f(c * kChunk, std::min(n, (c + 1) * kChunk));
}

/// Calls f(begin, end) over slots [0, n) in blocks of kBlock, the blocks of
/// a chunk on one thread (in_chunks). A caller that runs several passes
/// runs them all over one block before the next, so that an element they
/// all read or write is still in the core's cache for the later ones (a
/// whole chunk of scattered elements is not: the SPH step's exit scatter
/// took 1.4x as long on the 2-core development VM, the same on a 32-core
/// GPU node; docs/benchmarks.md, "Writing a region back block by block").
template <class F> void in_blocks(std::size_t n, const F &f) {
  constexpr std::size_t kBlock = 1024;
  in_chunks(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; k += kBlock)
      f(k, std::min(e, k + kBlock));
  });
}

/// Runs f with the slot table of r's elements (learned_mutex held). The
/// table is the site's for r's element type (learned_views), kept across
/// entries: built again only when r's elements are others.
template <class F> auto with_table(resident &r, F &&f) {
  std::lock_guard<std::mutex> lock(learned_mutex);
  resident::storage &store = r.state();
  learned_views &l = *store.learned;
  if (store.table_generation != l.generation || l.table_elems != store.elems) {
    l.table_elems = store.elems;
    l.table.reset(l.table_elems.size());
    for (std::size_t j = 0; j < l.table_elems.size(); ++j)
      l.table.insert(l.table_elems[j], static_cast<std::uint32_t>(j));
    store.table_generation = ++l.generation;
  }
  return f(static_cast<const slot_table &>(l.table));
}

/// Slot ranges [begin, end), ascending and disjoint.
using slot_runs = std::vector<std::pair<std::size_t, std::size_t>>;

/// Calls f(begin, end) over the slots of `runs` below `limit`, in blocks of
/// at most 1,024 slots, in parallel.
template <class F>
void in_runs(const slot_runs &runs, std::size_t limit, const F &f) {
  constexpr std::size_t kBlock = 1024;
  slot_runs blocks;
  for (auto [b, e] : runs)
    for (std::size_t k = b; k < std::min(e, limit); k += kBlock)
      blocks.emplace_back(k, std::min({e, limit, k + kBlock}));
  const std::size_t count = blocks.size();
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1)
#endif
  for (std::size_t i = 0; i < count; ++i)
    f(blocks[i].first, blocks[i].second);
}

/// The buffers a region leases from the pool by its site (fields, scratch
/// and indices), in the order taken; they end, in reverse order (the pool's
/// leases end in reverse order), when the region does. A retired one waits
/// for take() to reuse it, so that laying the slots out again allocates
/// nothing after the first time.
class region_buffers {
public:
  explicit region_buffers(const site &s) : site_(s) {}
  ~region_buffers() {
    while (!leases_.empty())
      leases_.pop_back(); // the pool's leases end in reverse order
  }
  region_buffers(const region_buffers &) = delete;
  region_buffers &operator=(const region_buffers &) = delete;

  /// A buffer of at least `bytes` of `mem` on `device` for the rest of the
  /// region: a retired one that fits (the smallest), else a new lease.
  void *take(std::size_t bytes, const backend *mem, int device);
  /// Hands a buffer take() gave back for reuse: nothing may use it after
  /// (the device's work on it has ended: site_indices::relayout waits for
  /// it).
  void retire(const void *p) noexcept;

private:
  struct held {
    std::unique_ptr<lease> buffer;
    std::size_t bytes;
    const backend *mem;
    bool retired;
  };
  const site &site_;
  std::vector<held> leases_;
};

/// The check that a sweep's lists are those its site's index was built
/// from (same_lists: elements in the same order), at once or left for
/// later; in a region whose code writes no list unseen, skipped while the
/// lists are where they were when last known to be those (list_places). A
/// check that fails stops the region.
class list_check {
public:
  /// `lists_kept`: the region's code writes no list unseen
  /// (region_lists::kept).
  list_check(const site &s, bool lists_kept)
      : site_(s), lists_kept_(lists_kept), epoch_(next_unique()) {}

  /// The check of st's lists against x's, left for verify(): a CUDA sweep
  /// launches its kernel first and checks while it runs (the kernel writes
  /// only the region's device buffers, which a stopped region never writes
  /// back); every other use of the region checks first.
  void check_later(const site &s, const sweep_state &st, site_index &x) {
    pending_ = {&s, &st, &x};
  }
  /// The check left for later, if any: the lists are those x was built
  /// from, or the region stops.
  void verify();
  /// x's lists are st's, as checked (or built): where they are now is
  /// where they stay while the region's code writes no list unseen.
  void known_at(site_index &x, const sweep_state &st) const {
    if (lists_kept_)
      record_places(st, outside_, x.places);
  }
  /// Whether st's lists are where x's were last known to be, with no code
  /// run as outside the region since: then they are x's, unchecked.
  bool still_at(const sweep_state &st, site_index &x) const {
    return same_places(st, outside_, x.places);
  }
  /// Code runs as outside the region (a soaview::sync's function, a loop
  /// that runs as written): it may change the lists.
  void ran_outside() noexcept {
    ++outside_;
    epoch_ = next_unique();
  }
  /// While the region's code writes no list (region_lists::kept) and it has
  /// not stopped: a number that changes whenever code runs as outside it,
  /// unique to this region's run (region_kept_mark); 0 otherwise.
  std::uint64_t kept_mark() const noexcept {
    return lists_kept_ && !stopped_ ? epoch_ : 0;
  }
  /// The lists of the sweep at s changed: the region stops (it computes
  /// and writes back nothing more).
  [[noreturn]] void stop(const site &s);
  bool stopped() const noexcept { return stopped_; }

private:
  struct pending {
    const site *site = nullptr;
    const sweep_state *st = nullptr;
    site_index *x = nullptr;
  };
  const site &site_;
  const bool lists_kept_;
  /// How many times code ran as outside the region (list_places).
  std::size_t outside_ = 0;
  std::uint64_t epoch_; ///< see kept_mark()
  pending pending_;
  bool stopped_ = false;
};

/// The fields of a region's residents on their way between the elements
/// and the device: the learned views gathered in one pass, the written
/// fields copied back and scattered (every local slot, or the slots of a
/// soaview::sync's elements), and a sync's slots gathered again.
class region_fields {
public:
  /// `check`: the region's, run before the elements are read.
  region_fields(const site &s, list_check &check) : site_(s), check_(check) {}

  /// When no field of r is on the device, gathers the views the region's
  /// site learned for r's type, in one pass, and copies them.
  void gather_learned(const site &s, resident &r);
  /// Whether every learned view's fields are on the device.
  bool ready(resident &r);
  /// The slots of the n elements at `elems` that r holds, as ranges.
  slot_runs runs_of(resident &r, void *const *elems, std::size_t n);
  /// Copies back and scatters r's written fields.
  void write_back(resident &r);
  /// The same, of r's slots in `runs` only.
  void write_back(resident &r, const slot_runs &runs);
  /// Gathers r's slots in `runs` again and copies them to the device.
  void refresh(resident &r, const slot_runs &runs);

private:
  const std::vector<resident::gather_fn> &cover_of(resident &r,
                                                   const learned_list &views);
  bool copy_runs(resident &r, const slot_runs &runs, bool to_device);
  /// Runs f, which calls learned views' bind functions, with bind() in
  /// mode m; bind() makes buffers again after it.
  template <class F>
  static void asking(resident::storage &s, bind_mode m, F &&f) {
    s.mode = m;
    struct restore {
      resident::storage &s;
      ~restore() { s.mode = bind_mode::make; }
    } done{s};
    f();
  }

  const site &site_;
  list_check &check_;
};

/// The indices of a region's sweep sites, one per site and set of lists
/// (index_key), and the slots they number: a site's first run builds its
/// index, or takes one built from the same lists (same_as_before); a
/// sweep that sees other elements gives its resident new slots (reset) or
/// more (grow), after which its fields start again (relayout).
class site_indices {
public:
  site_indices(const site &s, region_buffers &buffers, list_check &check,
               region_fields &fields)
      : site_(s), buffers_(buffers), check_(check), fields_(fields) {}

  /// The index of the sweep at s over st's lists, of r's slots: the one
  /// the site has (its check left to `check_`), one built before from the
  /// same lists, or a new one, built.
  const site_index &index_for(const site &s, type_key key, resident &r,
                              sweep_state &st, bool writes, bool inner);

private:
  void build(const site &s, site_index &x, resident &r, sweep_state &st,
             bool writes, bool inner);
  static bool fits(const resident &r, const sweep_state &st, bool inner);
  site_index *same_as_before(type_key key, const sweep_state &st, bool writes,
                             bool inner);
  bool index_partial_sweep(resident &r, const sweep_state &st, bool inner,
                           site_index &x, inner_runs &runs);
  void reset(resident &r, const sweep_state &st, bool inner);
  void grow(resident &r, const std::vector<void *> &more);
  void relayout(resident &r);

  const site &site_;
  region_buffers &buffers_;
  list_check &check_;
  region_fields &fields_;
  std::map<index_key, site_index> index_;
};

/// The sweeps a region launched that may still be computing (a backend
/// with overlap_ops), listed in their residents (resident::storage::
/// launches) with the slots each writes and reads, so that a
/// soaview::sync's copies wait only for those whose slots they touch.
class region_launches {
public:
  explicit region_launches(const site &s) : site_(s) {}

  /// The sweep that joined last, of r's slots through x, for launched().
  void joined(resident &r, const site_index &x) noexcept {
    last_resident_ = &r;
    last_index_ = &x;
  }
  /// The sweep that joined last has queued its kernel: lists its mark.
  void launched();
  /// Gives back the marks listed in r.
  static void release(resident &r);
  /// What a soaview::sync's copies of r's slots `reads` (back from the
  /// device) and `writes` (to it) wait for (null: nothing).
  static void *after(const resident &r, const slot_runs &reads,
                     const slot_runs &writes);

private:
  const site &site_;
  resident *last_resident_ = nullptr;
  const site_index *last_index_ = nullptr;
};

/// The state of one region (region.h): its residents, one per element
/// type, and the pieces above.
class region_impl {
public:
  /// `lists_kept`: the region's code writes no list unseen
  /// (region_lists::kept).
  region_impl(const site &s, bool lists_kept)
      : site_(s), check_(s, lists_kept), buffers_(s), launches_(s),
        fields_(s, check_), indices_(s, buffers_, check_, fields_) {}
  /// The launches' marks are given back first; the buffers end after,
  /// with the members (buffers_ after residents_ and indices_, which hold
  /// none of them).
  ~region_impl() {
    for (auto &r : residents_)
      region_launches::release(*r);
  }
  region_impl(const region_impl &) = delete;
  region_impl &operator=(const region_impl &) = delete;

  resident *join(const site &s, type_key key, const device_ops &ops, int device,
                 sweep_state &st, bool writes, bool inner, sweep_index &dev);
  /// Copies back and scatters every resident's written fields.
  void close();
  /// The check region_join left for later, if any (list_check::verify).
  void verify() { check_.verify(); }
  /// Copies back and scatters the fields of type `key` (null: every type),
  /// which the next sweep gathers again.
  void flush(type_key key);
  void sync(type_key key, void *const *reads, std::size_t nr,
            void *const *writes, std::size_t nw, void (*call)(void *), void *f);
  void launched() { launches_.launched(); }
  region_buffers &buffers() noexcept { return buffers_; }
  const site &where() const noexcept { return site_; }
  bool stopped() const noexcept { return check_.stopped(); }
  std::uint64_t kept_mark() const noexcept { return check_.kept_mark(); }

private:
  resident &resident_for(type_key key, const device_ops &ops, int device);

  const site &site_;
  list_check check_;
  region_buffers buffers_;
  region_launches launches_;
  region_fields fields_;
  std::vector<std::unique_ptr<resident>> residents_;
  site_indices indices_;
};

} // namespace soaview::rt

#endif // SOAVIEW_REGION_IMPL_H
