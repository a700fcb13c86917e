//===- soaview/region.h - views kept across sweeps: view regions -*- C++
//-*-===//
//
// A view region ([[clang::soa_conversion_region]] on a statement; the
// plugin emits `::soaview::region r(site);` around it) keeps, for as long as
// it lives on the thread that entered it, one set of buffers per element
// type that every offloaded sweep run inside it shares (docs/offload.md,
// "View regions"):
//   * the first sweep of an element type fixes the region's slots: its
//     local elements, then the elements its inner lists add (ghosts); a
//     sweep over part of the cells whose local elements are a run of the
//     local slots uses them (its local slot i is slot first + i), and the
//     ghosts only it sees become slots after the others;
//   * a field is gathered and copied to the device the first time a sweep
//     of the region uses it; it then stays on the device; the region's site
//     remembers which views its sweeps used, so that from its second entry
//     on (and after a write-back) the first sweep gathers them all in one
//     pass: the union of the sweeps' fields, once;
//   * each sweep site builds its index once per region and copies it to the
//     device once; later runs check that their lists are unchanged and only
//     launch: no gather, no copy, no scatter;
//   * at exit the fields sweeps wrote are copied back once and scattered;
//   * with a backend whose kernels run on after the launch (CUDA), a
//     soaview::sync copies beside the sweeps whose slots it does not touch
//     (overlap_ops).
//
// Everything else that meets the elements in the region keeps its meaning:
// the plugin refuses code in a region that touches the elements outside
// annotated loops, and a converted loop that is not a sweep of the region
// (a host loop, a cell-by-cell offload) first flushes the region's fields of
// its element type (copied back, scattered, gathered again by the next
// sweep), so it sees and leaves the elements as the program would.
//
// Contracts: a region belongs to the thread that made it (sweeps on other
// threads do not join it); an inner region joins the outer one; buffers are
// leased from the pool by the region's site (no allocation after warm-up);
// every error follows the runtime's one policy (message naming the region
// on stderr, then std::logic_error for refused uses). A sweep whose lists
// changed inside the region stops the region: nothing more is computed and
// nothing is written back (its elements may be gone).
// Implemented in runtime/src/region.cpp; tested through the programs of
// test/Offload/host-offload.test (OpenMP host offloading, in CI),
// test/Exec/regions.test and test/GPU (both backends on the H100).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REGION_H
#define SOAVIEW_REGION_H

#include "soaview/pool.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace soaview {

struct sweep_index;

namespace rt {
/// Identifies an element type without RTTI: one address per type.
using type_key = const void *;
template <class T> inline const char type_key_of = 0;
template <class T> type_key key_of() noexcept {
  return &type_key_of<std::remove_cv_t<T>>;
}

/// How a backend whose kernels run while the host goes on (CUDA) lets
/// soaview::sync's copies run beside the region's sweeps that are still
/// computing, on a second stream of the thread, instead of after them.
struct overlap_ops {
  /// A point in the work queued so far on the thread's stream: the sweep
  /// just launched. release() gives it back.
  void *(*mark)(const site &s, int device);
  void (*release)(void *mark, int device);
  /// From begin() to end(), device_ops' to_device, to_host and wait use the
  /// thread's second stream, which first waits for `after` (null: for
  /// nothing).
  void (*begin)(const site &s, int device, void *after);
  void (*end)(int device);
};

/// What a region needs from the offload backend of the sweeps that join it
/// (soaview/omp.h, soaview/cuda.h): where buffers live and how to copy.
struct device_ops {
  /// The region's device buffers and its host buffers (pinned). Where both
  /// are one memory (sweeps on the host), a field has one buffer, gathered
  /// into, computed on and scattered from in place, never copied.
  const backend *device_memory;
  const backend *host_memory;
  void (*to_device)(const site &s, void *dev, const void *host,
                    std::size_t bytes, int device);
  void (*to_host)(const site &s, void *host, const void *dev, std::size_t bytes,
                  int device);
  /// Waits for the copies to_device and to_host queued (null: they wait
  /// themselves). The region queues a batch of copies, then waits once.
  void (*wait)(const site &s, int device) = nullptr;
  /// Null: the sweeps' kernels have ended when they return.
  const overlap_ops *overlap = nullptr;
};

struct sweep_state;
class region_impl;

/// One element type's buffers in a region: its slots (the elements, local
/// slots first) and one host and one device buffer per field that a sweep
/// of the region used, by the field's name (spec.h's fields()).
class resident {
public:
  std::size_t slots() const noexcept;
  std::size_t locals() const noexcept;
  void *const *elements() const noexcept;
  /// The buffers of field `name` (`elem` bytes a slot), made on first use.
  /// `host` is where a sweep gathers the field: its host buffer, or, for a
  /// field already on the device, a scratch buffer that nothing reads (a
  /// sweep's gather writes every field of its views; the device's stands).
  void bind(const char *name, std::size_t elem, void *&host, void *&dev);
  /// A field made since the last upload(): gather it before the launch.
  bool fresh() const noexcept;
  /// Copies the fields gathered since the last upload to the device.
  void upload();
  /// The sweep wrote the field whose device buffer is `dev`.
  void written(const void *dev) noexcept;
  /// Scatters a spec's written fields of slots [begin, end) from the host
  /// buffers at exit; each function once, all of them in one parallel pass
  /// over the slots (an element is written back by every spec while it is
  /// in the cache).
  using scatter_fn = void (*)(resident &, std::size_t begin, std::size_t end);
  void on_exit(scatter_fn f);
  /// The views of a sweep that joined: bind makes their buffers (as bind()
  /// does), gather fills slots [begin, end) of their host buffers from the
  /// elements. The region's site remembers them per element type, so that
  /// when no field of the type is on the device (a later entry of the
  /// region, or after a write-back) the first sweep to join gathers every
  /// view remembered in one pass over the elements, instead of each sweep
  /// its own.
  using bind_fn = void (*)(resident &);
  using gather_fn = void (*)(resident &, std::size_t begin, std::size_t end);
  void learn(bind_fn bind, gather_fn gather);
  /// The host buffer of `name` (at exit, after the copies back).
  void *host(const char *name) const noexcept;

