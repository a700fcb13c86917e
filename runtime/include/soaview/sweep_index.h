//===- soaview/sweep_index.h - how a sweep's kernel finds a cell's elements
//===//
//
// The index a sweep hands its kernel (soaview/sweep.h): the cell of each
// local slot and the runs of inner slots per cell, and the cursor the
// generated inner loop walks them with, on the host and on the device.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SWEEP_INDEX_H
#define SOAVIEW_SWEEP_INDEX_H

#include "soaview/pool.h"

#include <cstddef>
#include <cstdint>

namespace soaview {

/// How the device finds a cell's elements: the cell of each local slot, and
/// per cell the runs of consecutive inner slots its inner list visits (in
/// list order).
struct sweep_index {
  const std::uint32_t *cell_of = nullptr;   ///< per local slot
  const std::uint32_t *run_off = nullptr;   ///< per cell, cells + 1 entries
  const std::uint32_t *run_start = nullptr; ///< per run
  const std::uint32_t *run_len = nullptr;   ///< per run, never 0
};
// An OpenMP kernel takes the index's pointers one by one and rebuilds it;
// the plugin lists them (plugin/emit/RuntimeNames.h, SweepIndexPointers).
static_assert(sizeof(sweep_index) == 4 * sizeof(const std::uint32_t *),
              "a new member of sweep_index must be listed in the plugin");

/// Walks one cell's inner slots in list order. One loop, so that `break`
/// and `continue` in the loop body keep their meaning.
class run_cursor {
public:
  SOAVIEW_HD run_cursor(const sweep_index &x, std::size_t cell) noexcept
      : start_(x.run_start), len_(x.run_len), r_(x.run_off[cell]),
        rend_(x.run_off[cell + 1]) {
    load();
  }
  SOAVIEW_HD bool more() const noexcept { return r_ < rend_; }
  SOAVIEW_HD void next() noexcept {
    if (++i_ == end_) {
      ++r_;
      load();
    }
  }
  SOAVIEW_HD std::size_t index() const noexcept { return i_; }

private:
  SOAVIEW_HD void load() noexcept {
    if (r_ < rend_) {
      i_ = start_[r_];
      end_ = i_ + len_[r_];
    }
  }
  const std::uint32_t *start_, *len_;
  std::uint32_t r_, rend_;
  std::size_t i_ = 0, end_ = 0;
};
} // namespace soaview

#endif // SOAVIEW_SWEEP_INDEX_H
