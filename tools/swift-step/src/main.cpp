// swift-step driver (our code): sets up a periodic box of SWIFT gas
// particles, runs the time step of the build under test (conv_step) and the
// plain build's (plain_step, clang++ -fopenmp), compares every quantity per
// particle within stated relative tolerances, then times both.
//
//   swift-step [--side N] [--steps S] [--reps R] [--threads T]
//              [--eta E] [--tolerance exact|gpu] [--no-plain-timing]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <omp.h>

#include "particle.h"

// SWIFT's minmax.h macros; this file uses std::max/std::min.
#undef max
#undef min

namespace {

struct Setup {
  std::vector<Particle> parts;
  Params prm;
  int nc = 0; // cells per side
};

double rnd(unsigned long long &s) { // deterministic jitter
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(s >> 11) / 9007199254740992.0;
}

Setup makeSetup(int side, double eta) {
  Setup S;
  const double box = 1.0, dx = box / side;
  const float gamma = hydro_gamma;
  const float u0 = 1.f / (gamma * (gamma - 1.f)); // sound speed 1 at rho 1
  std::memset(&S.prm, 0, sizeof S.prm);
  struct cosmology &c = S.prm.cosmo; // SWIFT's no-cosmology factors
  c.a = c.a_inv = c.a2_inv = c.a3_inv = 1.;
  c.a_factor_internal_energy = c.a_factor_pressure = 1.;
  c.a_factor_sound_speed = c.a_factor_Balsara_eps = 1.;
  c.a_factor_mu = c.a_factor_grav_accel = c.a_factor_hydro_accel = 1.;
  c.H = 0.;
  struct hydro_props &hp = S.prm.props;
  hp.eta_neighbours = eta;
  hp.h_max = 1e30f;
  hp.CFL_condition = 0.1f;
  hp.minimal_internal_energy = 0.f;
  viscosity_init_no_hydro(&hp.viscosity); // SWIFT's scheme defaults
  diffusion_init_no_hydro(&hp.diffusion);
  S.prm.box = box;
  S.prm.dt = (float)(0.05 * dx); // CFL-like: c_s = 1, |v| << 1
  const std::size_t n = (std::size_t)side * side * side;
  S.parts.resize(n);
  std::vector<struct xpart> xps(n);
  unsigned long long seed = 12345;
  const double twopi = 2 * M_PI;
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j)
      for (int k = 0; k < side; ++k) {
        const std::size_t id = ((std::size_t)i * side + j) * side + k;
        Particle &p = S.parts[id];
        std::memset(&p, 0, sizeof p);
        p.id = (long long)id;
        const double x = (i + 0.5 + 0.2 * (rnd(seed) - 0.5)) * dx;
        const double y = (j + 0.5 + 0.2 * (rnd(seed) - 0.5)) * dx;
        const double z = (k + 0.5 + 0.2 * (rnd(seed) - 0.5)) * dx;
        p.x[0] = x, p.x[1] = y, p.x[2] = z;
        p.v[0] =
            (float)(0.05 * std::sin(twopi * y) + 0.03 * std::sin(twopi * x));
        p.v[1] = (float)(0.05 * std::sin(twopi * z));
        p.v[2] = (float)(0.05 * std::sin(twopi * x));
        p.mass = (float)(box * box * box / n);
        p.h = (float)(eta * dx);
        hydro_set_init_internal_energy(
            &p, u0 * (float)(1 + 0.1 * std::sin(twopi * x)));
        hydro_first_init_part(&p, &xps[id]);
        hydro_convert_quantities(&p, &xps[id], &S.prm.cosmo, &S.prm.props,
                                 &S.prm.pressure_floor);
      }
  const double support = kernel_gamma * eta * dx;
  S.nc = std::max(3, (int)std::floor(box / (1.15 * support)));
  return S;
}

// locals[c]: the particles of cell c; actives[c]: those of c and its 26
// periodic neighbours (cells fixed at the start: particles move << margin).
void buildCells(std::vector<Particle> &parts, int nc, double box,
                CellLists &locals, CellLists &actives) {
  locals.assign((std::size_t)nc * nc * nc, {});
  actives.assign(locals.size(), {});
  auto cellOf = [&](double x) {
    int c = (int)std::floor(x / box * nc);
    return ((c % nc) + nc) % nc;
  };
  for (Particle &p : parts)
    locals[((std::size_t)cellOf(p.x[0]) * nc + cellOf(p.x[1])) * nc +
           cellOf(p.x[2])]
        .push_back(&p);
  for (int i = 0; i < nc; ++i)
    for (int j = 0; j < nc; ++j)
      for (int k = 0; k < nc; ++k) {
        ParticleList &a = actives[((std::size_t)i * nc + j) * nc + k];
        for (int di = -1; di <= 1; ++di)
          for (int dj = -1; dj <= 1; ++dj)
            for (int dk = -1; dk <= 1; ++dk) {
              const ParticleList &l =
                  locals[((std::size_t)((i + di + nc) % nc) * nc +
                          (j + dj + nc) % nc) *
                             nc +
                         (k + dk + nc) % nc];
              a.insert(a.end(), l.begin(), l.end());
            }
      }
}