  /// The region's state of this element type: the runtime's own (defined
  /// in runtime/src/region_impl.h, where the region reads and writes it).
  struct storage;
  struct field;
  resident();
  ~resident();
  resident(const resident &) = delete;
  resident &operator=(const resident &) = delete;
  storage &state() const noexcept { return *s_; }

private:
  void *scratch(std::size_t elem);
  storage *s_;
};

/// Where a sweep of site `s` over elements of type `key` joins the current
/// region: its resident buffers, and the device copy of its index (built
/// and copied the first time the site runs in the region; later runs check
/// that the recorded lists are those it was built from, or stop the
/// region). `writes`: the sweep writes through its local lists; `inner`: it
/// has an inner loop over the same element type; `check_later`: the sweep
/// calls region_verify() itself, after queuing its kernel, so that the
/// check runs while the device computes (the region writes nothing back
/// from a region that stops). Null: no region on this thread.
resident *region_join(const site &s, type_key key, const device_ops &ops,
                      int device, sweep_state &st, bool writes, bool inner,
                      sweep_index &dev_index, bool check_later);
/// The check region_join left for later, if any (it may stop the region).
void region_verify();
/// In a region made with region_lists::kept that has not stopped: a number
/// unique to this run of the region, which changes whenever code runs as
/// outside it (a soaview::sync function, a loop that runs as written). The
/// lists the region's sweeps read are the same objects with the same
/// elements for as long as it stays the same (sweep_host::cells_kept). 0:
/// no such region on this thread.
std::uint64_t region_kept_mark() noexcept;
/// The sweep that joined last has queued its kernel (a backend with
/// overlap_ops): the region marks it, with the slots it writes and reads,
/// so that a soaview::sync whose elements it does not touch need not wait
/// for it.
void region_launched();

/// soaview::sync's side in the runtime (soaview/sync.h): with a region on this
/// thread, writes back the region's fields of the `nr` elements at `reads`
/// (of type `key`), runs call(f) as outside the region, and gathers the
/// fields of the `nw` elements at `writes` again (to the device); `key`
/// null: every element of every type is written back first and gathered
/// again by the next sweep. No region: runs call(f).
void region_sync_elements(type_key key, void *const *reads, std::size_t nr,
                          void *const *writes, std::size_t nw,
                          void (*call)(void *), void *f);

/// Where a converted loop that is not a sweep of the region meets the
/// elements of type `key` (frame.h calls it): copies back and scatters the
/// region's fields of that type and drops them from the device, so that the
/// loop sees the elements as the program would. No region: nothing.
void region_flush(type_key key);
} // namespace rt

/// Writes back every view the thread's region holds (generated code calls
/// it before a nest the region reaches runs as written). No region: nothing.
void region_sync();

/// What soaview saw of the code a view region runs (generated code says;
/// docs/offload.md, "Lists soaview saw kept").
enum class region_lists {
  /// Some of it may write a sweep's lists where soaview cannot see it
  /// (bytes through an untyped pointer, say): every later run of a sweep
  /// checks its lists element by element.
  may_change,
  /// Nothing in it writes a list unseen (what it writes seen is refused at
  /// compile time): a later run of a sweep whose lists are in the storage
  /// they were in when last checked, with their lengths, holds the same
  /// elements, and skips the check; code that runs as outside the region
  /// (soaview::sync's function, a loop that runs as written) makes the
  /// next run check again.
  kept,
};

/// A view region (see above). Generated code makes one around the annotated
/// statement; users do not name it.
class region {
public:
  explicit region(const site &s, region_lists lists = region_lists::may_change);
  /// Copies back and scatters what the region's sweeps wrote (not while an
  /// exception from inside the region unwinds it past a stopped region).
  ~region() noexcept(false);
  region(const region &) = delete;
  region &operator=(const region &) = delete;

  /// The region this thread runs in (the outermost of nested ones), or null.
  static rt::region_impl *current() noexcept;

private:
  rt::region_impl *impl_ = nullptr; ///< null: joined an outer region
  int unwinding_;
};

} // namespace soaview

#endif // SOAVIEW_REGION_H
