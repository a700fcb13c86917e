// swift-step: one SWIFT hydro time step as sweeps over cells (our code; the
// physics is SWIFT's, called through its unchanged headers).
//
// Built twice into one program:
//   -DSTEP_NS=plain_step -DSWIFT_STEP_PLAIN : clang++ -fopenmp, OpenMP over
//       cells (the #pragma below), soaview's attributes ignored;
//   -DSTEP_NS=conv_step : soaview-clang++ (region on the host threads, or
//       offloaded), or soaview-translate --backend=cuda + nvcc.
// Fixed smoothing lengths: the ghost does not iterate h (SWIFT would); h only
// changes through hydro_predict_extra in the drift, as in SWIFT.
#include "prelude.h"
// The CUDA build (build-gpu.sh) pastes SWIFT's kernel_hydro.h, unchanged, in
// place of the next line: soaview-translate rewrites only its main file and
// declares constant tables (kernel_coeffs) for the device only there.
// @swift-step: kernel_hydro.h
#ifdef SWIFT_STEP_KERNEL_PASTED
// SWIFT's kernel_root macro names kernel_coeffs, and SWIFT's hydro.h (a header
// soaview-translate does not rewrite) uses it: soaview's CUDA backend refuses
// a table named inside a macro (docs/real-codes.md, "SWIFT's step on the
// GPU"). The same value, with the table named in this file:
static inline float swift_step_kernel_root(void) {
  return (float)(kernel_coeffs[kernel_degree]) * kernel_constant *
         kernel_gamma_inv_dim;
}
#undef kernel_root
#define kernel_root (swift_step_kernel_root())
#endif
#include "particle.h"

#ifndef STEP_NS
#error "define STEP_NS"
#endif

namespace STEP_NS {

#ifdef SWIFT_STEP_PLAIN
const char *const build_name = "plain";
#else
const char *const build_name = SWIFT_STEP_BUILD_NAME;
#endif

// Minimal-image separation in a periodic box of side `box`.
static inline float periodic(double d, double box) {
  if (d > 0.5 * box)
    d -= box;
  else if (d < -0.5 * box)
    d += box;
  return (float)d;
}

// ---- linear phases
// -----------------------------------------------------------

void initSweep(CellLists &locals, const Params &prm) {
#ifdef SWIFT_STEP_PLAIN
#pragma omp parallel for schedule(dynamic, 1)
#endif
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *p : locals[c])
      hydro_init_part(p, &prm.hs);
  }
}

// SWIFT's ghost with h kept fixed: end of the density loop, then what the
// next loop needs.
static inline void ghostParticle(Particle *p, const Params &prm) {
  struct xpart xp = {}; // not read by prepare_gradient/prepare_force here
  hydro_end_density(p, &prm.cosmo);
#if SWIFT_STEP_HAS_GRADIENT
  hydro_prepare_gradient(p, &xp, &prm.cosmo, &prm.props, &prm.pressure_floor);
#else
  hydro_prepare_force(p, &xp, &prm.cosmo, &prm.props, &prm.pressure_floor,
                      prm.dt, prm.dt);
  hydro_reset_acceleration(p);
#endif
}

void ghostSweep(CellLists &locals, const Params &prm) {
#ifdef SWIFT_STEP_PLAIN
#pragma omp parallel for schedule(dynamic, 1)
#endif
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *p : locals[c])
      ghostParticle(p, prm);
  }
}

#if SWIFT_STEP_HAS_GRADIENT
void extraGhostSweep(CellLists &locals, const Params &prm) {
#ifdef SWIFT_STEP_PLAIN
#pragma omp parallel for schedule(dynamic, 1)
#endif
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *p : locals[c]) {
      struct xpart xp = {}; // not read by prepare_force in these schemes
      hydro_end_gradient(p);
      hydro_prepare_force(p, &xp, &prm.cosmo, &prm.props, &prm.pressure_floor,
                          prm.dt, prm.dt);
      hydro_reset_acceleration(p);
    }
  }
}
#endif

void endForceSweep(CellLists &locals, const Params &prm) {
#ifdef SWIFT_STEP_PLAIN
#pragma omp parallel for schedule(dynamic, 1)
#endif
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *p : locals[c])
      hydro_end_force(p, &prm.cosmo);
  }
}

