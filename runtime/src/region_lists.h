//===- region_lists.h - a view region's check of its sweeps' lists -*- C++
//-*-===//
//
// Internal to the runtime (region.cpp): what a sweep site's index in a view
// region was built from, and the one parallel pass that checks a later
// run's lists against it, without a copy of the lists.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REGION_LISTS_H
#define SOAVIEW_REGION_LISTS_H

#include "soaview/sweep.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace soaview::rt {

/// What a sweep site's index was built from, so that later runs can check
/// their lists hold the same elements in the same cells, without a copy of
/// the lists: per range (local ranges, then inner ranges) its length; a
/// local range's elements are the region's slots from `at` on; an inner
/// range's are the slots of its runs in the site's index (`run_*`, copies of
/// the index's host side: a few per cell where neighbour lists are runs of
/// local lists), the region's elements being `slots`. An inner range that
/// was a local range's own storage (a neighbour cell's list) is checked by
/// being the same storage again (`mirror`).
struct built_lists {
  static constexpr std::uint32_t kOwn = ~std::uint32_t(0);
  std::vector<std::uint32_t> count;  ///< per range
  std::vector<std::uint32_t> mirror; ///< per inner range: a local range, kOwn
  std::vector<std::size_t> at;       ///< per local range: its first slot
  std::vector<std::uint32_t> run_off, run_start, run_len; ///< inner ranges
  const std::vector<void *> *slots = nullptr;             ///< slot j's element
};

/// Where a sweep site's lists were when they were last known to hold what
/// its index was built from (built, or checked by same_lists): each range
/// as recorded, local ranges then inner ones. In a region whose code writes
/// no list unseen (region_lists::kept), ranges in the same storage with the
/// same lengths hold those elements still, until code runs as outside the
/// region (`outside`: the region's count of such runs then).
struct list_places {
  std::vector<sweep_range> ranges;
  std::size_t outside = 0;
  bool known = false; ///< every range has storage of its own
  /// Recordings (sweep_state::recording) whose ranges are these, found since
  /// they were recorded: a sweep that kept its cells (its recording the
  /// same) is found here without comparing its ranges again.
  std::vector<std::uint64_t> found;
};

/// Records st's ranges as where its lists are (see list_places).
void record_places(const sweep_state &st, std::size_t outside, list_places &p);

/// Whether st's ranges are where `p` recorded, with no code run as outside
/// the region since (`outside`): O(ranges), nothing per element; O(1) for
/// a recording found at p before.
bool same_places(const sweep_state &st, std::size_t outside, list_places &p);

/// A sweep's runs of inner slots per cell: the host side of sweep_index's
/// run_off, run_start and run_len.
struct inner_runs {
  std::vector<std::uint32_t> off, start, len;
};

/// Records what the index of st's ranges `local` and `inner`, with inner
/// runs `runs`, was built from into `b` (see built_lists): O(ranges +
/// runs), nothing per element. The local ranges' elements are the region's
/// slots from `first` on.
void record_lists(const sweep_state &st, inner_runs runs,
                  const std::vector<void *> &slots, std::size_t first,
                  built_lists &b);

/// The inner index of a sweep over part of a region's cells, in the
/// numbering of the region's slots `slots` (`table` finds them): per cell
/// the runs of consecutive slots of st's inner range, into `runs` (st's own
/// runs stay for its next run over all the cells). False when the region
/// does not hold some of the inner elements: then `missing` holds them,
/// once each, in the order they first appear.
bool index_in_slots(const std::vector<void *> &slots, const slot_table &table,
                    const sweep_state &st, inner_runs &runs,
                    std::vector<void *> &missing);

/// Whether ranges `local` and `inner` hold the elements, cell by cell, that
/// `b` recorded. One parallel pass.
bool same_lists(const std::vector<sweep_range> &local,
                const std::vector<sweep_range> &inner, void *const *owned,
                const built_lists &b);

} // namespace soaview::rt

#endif // SOAVIEW_REGION_LISTS_H
