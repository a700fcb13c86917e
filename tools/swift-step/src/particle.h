// swift-step: our particle, cell lists and run parameters around SWIFT's
// unchanged hydro headers (copied from a SWIFT checkout at build time; the
// scheme is chosen by -DSWIFT_STEP_SCHEME_* through our config.h).
#pragma once
#include "prelude.h"

#include "hydro.h" // SWIFT's: part/xpart of the scheme, hydro_*, runner_iact_*

// The element of every loop is SWIFT's own `struct part`. (Our first design,
// `struct Particle { part p; xpart xp; }` with SWIFT's functions called on
// &p->p, makes soaview view the member `p` whole and refuse the pair sweeps;
// `struct Particle : part` is refused too -- docs/real-codes.md, "SWIFT's step
// on the GPU".)
// SWIFT's xpart is needed only by the kick (hydro_kick_extra: xp->u_full;
// v_full): the kick-drift sweep keeps it in a local per particle, set from
// the part at the start of the kick (see kickDriftParticle in step.cpp).
using Particle = struct part;

using ParticleList = std::vector<Particle *>;
using CellLists = std::vector<ParticleList>;

// What SWIFT's engine hands the hydro functions, for a non-cosmological run
// without floors. Plain values only (SWIFT's struct cosmology holds table
// pointers that no hydro function we call reads).
struct Params {
  struct cosmology cosmo;
  struct hydro_props props;
  struct entropy_floor_properties entropy_floor;
  struct pressure_floor_props pressure_floor;
  struct hydro_space hs;
  float dt;   // time step (drift, kick, therm: all the same here)
  double box; // periodic box side
};

#if defined(SPHENIX_SPH)
#define SWIFT_STEP_SCHEME_NAME "SPHENIX"
#elif defined(HOPKINS_PU_SPH)
#define SWIFT_STEP_SCHEME_NAME "PressureEnergy"
#else
#define SWIFT_STEP_SCHEME_NAME "Minimal"
#endif

#ifdef EXTRA_HYDRO_LOOP
#define SWIFT_STEP_HAS_GRADIENT 1
#else
#define SWIFT_STEP_HAS_GRADIENT 0
#endif

// The time-step functions, built twice: namespace plain_step (clang++ with
// OpenMP over cells, attributes ignored) and namespace conv_step (soaview).
#define SWIFT_STEP_DECLARE(NS)                                                 \
  namespace NS {                                                               \
  void runSteps(CellLists &locals, CellLists &actives, const Params &prm,      \
                int steps);                                                    \
  extern const char *const build_name;                                         \
  }
SWIFT_STEP_DECLARE(plain_step)
SWIFT_STEP_DECLARE(conv_step)