double neighboursPerParticle(const CellLists &locals, const CellLists &actives,
                             double box) {
  double total = 0, n = 0;
  for (std::size_t c = 0; c < locals.size(); ++c)
    for (const Particle *pi : locals[c]) {
      const float hig2 = pi->h * pi->h * kernel_gamma2;
      for (const Particle *pj : actives[c]) {
        double r2 = 0;
        for (int k = 0; k < 3; ++k) {
          double d = pi->x[k] - pj->x[k];
          if (d > 0.5 * box)
            d -= box;
          if (d < -0.5 * box)
            d += box;
          r2 += d * d;
        }
        if (pi != pj && r2 < hig2)
          total += 1;
      }
      n += 1;
    }
  return total / n;
}

// ---- comparison
// ----------------------------------------------------------------
struct Quantity {
  const char *name;
  int dims;
  double (*get)(const Particle &, int);
  double tolGpu; // relative tolerance for builds whose device math may differ
};

const Quantity kQuantities[] = {
    {"x", 3, [](const Particle &p, int k) { return p.x[k]; }, 1e-6},
    {"v", 3, [](const Particle &p, int k) { return (double)p.v[k]; }, 1e-4},
    {"a_hydro", 3,
     [](const Particle &p, int k) { return (double)p.a_hydro[k]; }, 2e-3},
    {"h", 1, [](const Particle &p, int) { return (double)p.h; }, 1e-5},
    {"rho", 1,
     [](const Particle &p, int) {
       return (double)hydro_get_comoving_density(&p);
     },
     1e-5},
    {"pressure", 1,
     [](const Particle &p, int) {
       return (double)hydro_get_comoving_pressure(&p);
     },
     1e-5},
    {"soundspeed", 1,
     [](const Particle &p, int) {
       return (double)hydro_get_comoving_soundspeed(&p);
     },
     1e-5},
    {"u", 1, [](const Particle &p, int) { return (double)p.u; }, 1e-5},
    {"u_dt", 1, [](const Particle &p, int) { return (double)p.u_dt; }, 2e-3},
    {"h_dt", 1, [](const Particle &p, int) { return (double)p.force.h_dt; },
     2e-3},
#if defined(SPHENIX_SPH)
    {"v_sig", 1,
     [](const Particle &p, int) { return (double)p.viscosity.v_sig; }, 1e-4},
#else
    {"v_sig", 1, [](const Particle &p, int) { return (double)p.force.v_sig; },
     1e-4},
#endif
#if defined(HOPKINS_PU_SPH)
    {"pressure_bar", 1,
     [](const Particle &p, int) { return (double)p.pressure_bar; }, 1e-5},
#endif
#if defined(SPHENIX_SPH)
    {"viscosity.alpha", 1,
     [](const Particle &p, int) { return (double)p.viscosity.alpha; }, 1e-3},
    {"diffusion.alpha", 1,
     [](const Particle &p, int) { return (double)p.diffusion.alpha; }, 1e-3},
#endif
};

// |a - b| <= tol * max(|a|, |b|, rms of the quantity): a relative tolerance,
// measured against the quantity's typical size where a value is near zero.
// tol 0: bit for bit (NaNs compare equal only to NaNs).
bool compare(const std::vector<Particle> &ref, const std::vector<Particle> &got,
             bool gpu) {
  bool ok = true;
  std::printf("check against the plain build (%s):\n",
              gpu ? "stated GPU tolerances" : "bit for bit");
  for (const Quantity &q : kQuantities) {
    const double tol = gpu ? q.tolGpu : 0.0;
    double rms = 0;
    for (const Particle &p : ref)
      for (int k = 0; k < q.dims; ++k)
        rms += q.get(p, k) * q.get(p, k);
    rms = std::sqrt(rms / (ref.size() * q.dims));
    double worst = 0;
    std::size_t bad = 0, worstI = 0;
    for (std::size_t i = 0; i < ref.size(); ++i)
      for (int k = 0; k < q.dims; ++k) {
        const double a = q.get(ref[i], k), b = q.get(got[i], k);
        if (std::isnan(a) || std::isnan(b)) {
          if (!(std::isnan(a) && std::isnan(b))) {
            ++bad;
            worst = INFINITY;
            worstI = i;
          }
          continue;
        }
        const double scale = std::max({std::fabs(a), std::fabs(b), rms});
        const double rel = scale > 0 ? std::fabs(a - b) / scale : 0.0;
        if (rel > worst)
          worst = rel, worstI = i;
        if (rel > tol)
          ++bad;
      }
    std::printf("  %-16s tol %-8.1e max rel diff %.3e %s\n", q.name, tol, worst,
                bad ? "FAIL" : "ok");
    if (bad) {
      ok = false;
      std::printf("    %zu values differ; worst: particle id %lld: plain", bad,
                  ref[worstI].id);
      for (int k = 0; k < q.dims; ++k)
        std::printf(" %.9g", q.get(ref[worstI], k));
      std::printf(", this build");
      for (int k = 0; k < q.dims; ++k)
        std::printf(" %.9g", q.get(got[worstI], k));
      std::printf("\n");
    }
  }
  return ok;
}

