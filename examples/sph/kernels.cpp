// The SPH kernels as a scientist writes them: loops over lists of pointers
// to 272-byte particles, the physics in functions of two particles, and
// soaview attributes on the loops. Plain clang++ ignores the attributes;
// soaview-clang++ gives each loop a view of exactly the fields it uses
// (paper Listings 1 and 3). Compiled once per build into namespace SPH_NS.
//
// The local-active pair loops carry soa_conversion_offload_compute: built
// with -fopenmp and an offload target they run on the device (the active
// view is hoisted out and copied once per cell); without -fopenmp they are
// host views. The linear kernels (kicks, drift) visit each particle once, so
// soaview's profitability rule leaves them as written (docs/attributes.md).
#include "kernels.h"

#include <soaview/sync.h>

#ifndef SPH_NS
#error "compile with -DSPH_NS=<build name>"
#endif

namespace sph {
namespace SPH_NS {

// ---- density ---------------------------------------------------------------
// rho_i = sum_j m_j W(r_ij, H_i), with the neighbour count, the derivatives
// in H and the divergence and curl of the velocity.

static void densityPair(Particle *pi, const Particle *pj, double dx, double dy,
                        double r2, double mask) {
  const double H = pi->h;
  const double r = std::sqrt(r2);
  const double q = 2.5 * r / H;
  const double norm = quarticNorm(H);
  const double w = mask * norm * quarticW(q);
  const double dwdr = mask * norm * quarticDW(q) * 2.5 / H;
  const double dwdh = -(2 * w + r * dwdr) / H;
  pi->rho += pj->mass * w;
  pi->wcount += w;
  pi->wcount_dh += dwdh;
  pi->rho_dh += pj->mass * dwdh;
  const double rinv = r2 > 0 ? 1 / r : 0.0;
  const double dvx = pi->v[0] - pj->v[0], dvy = pi->v[1] - pj->v[1];
  const double fac = pj->mass * dwdr * rinv;
  pi->div_v -= fac * (dvx * dx + dvy * dy);
  pi->rot_v += fac * (dvx * dy - dvy * dx);
}

// Branching: the pair is computed only inside the support radius.
void densityBranching(ParticleList &local, ParticleList &active) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Particle *pj : active) {
      const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
      const double r2 = dx * dx + dy * dy;
      if (r2 < pi->h * pi->h)
        densityPair(pi, pj, dx, dy, r2, 1.0);
    }
  }
}

// Masking: every pair is computed and multiplied by 0 outside the radius.
void densityMasking(ParticleList &local, ParticleList &active) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Particle *pj : active) {
      const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
      const double r2 = dx * dx + dy * dy;
      densityPair(pi, pj, dx, dy, r2, r2 < pi->h * pi->h ? 1.0 : 0.0);
    }
  }
}

// Active-local loop order: the outer loop reads, the inner loop writes.
void densityActiveLocal(ParticleList &local, ParticleList &active) {
  [[clang::soa_conversion]]
  for (const Particle *pj : active) {
    [[clang::soa_conversion_hoist(1)]]
    for (Particle *pi : local) {
      const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
      const double r2 = dx * dx + dy * dy;
      if (r2 < pi->h * pi->h)
        densityPair(pi, pj, dx, dy, r2, 1.0);
    }
  }
}

// ---- force -----------------------------------------------------------------
// Symmetric pressure force with Balsara-limited artificial viscosity:
// acceleration, du/dt, dH/dt and the maximal signal velocity of local i.

