//===- soaview/sweep.h - one offload for a whole sweep over cells -*- C++
//-*-===//
//
// The host side of a swept nest (docs/offload.md, "Sweeps"): a loop over
// cells annotated soa_conversion_offload_compute whose body runs one
// annotated nest over containers of the current cell (its local elements,
// and optionally an inner loop over its active elements). Instead of one
// gather, copy and launch per cell, the generated code
//   1. runs the cell loop once on the host, recording each cell's ranges
//      (cell());
//   2. prepare(): gives every local element one slot (cell by cell, in list
//      order), and the inner view one slot per distinct element: the local
//      elements' slots first, in the same order, then elements that are
//      local nowhere; each cell's inner list becomes runs of consecutive
//      slots (a neighbour cell's local list is one run). Gathers both views
//      in parallel on the caller's OpenMP threads; when every inner element
//      is a local one, the inner view uses the local view's buffers of the
//      fields both views read (gathered and copied once);
//   3. the backend copies the buffers and index to the device once,
//      launches one kernel over all local slots, copies the written fields
//      back (soaview/omp.h, soaview/cuda.h);
//   4. the destructor scatters the written fields, in parallel.
//
// Semantics: the plugin refuses nests whose cells could see one another's
// writes (a written field read through the inner loop, writes through the
// inner loop); at run time an element written through the local lists of
// two cells (or twice in one) is refused before anything is written (the
// one error policy: message naming the site, std::logic_error).
//
// Contracts: buffers come from the pool (leases per site, thread and depth);
// the per-site index state is thread-local and keeps its capacity, so a
// sweep allocates nothing after warm-up unless its lists grow or hold
// elements that are local in no cell. Ranges recorded by reference (lvalue
// contiguous containers) must not change until the sweep ends. One sweep of
// a site runs at a time per thread (a recursive one is refused).
//
// The internals are in soaview/detail/ (sweep_host.h: the host side every
// backend's sweep derives from; sweep_state.h: the lists, slots and runs),
// the kernel's index in soaview/sweep_index.h.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SWEEP_H
#define SOAVIEW_SWEEP_H

#include "soaview/detail/sweep_host.h"

#include <cstring>

namespace soaview {

namespace rt {
inline void host_copy(const site &, void *to, const void *from,
                      std::size_t bytes, int) {
  std::memcpy(to, from, bytes);
}
/// A view region's buffers for sweeps on the host: one buffer per field in
/// host memory from the pool, which the sweeps gather into, compute on and
/// scatter from (the copies are for the index).
inline const device_ops host_region_ops = {nullptr, nullptr, host_copy,
                                           host_copy};
} // namespace rt

/// A sweep over cells on the host: what a sweep in a view region becomes in
/// a compile that cannot offload (docs/offload.md, "View regions"). In the
/// region it uses the region's host buffers and index (gathered once for the
/// region, scattered when it ends); outside one (a sweep whose views cannot
/// join) it gathers its own and scatters them when it ends. The generated
/// loop over the local slots runs on the caller's OpenMP threads.
template <class LSpec, class ISpec = void, bool Scatter = true>
class host_sweep : public sweep_host<LSpec, ISpec, Scatter, nullptr> {
  using base = sweep_host<LSpec, ISpec, Scatter, nullptr>;

public:
  explicit host_sweep(const site &s) : base(s) {}
  ~host_sweep() {
    if (this->in_region()) // the written fields stay in the region's buffers
      this->region_wrote(this->dl_);
  }

  /// After the cells are recorded: the region's buffers, or slots, index
  /// and gathers of its own.
  void start() {
    if (this->join_region(rt::host_region_ops, -1, this->dl_, this->di_,
                          this->dx_))
      return;
    this->prepare();
    this->dl_ = this->lsoa_;
    this->di_ = this->isoa_;
    this->dx_ = this->hidx_;
  }
};

} // namespace soaview

#endif // SOAVIEW_SWEEP_H
