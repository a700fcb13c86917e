//===- domain.h - soaview-sph-mpi's decomposition: slabs and halos -------===//
//
// The global particle system of soaview-sph-mpi (mpi.cpp), one rank's slab
// of cell rows with a halo row from each neighbour, and the halo exchange
// of whole Particle structs (MPI_Sendrecv). Only mpi.cpp includes it.
//===----------------------------------------------------------------------===//
#ifndef SPH_DOMAIN_H
#define SPH_DOMAIN_H

#include "initial.h"
#include "kernels.h"

#include <mpi.h>

#include <algorithm>
#include <random>
#include <vector>

namespace sph {
namespace slabs {

// ---- the global particle system ---------------------------------------------

/// The cells of the whole domain: grid x grid cells of ppc particles,
/// particle k in cell k / ppc, cells row-major (main.cpp's System).
struct Geometry {
  long ppc, grid, n;
  long rowParticles() const { return grid * ppc; }
};

inline Geometry geometryOf(long ppc, long particles) {
  long grid = gridOf(ppc, particles);
  return {ppc, grid, grid * grid * ppc};
}

/// Particle k of the global system in the state main.cpp's System gives the
/// time step (its constructor, then resetStep): the same random stream, so
/// every rank generates all particles and keeps those in [first, last).
inline void generate(const Geometry &g, unsigned seed, long first, long last,
              Particle *out) {
  std::mt19937_64 rng(seed * 1000003u + g.ppc);
  Particle p;
  for (long k = 0; k < last; ++k) {
    drawParticle(p, k, g.ppc, g.grid, rng);
    // resetStep: the sums start from zero, pressure and sound speed stay.
    p.rho = p.wcount = p.wcount_dh = p.rho_dh = p.div_v = p.rot_v = 0;
    p.a[0] = p.a[1] = p.u_dt = p.h_dt = p.v_sig = 0;
    if (k >= first)
      out[k - first] = p;
  }
}

// ---- one rank's slab --------------------------------------------------------

/// Rows [r0, r1) of cells are the rank's own; it stores rows [lo, hi): its
/// own and one halo row from each neighbour.
struct Slab {
  long r0, r1, lo, hi;
};

inline Slab slabOf(const Geometry &g, int rank, int ranks) {
  long r0 = g.grid * rank / ranks, r1 = g.grid * (rank + 1) / ranks;
  return {r0, r1, std::max(0L, r0 - 1), std::min(g.grid, r1 + 1)};
}

/// The particles of a slab, contiguous in global order (row-major cells),
/// and the cell lists of its own cells, built as main.cpp builds them (the
/// same neighbour order, so that every sum adds in the same order).
struct Domain {
  Geometry g;
  Slab s;
  std::vector<Particle> store, initial;
  CellLists local, active; // own cells only

  Domain(const Geometry &geo, const Slab &slab, unsigned seed)
      : g(geo), s(slab) {
    store.resize((s.hi - s.lo) * g.rowParticles());
    generate(g, seed, s.lo * g.rowParticles(), s.hi * g.rowParticles(),
             store.data());
    initial = store;
    buildLists();
  }
  /// The first particle of cell (cx, cy), which must be stored here.
  Particle *cell(long cx, long cy) {
    return &store[((cy - s.lo) * g.grid + cx) * g.ppc];
  }
  /// Row r's particles, or null when the slab does not store it.
  Particle *row(long r) { return r >= s.lo && r < s.hi ? cell(0, r) : nullptr; }
  void buildLists() {
    for (long cy = s.r0; cy < s.r1; ++cy)
      for (long cx = 0; cx < g.grid; ++cx) {
        ParticleList l, a;
        for (long k = 0; k < g.ppc; ++k)
          l.push_back(cell(cx, cy) + k);
        for (long dy = -1; dy <= 1; ++dy)
          for (long dx = -1; dx <= 1; ++dx)
            if (cx + dx >= 0 && cy + dy >= 0 && cx + dx < g.grid &&
                cy + dy < g.grid)
              for (long k = 0; k < g.ppc; ++k)
                a.push_back(cell(cx + dx, cy + dy) + k);
        local.push_back(std::move(l));
        active.push_back(std::move(a));
      }
  }
  /// Back to the initial state, in place (the lists point into store).
  void reset() { std::copy(initial.begin(), initial.end(), store.begin()); }
  long ownParticles() const { return (s.r1 - s.r0) * g.rowParticles(); }
  Particle *own() { return cell(0, s.r0); }
};

// ---- the halo exchange ------------------------------------------------------

/// The neighbours of a slab (MPI_PROC_NULL at the domain's edge) and the
/// particle as one MPI datatype (the struct's bytes).
struct Halo {
  MPI_Comm comm;
  MPI_Datatype particle;
  int below, above;
  /// --skip-force-exchange (for the test): force then reads the halo
  /// particles' densities of the step before, and the check must fail.
  bool beforeForce = true;
  /// --overlap off: the region builds sweep every row after the exchange,
  /// none before it (to compare).
  bool innerFirst = true;
  /// --edge-rows K: the rows on each side with a neighbour that the region
  /// builds sweep after the exchange (at least the one that sees the halo);
  /// 0: edgeRowsFor's choice.
  long edgeRows = 0;
};

/// The rows per side swept after the exchange when --edge-rows does not
/// say: enough for 2^16 particles, so that the kernels after the exchange
/// fill the GPU. Measured on a 2 x H200 node (docs/benchmarks.md, "The
/// exchange beside the inner rows"): the best of 1, 2 and 4 rows was 4 at
/// ppc 256 (16,384 particles a row) and 2 at ppc 1024 (32,768).
inline long edgeRowsFor(const Geometry &g) {
  const long row = g.rowParticles();
  return std::max(1L, (65536 + row - 1) / row);
}

/// Sends the slab's edge rows to the neighbours and receives their edge
/// rows into the halo rows: whole structs, before density and before force.
inline void exchange(Domain &d, const Halo &h) {
  const int n = static_cast<int>(d.g.rowParticles());
  const bool hasBelow = h.below != MPI_PROC_NULL,
             hasAbove = h.above != MPI_PROC_NULL;
  // Upwards: my top row to the rank above, the rank below's top row into my
  // lower halo; then downwards.
  MPI_Sendrecv(hasAbove ? d.row(d.s.r1 - 1) : nullptr, hasAbove ? n : 0,
               h.particle, h.above, 0, hasBelow ? d.row(d.s.r0 - 1) : nullptr,
               hasBelow ? n : 0, h.particle, h.below, 0, h.comm,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(hasBelow ? d.row(d.s.r0) : nullptr, hasBelow ? n : 0, h.particle,
               h.below, 1, hasAbove ? d.row(d.s.r1) : nullptr, hasAbove ? n : 0,
               h.particle, h.above, 1, h.comm, MPI_STATUS_IGNORE);
}

/// Bytes one rank sends per exchange.
inline double haloBytes(const Domain &d, const Halo &h) {
  int sides = (h.below != MPI_PROC_NULL) + (h.above != MPI_PROC_NULL);
  return double(sides) * d.g.rowParticles() * sizeof(Particle);
}

} // namespace slabs
} // namespace sph

#endif // SPH_DOMAIN_H