static void forcePair(Particle *pi, const Particle *pj, double dx, double dy,
                      double r2, double mask) {
  const double r = std::sqrt(r2);
  const double rinv = r2 > 0 ? 1 / r : 0.0;
  const double Hi = pi->h, Hj = pj->h;
  const double dWi = mask * quarticNorm(Hi) * quarticDW(2.5 * r / Hi) * 2.5 / Hi;
  const double dWj = mask * quarticNorm(Hj) * quarticDW(2.5 * r / Hj) * 2.5 / Hj;
  const double Pi = pi->pressure / (pi->rho * pi->rho) * pi->f_grad;
  const double Pj = pj->pressure / (pj->rho * pj->rho) * pj->f_grad;
  const double dvx = pi->v_full[0] - pj->v_full[0];
  const double dvy = pi->v_full[1] - pj->v_full[1];
  const double dvdr = dvx * dx + dvy * dy;
  const double mu = dvdr < 0 ? dvdr * rinv : 0.0;
  const double vsig = pi->soundspeed + pj->soundspeed - 3 * mu;
  const double rhoij = 0.5 * (pi->rho + pj->rho);
  const double visc = -0.25 * kAlpha * vsig * mu / rhoij * (pi->balsara + pj->balsara);
  const double dWij = 0.5 * (dWi + dWj);
  const double acc = pj->mass * (Pi * dWi + Pj * dWj + visc * dWij) * rinv;
  pi->a[0] -= acc * dx;
  pi->a[1] -= acc * dy;
  pi->u_dt += pj->mass * (Pi * dWi + 0.5 * visc * dWij) * dvdr * rinv;
  pi->h_dt -= pj->mass / pj->rho * dvdr * dWi * rinv;
  pi->v_sig = std::fmax(pi->v_sig, mask * vsig);
}

void forceBranching(ParticleList &local, ParticleList &active) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Particle *pj : active) {
      const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
      const double r2 = dx * dx + dy * dy;
      if (r2 < pi->h * pi->h || r2 < pj->h * pj->h)
        forcePair(pi, pj, dx, dy, r2, 1.0);
    }
  }
}

void forceMasking(ParticleList &local, ParticleList &active) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Particle *pj : active) {
      const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
      const double r2 = dx * dx + dy * dy;
      const bool in = r2 < pi->h * pi->h || r2 < pj->h * pj->h;
      forcePair(pi, pj, dx, dy, r2, in ? 1.0 : 0.0);
    }
  }
}

// ---- sweeps ------------------------------------------------------------------
// The pair loops above written over all cells: soa_conversion_offload_compute
// on the loop over cells offloads the whole sweep -- one gather of every
// particle, one transfer each way, one launch (docs/offload.md, "Sweeps").
// Compiled without an offload target, the nest converts for the host, cell
// by cell. The active-local order has no sweep: its inner loop writes, so
// soaview would leave it on the host (with a remark saying why).

void densityBranchingSweep(CellLists &locals, CellLists &actives) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *pi : locals[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *pj : actives[c]) {
        const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
        const double r2 = dx * dx + dy * dy;
        if (r2 < pi->h * pi->h)
          densityPair(pi, pj, dx, dy, r2, 1.0);
      }
    }
  }
}

void densityMaskingSweep(CellLists &locals, CellLists &actives) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *pi : locals[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *pj : actives[c]) {
        const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
        const double r2 = dx * dx + dy * dy;
        densityPair(pi, pj, dx, dy, r2, r2 < pi->h * pi->h ? 1.0 : 0.0);
      }
    }
  }
}

void forceBranchingSweep(CellLists &locals, CellLists &actives) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *pi : locals[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *pj : actives[c]) {
        const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
        const double r2 = dx * dx + dy * dy;
        if (r2 < pi->h * pi->h || r2 < pj->h * pj->h)
          forcePair(pi, pj, dx, dy, r2, 1.0);
      }
    }
  }
}

void forceMaskingSweep(CellLists &locals, CellLists &actives) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *pi : locals[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *pj : actives[c]) {
        const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
        const double r2 = dx * dx + dy * dy;
        const bool in = r2 < pi->h * pi->h || r2 < pj->h * pj->h;
        forcePair(pi, pj, dx, dy, r2, in ? 1.0 : 0.0);
      }
    }
  }
}

