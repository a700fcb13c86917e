//===- soaview/detail/sweep_state.h - a sweep's lists, slots and runs ----===//
//
// Internals of sweeps (soaview/sweep.h), not an interface: the state a
// sweep keeps per site and thread between invocations, and the functions of
// runtime/src/sweep.cpp that build its slots, index and runs from the
// recorded ranges.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_DETAIL_SWEEP_STATE_H
#define SOAVIEW_DETAIL_SWEEP_STATE_H

#include "soaview/frame.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(_OPENMP)
#define SOAVIEW_PARALLEL_FOR _Pragma("omp parallel for schedule(static)")
#define SOAVIEW_PARALLEL_FOR_DYNAMIC                                           \
  _Pragma("omp parallel for schedule(dynamic, 16)")
#else
#define SOAVIEW_PARALLEL_FOR
#define SOAVIEW_PARALLEL_FOR_DYNAMIC
#endif

namespace soaview::rt {
/// The bytes of one entry of a sweep's index (a slot, cell or run number).
inline constexpr std::size_t kEntryBytes = sizeof(std::uint32_t);

/// Run-time refusals of a sweep (message naming the site, std::logic_error).
[[noreturn]] void refuse_sweep_repeat(const site &s);
[[noreturn]] void refuse_sweep_size(const site &s);
[[noreturn]] void refuse_sweep_recursion(const site &s);

/// One cell's range as the collection saw it: element pointers (stride 0),
/// elements (stride = their size), or pointers copied into the state
/// (data null; `owned` is the offset of the first).
struct sweep_range {
  const void *data;
  std::size_t n, stride, owned;
};

/// Address -> slot, open addressing. Filled on one thread; looked up from
/// many once filled.
class slot_table {
public:
  static constexpr std::uint32_t kMissing = ~std::uint32_t(0);
  void reset(std::size_t expected);
  /// The slot of p, inserting `slot` when absent; returns the slot p has.
  std::uint32_t insert(const void *p, std::uint32_t slot);
  std::uint32_t find(const void *p) const noexcept {
    for (std::size_t h = hash(p);; h = (h + 1) & mask_) {
      const void *k = keys_[h];
      if (k == p)
        return slots_[h];
      if (!k)
        return kMissing;
    }
  }

private:
  std::size_t hash(const void *p) const noexcept {
    auto v = reinterpret_cast<std::uintptr_t>(p) >> 3;
    return static_cast<std::size_t>((v * 0x9E3779B97F4A7C15ull) >> shift_) &
           mask_;
  }
  std::vector<const void *> keys_;
  std::vector<std::uint32_t> slots_;
  std::size_t mask_ = 0, used_ = 0;
  unsigned shift_ = 0;
};

/// The per-site, per-thread state of a sweep: kept between sweeps so that
/// its vectors keep their capacity.
struct sweep_state {
  bool busy = false;
  std::vector<sweep_range> local, inner; ///< per cell
  std::vector<void *> owned;
  std::vector<void *> local_elems, last_local_elems,
      extra; ///< local slots; last sweep's; extras
  std::vector<std::uint32_t> local_first,
      inner_first; ///< per cell (+1): first slot, entry
  std::vector<std::uint32_t> cell_of, inner_slot, run_off, run_start, run_len;
  std::vector<unsigned char> missed; ///< per cell: an inner element not local
  std::size_t inner_base = 0; ///< inner slots below it are the local slots
  slot_table slots;           ///< the local slots
  slot_table extra_slots;     ///< the last sweep's extras
  bool slots_valid = false;
  /// run_off/run_start/run_len (and inner_first, extra) describe the inner
  /// lists of the last sweep over the current local slots: a sweep whose inner
  /// lists hold the same elements keeps them (index_inner).
  bool runs_valid = false;
  /// In a view region (region_join): the sweep's local slots are the
  /// region's slots [region_first, region_first + region_count), and its
  /// index numbers inner slots as the region does.
  std::size_t region_first = 0, region_count = 0;
  /// The ranges above were recorded from the lists at `kept_lists` in a
  /// region whose kept mark was `kept_mark` (rt::region_kept_mark; 0: not
  /// in such a region): sweep_host::cells_kept.
  std::uint64_t kept_mark = 0;
  std::vector<const void *> kept_lists;
  /// The recording the ranges above are from: a number no other recording
  /// (of any site or thread) has had, drawn when it begins (next_unique);
  /// 0 before the first. The ranges change only while recording, so equal
  /// numbers mean equal ranges (list_places' found).
  std::uint64_t recording = 0;
};

/// A number no earlier call has returned, process-wide: a recording of a
/// sweep's cells (sweep_state::recording), a region run's or outside run's
/// epoch (list_check).
std::uint64_t next_unique() noexcept;

inline void *element_at(const sweep_range &r, void *const *owned,
                        std::size_t k) noexcept {
  if (!r.data)
    return owned[r.owned + k];
  if (!r.stride)
    return const_cast<void *>(static_cast<const void *const *>(r.data)[k]);
  return const_cast<char *>(static_cast<const char *>(r.data)) + k * r.stride;
}

/// Whether range `r` holds, from its element `from` on, the `n` elements
/// at `expect`, in order (it must hold that many).
bool same_elements(const sweep_range &r, void *const *owned,
                   void *const *expect, std::size_t from, std::size_t n);

/// Builds the slots, the index and the runs of `st` from its recorded
/// ranges (runtime/src/sweep.cpp). Returns the inner view's slot count.
void index_local(const site &s, sweep_state &st, bool writes);
/// index_local's two parts: the local slots' elements and cells (local_elems,
/// cell_of), then their table (kept while the local lists are the last
/// ones; a repeat with `writes` is refused).
void list_local(const site &s, sweep_state &st);
void table_local(const site &s, sweep_state &st, bool writes);
/// `shared`: the inner loop's elements have the local loop's type, so its
/// slots start with the local slots (a local element keeps its slot number).
std::size_t index_inner(const site &s, sweep_state &st, bool shared);

/// Specs that name their buffers (S::fields(soa &, f) calls f(buffer,
/// "field") per buffer; the plugin emits it for the views of sweeps).
struct any_field {
  template <class P> void operator()(P &, const char *) const noexcept {}
};
template <class S, class = void> struct has_fields : std::false_type {};
template <class S>
struct has_fields<S, std::void_t<decltype(S::fields(
                         std::declval<typename S::soa &>(), any_field{}))>>
    : std::true_type {};

/// Ranges that may hold their elements in one array: arrays, and ranges
/// with data(), size() and iterators that add an offset (vector, array,
/// span). sweep_host checks at run time that the first and last elements
/// sit where data() says.
template <class R, class = void>
struct is_contiguous : std::bool_constant<std::is_array_v<R>> {};
template <class R>
struct is_contiguous<R,
                     std::void_t<decltype(std::declval<R &>().data()),
                                 decltype(std::declval<R &>().size()),
                                 decltype(rt::begin_of(std::declval<R &>(), 0) +
                                          std::ptrdiff_t())>> : std::true_type {
};
} // namespace soaview::rt

#endif // SOAVIEW_DETAIL_SWEEP_STATE_H
