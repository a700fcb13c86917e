// The kernel tables every build of the SPH demonstrator exports.
//
// kernels.cpp (annotated AoS, the source a scientist writes) and manual.cpp
// (the hand-written SoA limit) are each compiled several times into their
// own namespace (SPH_NS: plain_strict, soaview_fast, ...); the driver
// (main.cpp) runs every table on the same particles and compares.
#ifndef SOAVIEW_SPH_KERNELS_H
#define SOAVIEW_SPH_KERNELS_H

#include "particle.h"

namespace sph {

/// One kernel over one cell: writes only particles of `local`.
using KernelFn = void (*)(ParticleList &local, ParticleList &active);
/// One kernel over every cell: locals[c] and actives[c] are cell c's lists.
using CellLists = std::vector<ParticleList>;
using SweepFn = void (*)(CellLists &locals, CellLists &actives);

struct KernelEntry {
  const char *kernel;  // density, force, kick1, kick2, drift
  const char *variant; // branching, masking, active-local, streaming
  bool quadratic;      // local x active (O(ppc^2)) or local only (O(ppc))
  KernelFn fn;
  /// The same kernel written as a loop over cells whose soaview annotation
  /// sweeps all cells in one offload (null: no sweep; run fn per cell).
  SweepFn sweep;
};

/// Runs `steps` leapfrog time steps over every cell: per step the density,
/// force, kick1, drift and kick2 sweeps, in that order.
using StepFn = void (*)(CellLists &locals, CellLists &actives, int steps);

/// The time step of one variant of density and force, written with sweeps
/// (kernels.cpp): `loops` calls one sweep per kernel (each gathers, copies
/// and scatters on its own); `region` is the same loop in a view region
/// (soa_conversion_region: every sweep in it shares one set of device
/// buffers, so the particles stay on the device between sweeps).
///
/// A halo exchange as the time step sees it (soaview-sph-mpi): the
/// particles it sends (the slab's edge rows: it reads them) and those it
/// receives (the halo rows: it writes them whole), and the call that
/// exchanges them. `beforeForce`: it runs again before force.
/// The rank's cells apart (copies of their lists): `inner`, the cells whose
/// neighbours are all the rank's own, and the edge rows `low` and `high`
/// (empty where there is no neighbour), whose neighbours include the halo.
/// The step sweeps density and force over `inner` before each exchange and
/// over the edges after it, so that on a GPU the exchange runs while the
/// inner cells compute.
struct Exchange {
  struct Cells {
    CellLists local, active;
  };
  ParticleList sent, received;
  void (*run)(void *context);
  void *context;
  bool beforeForce = true;
  Cells inner, low, high;
};
using ExchangedStepFn = void (*)(CellLists &locals, CellLists &actives,
                                 Exchange &x, int steps);

/// `exchanged` is `region` with the halo exchange before density and before
/// force, inside the region (soaview::sync over the exchanged particles).
struct StepEntry {
  const char *variant; // branching, masking
  StepFn loops;
  StepFn region;
  ExchangedStepFn exchanged;
};

struct KernelTable {
  const KernelEntry *entries;
  int count;
  /// The time steps (kernels.cpp; null in the hand-written builds, whose
  /// step the driver runs from their per-cell kernels).
  const StepEntry *steps = nullptr;
  int stepCount = 0;
};

} // namespace sph

#define SPH_DECLARE_TABLE(ns)                                                  \
  namespace sph {                                                              \
  namespace ns {                                                               \
  KernelTable table();                                                         \
  }                                                                            \
  }

#endif