// ---- linear kernels (leapfrog: kick, drift, kick) ----------------------------

static void kick1Particle(Particle *p) {
  p->v[0] += 0.5 * kDt * p->a[0];
  p->v[1] += 0.5 * kDt * p->a[1];
  p->u += 0.5 * kDt * p->u_dt;
}

void kick1(ParticleList &local, ParticleList &) {
  [[clang::soa_conversion]]
  for (Particle *p : local)
    kick1Particle(p);
}

static void driftParticle(Particle *p) {
  p->x[0] += kDt * p->v_full[0];
  p->x[1] += kDt * p->v_full[1];
  p->h += kDt * p->h_dt;
}

void drift(ParticleList &local, ParticleList &) {
  [[clang::soa_conversion]]
  for (Particle *p : local)
    driftParticle(p);
}

// The second kick also predicts velocity and energy, updates the equation
// of state and resets the force accumulators.
static void kick2Particle(Particle *p) {
  p->v[0] += 0.5 * kDt * p->a[0];
  p->v[1] += 0.5 * kDt * p->a[1];
  p->u += 0.5 * kDt * p->u_dt;
  p->v_full[0] = p->v[0];
  p->v_full[1] = p->v[1];
  p->u_full = p->u;
  p->pressure = (kGamma - 1) * p->rho * p->u;
  p->soundspeed = std::sqrt(kGamma * p->pressure / p->rho);
  p->a[0] = p->a[1] = 0;
  p->u_dt = p->h_dt = p->v_sig = 0;
}

void kick2(ParticleList &local, ParticleList &) {
  [[clang::soa_conversion]]
  for (Particle *p : local)
    kick2Particle(p);
}

// ---- linear sweeps and time steps -------------------------------------------
// The linear kernels written over all cells, like the pair sweeps above: one
// gather, one transfer each way and one launch for all cells. Only the time
// steps below call them (the kernel table's kick and drift rows run cell by
// cell).

// A time step starts the density sums again (SWIFT's hydro_init_part; the
// CPU builds' steps do the same in the driver, main.cpp).
static void initDensity(Particle *p) {
  p->rho = p->wcount = p->wcount_dh = p->rho_dh = p->div_v = p->rot_v = 0;
}

void initSweep(CellLists &locals) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *p : locals[c])
      initDensity(p);
  }
}

void kick1Sweep(CellLists &locals) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *p : locals[c])
      kick1Particle(p);
  }
}

void driftSweep(CellLists &locals) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *p : locals[c])
      driftParticle(p);
  }
}

void kick2Sweep(CellLists &locals) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (Particle *p : locals[c])
      kick2Particle(p);
  }
}

// `steps` time steps (init, density, force, kick1, drift, kick2), one sweep
// per kernel (each its own gather, transfers
// and scatter); the Region versions run the same loop as a view region,
// whose sweeps share one set of device buffers: the particles are gathered
// and copied to the device once and scattered once, at the region's end.
// (Compilers that do not know soa_conversion_region ignore it:
// -Wno-unknown-attributes.)

void stepBranchingLoops(CellLists &locals, CellLists &actives, int steps) {
  for (int s = 0; s < steps; ++s) {
    initSweep(locals);
    densityBranchingSweep(locals, actives);
    forceBranchingSweep(locals, actives);
    kick1Sweep(locals);
    driftSweep(locals);
    kick2Sweep(locals);
  }
}

void stepBranchingRegion(CellLists &locals, CellLists &actives, int steps) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < steps; ++s) {
    initSweep(locals);
    densityBranchingSweep(locals, actives);
    forceBranchingSweep(locals, actives);
    kick1Sweep(locals);
    driftSweep(locals);
    kick2Sweep(locals);
  }
}

void stepMaskingLoops(CellLists &locals, CellLists &actives, int steps) {
  for (int s = 0; s < steps; ++s) {
    initSweep(locals);
    densityMaskingSweep(locals, actives);
    forceMaskingSweep(locals, actives);
    kick1Sweep(locals);
    driftSweep(locals);
    kick2Sweep(locals);
  }
}