using StepFn = void (*)(CellLists &, CellLists &, const Params &, int);

// Median seconds of `reps` runs of `steps` steps, each from the initial state
// (the copy in is not timed; a region's one gather and scatter is).
double timeSteps(StepFn fn, const Setup &S, int steps, int reps) {
  std::vector<double> t;
  std::vector<Particle> parts;
  CellLists locals, actives;
  for (int r = 0; r < reps; ++r) {
    parts = S.parts;
    buildCells(parts, S.nc, S.prm.box, locals, actives);
    const auto t0 = std::chrono::steady_clock::now();
    fn(locals, actives, S.prm, steps);
    const auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  int side = 16, steps = 3, reps = 5, threads = 0;
  double eta = 1.2348; // SWIFT's usual resolution parameter
  bool gpuTol = false, plainTiming = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--side")
      side = std::atoi(next());
    else if (a == "--steps")
      steps = std::atoi(next());
    else if (a == "--eta")
      eta = std::atof(next());
    else if (a == "--reps")
      reps = std::atoi(next());
    else if (a == "--threads")
      threads = std::atoi(next());
    else if (a == "--tolerance") {
      std::string t = next();
      if (t == "gpu")
        gpuTol = true;
      else if (t == "exact")
        gpuTol = false;
      else {
        std::fprintf(stderr, "--tolerance exact|gpu\n");
        return 2;
      }
    } else if (a == "--no-plain-timing")
      plainTiming = false;
    else {
      std::fprintf(
          stderr,
          "usage: %s [--side N (N^3 particles)] [--steps S] [--reps R] "
          "[--threads T] [--eta E (h = E dx)] [--tolerance exact|gpu] "
          "[--no-plain-timing]\n",
          argv[0]);
      return 2;
    }
  }
  if (threads > 0)
    omp_set_num_threads(threads);
  Setup S = makeSetup(side, eta);
  const std::size_t n = S.parts.size();

  std::vector<Particle> ref = S.parts, got = S.parts;
  CellLists lr, ar, lg, ag;
  buildCells(ref, S.nc, S.prm.box, lr, ar);
  buildCells(got, S.nc, S.prm.box, lg, ag);
  const double ngb = neighboursPerParticle(lr, ar, S.prm.box);
  std::printf(
      "swift-step: scheme %s, build %s, %zu particles (%d^3), %d^3 cells, "
      "%.1f neighbours per particle, %d steps, dt %.3g, %d threads\n",
      SWIFT_STEP_SCHEME_NAME, conv_step::build_name, n, side, S.nc, ngb, steps,
      S.prm.dt, omp_get_max_threads());

  plain_step::runSteps(lr, ar, S.prm, steps);
  conv_step::runSteps(lg, ag, S.prm, steps);
  float hmax = 0;
  for (const Particle &p : ref)
    hmax = std::max(hmax, p.h);
  if (hmax * kernel_gamma > S.prm.box / S.nc)
    std::printf("warning: h grew beyond the cell size (both builds miss the "
                "same pairs)\n");
  const bool ok = compare(ref, got, gpuTol);

  const double tc = timeSteps(conv_step::runSteps, S, steps, reps);
  std::printf("time %-8s: %.4f s per step, %.3e particle updates/s (median of "
              "%d x %d steps)\n",
              conv_step::build_name, tc / steps, (double)n * steps / tc, reps,
              steps);
  if (plainTiming) {
    const double tp = timeSteps(plain_step::runSteps, S, steps, reps);
    std::printf("time %-8s: %.4f s per step, %.3e particle updates/s; %s/plain "
                "speed-up %.2fx\n",
                "plain", tp / steps, (double)n * steps / tp,
                conv_step::build_name, tp / tc);
  }
  if (!ok) {
    std::printf("FAILED: %s differs from plain beyond the stated tolerance\n",
                conv_step::build_name);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