// Kick then drift by one full step dt (symplectic Euler: v += a dt, then
// x += v dt), with SWIFT's hydro_kick_extra and hydro_predict_extra. SWIFT
// keeps v_full and u_full in the xpart; here the particle is synchronised at
// every kick (its predicted v and u are its full-step values, as after
// SWIFT's hydro_reset_predicted_values), so the xpart is a local set from the
// part, and the part takes the kicked values back.
static inline void kickDriftParticle(Particle *p, const Params &prm) {
  const float dt = prm.dt;
  struct xpart xp = {};
  for (int k = 0; k < 3; ++k)
    xp.v_full[k] = p->v[k] + p->a_hydro[k] * dt; // kick
  xp.u_full = p->u;
  hydro_kick_extra(p, &xp, dt, 0.f, 0.f, dt, 0.f, &prm.cosmo, &prm.props,
                   &prm.entropy_floor);
  for (int k = 0; k < 3; ++k) { // drift
    p->v[k] = xp.v_full[k];
    p->x[k] += xp.v_full[k] * dt;
  }
  hydro_predict_extra(p, &xp, dt, dt, 0.f, &prm.cosmo, &prm.props,
                      &prm.entropy_floor, &prm.pressure_floor);
}

void kickDriftSweep(CellLists &locals, const Params &prm) {
#ifdef SWIFT_STEP_PLAIN
#pragma omp parallel for schedule(dynamic, 1)
#endif
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *p : locals[c])
      kickDriftParticle(p, prm);
  }
}

// ---- pair phases (SWIFT's non-symmetric interactions, pi written) ----------
// Cut-offs as in SWIFT's DOPAIR1/DOSELF1: density and gradient r2 < hi^2 g^2,
// force r2 < max(hi, hj)^2 g^2; a particle does not interact with itself.

// The minimal-image separation of pi from pj in dx; returns its square.
template <class PI, class PJ>
static inline float separation(const PI *pi, const PJ *pj, double box,
                               float dx[3]) {
  for (int k = 0; k < 3; ++k)
    dx[k] = periodic(pi->x[k] - pj->x[k], box);
  return dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2];
}

void densitySweep(CellLists &locals, CellLists &actives, const Params &prm) {
  const float a = prm.cosmo.a, H = prm.cosmo.H;
  const double box = prm.box;
#ifdef SWIFT_STEP_PLAIN
#pragma omp parallel for schedule(dynamic, 1)
#endif
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *pi : locals[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *pj : actives[c]) {
        float dx[3];
        const float r2 = separation(pi, pj, box, dx);
        const float hi = pi->h;
        if (r2 < hi * hi * kernel_gamma2 && pi->id != pj->id)
          runner_iact_nonsym_density(r2, dx, hi, pj->h, pi, pj, a, H);
      }
    }
  }
}

#if SWIFT_STEP_HAS_GRADIENT
void gradientSweep(CellLists &locals, CellLists &actives, const Params &prm) {
  const float a = prm.cosmo.a, H = prm.cosmo.H;
  const double box = prm.box;
#ifdef SWIFT_STEP_PLAIN
#pragma omp parallel for schedule(dynamic, 1)
#endif
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *pi : locals[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (Particle *pj : actives[c]) { // SWIFT's gradient takes pj non-const
        float dx[3];
        const float r2 = separation(pi, pj, box, dx);
        const float hi = pi->h;
        if (r2 < hi * hi * kernel_gamma2 && pi->id != pj->id)
          runner_iact_nonsym_gradient(r2, dx, hi, pj->h, pi, pj, a, H);
      }
    }
  }
}
#endif

void forceSweep(CellLists &locals, CellLists &actives, const Params &prm) {
  const float a = prm.cosmo.a, H = prm.cosmo.H;
  const double box = prm.box;
#ifdef SWIFT_STEP_PLAIN
#pragma omp parallel for schedule(dynamic, 1)
#endif
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *pi : locals[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *pj : actives[c]) {
        float dx[3];
        const float r2 = separation(pi, pj, box, dx);
        const float hi = pi->h, hj = pj->h;
        if ((r2 < hi * hi * kernel_gamma2 || r2 < hj * hj * kernel_gamma2) &&
            pi->id != pj->id)
          runner_iact_nonsym_force(r2, dx, hi, hj, pi, pj, a, H);
      }
    }
  }
}

// ---- the time step
// -----------------------------------------------------------

// The steps in one view region: the particles' fields stay in the region's
// (device) buffers from the first sweep to the end. -DSWIFT_STEP_SWEEPS: the
// same sweeps without the region, each gathering and scattering its own.
void runSteps(CellLists &locals, CellLists &actives, const Params &prm,
              int steps) {
#ifndef SWIFT_STEP_SWEEPS
  [[clang::soa_conversion_region]]
#endif
  for (int s = 0; s < steps; ++s) {
    initSweep(locals, prm);
    densitySweep(locals, actives, prm);
    ghostSweep(locals, prm);
#if SWIFT_STEP_HAS_GRADIENT
    gradientSweep(locals, actives, prm);
    extraGhostSweep(locals, prm);
#endif
    forceSweep(locals, actives, prm);
    endForceSweep(locals, prm);
    kickDriftSweep(locals, prm);
  }
}

} // namespace STEP_NS