void stepMaskingRegion(CellLists &locals, CellLists &actives, int steps) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < steps; ++s) {
    initSweep(locals);
    densityMaskingSweep(locals, actives);
    forceMaskingSweep(locals, actives);
    kick1Sweep(locals);
    driftSweep(locals);
    kick2Sweep(locals);
  }
}

// The time step with its halo exchanges (soaview-sph-mpi): one view region
// for all steps, as above, and the exchange inside it, before the density
// and the force of the edge rows. The exchange reads and writes the
// particles as structs and lies in the driver, where soaview cannot follow
// it: soaview::sync writes the fields of the particles it sends back before
// it and gathers those it receives again after it, and every other
// particle stays in the region's buffers. Density and force sweep the inner
// cells before the exchange (they need no halo particle) and the edge rows
// after it: sweeps over part of the region's cells, which its buffers hold,
// so that with CUDA the exchange runs while the inner cells compute.
// The exchange before density comes after init, which zeroes the density
// sums of the rows it sends: the halo's sums are not read before the
// exchange before force sends them again.

void exchangedBranching(CellLists &locals, CellLists &actives, Exchange &x,
                        int steps) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < steps; ++s) {
    initSweep(locals);
    densityBranchingSweep(x.inner.local, x.inner.active);
    soaview::sync(x.sent, x.received, [&] { x.run(x.context); });
    densityBranchingSweep(x.low.local, x.low.active);
    densityBranchingSweep(x.high.local, x.high.active);
    forceBranchingSweep(x.inner.local, x.inner.active);
    if (x.beforeForce)
      soaview::sync(x.sent, x.received, [&] { x.run(x.context); });
    forceBranchingSweep(x.low.local, x.low.active);
    forceBranchingSweep(x.high.local, x.high.active);
    kick1Sweep(locals);
    driftSweep(locals);
    kick2Sweep(locals);
  }
}

void exchangedMasking(CellLists &locals, CellLists &actives, Exchange &x,
                      int steps) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < steps; ++s) {
    initSweep(locals);
    densityMaskingSweep(x.inner.local, x.inner.active);
    soaview::sync(x.sent, x.received, [&] { x.run(x.context); });
    densityMaskingSweep(x.low.local, x.low.active);
    densityMaskingSweep(x.high.local, x.high.active);
    forceMaskingSweep(x.inner.local, x.inner.active);
    if (x.beforeForce)
      soaview::sync(x.sent, x.received, [&] { x.run(x.context); });
    forceMaskingSweep(x.low.local, x.low.active);
    forceMaskingSweep(x.high.local, x.high.active);
    kick1Sweep(locals);
    driftSweep(locals);
    kick2Sweep(locals);
  }
}

static const KernelEntry kEntries[] = {
    {"density", "branching", true, densityBranching, densityBranchingSweep},
    {"density", "masking", true, densityMasking, densityMaskingSweep},
    {"density", "active-local", true, densityActiveLocal, nullptr},
    {"force", "branching", true, forceBranching, forceBranchingSweep},
    {"force", "masking", true, forceMasking, forceMaskingSweep},
    {"kick1", "streaming", false, kick1, nullptr},
    {"kick2", "streaming", false, kick2, nullptr},
    {"drift", "streaming", false, drift, nullptr},
};

static const StepEntry kSteps[] = {
    {"branching", stepBranchingLoops, stepBranchingRegion, exchangedBranching},
    {"masking", stepMaskingLoops, stepMaskingRegion, exchangedMasking},
};

KernelTable table() {
  return {kEntries, sizeof(kEntries) / sizeof(kEntries[0]), kSteps,
          sizeof(kSteps) / sizeof(kSteps[0])};
}

} // namespace SPH_NS
} // namespace sph
