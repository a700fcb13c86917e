// soaview-sph: the SPH study of [Radtke2025], section 7 (docs/references.md), rerun on this machine.
//
// Builds a 2D particle system sorted into cells, then runs every kernel of
// every build (plain clang++, soaview-clang++, the hand-written SoA limit,
// and the offload builds when linked in) on the same particles: first once
// to check the physics against the plain build, then timed (median of the
// repetitions, which go round the builds; end to end: conversion and
// transfers included). Prints one
// table per configuration and optionally writes CSV for docs/plots.
//
//   soaview-sph [--quick] [--csv FILE] [--ppc 64,256] [--particles 65536]
//               [--storage scattered,contiguous] [--fpmode strict,fast]
//               [--kernels density,force,step] [--reps N] [--steps N]
//               [--threads N] [--gpu-threads N] [--no-profile] [--seed S]
//
// --gpu-threads sets how many host threads launch cells in the offload and
// CUDA builds (default: 4 per CPU thread; they mostly wait for the GPU).
// Each launch is one cell, so this is how many cells the GPU works on at
// once: with one launching thread per core, 16 cells of 256 particles keep
// 16 of an H100's 132 multiprocessors busy (docs/cuda.md).
//
// The sweep builds (offload-sweep, cuda-sweep) run the same kernels written
// as loops over all cells, which soaview offloads in one go: one host thread
// calls each sweep once (its gather and scatter use the CPU threads).
// manual-cuda-sweep runs the pair kernels' sweeps written by hand in CUDA
// (manual_cuda.cu: what the generated sweeps are measured against). Kernels
// without a sweep (active-local, the linear kernels) run cell by cell on the
// CPU threads there, as the soaview build runs them (the CUDA translation's
// host loops, compiled by nvcc's host compiler, ran active-local at 0.5x of
// plain on the H100 node).
//
// The kernel "step" (variants branching and masking: those of density and
// force) runs --steps leapfrog time steps, each init (the density sums start
// again), density, force, kick1, drift and kick2, and reports the cost per
// time step (the total over --steps); --quick leaves it out unless --kernels
// names it. The CPU builds run each kernel of the step over all cells as above; the sweep
// builds call kernels.cpp's step with one sweep per kernel from one host
// thread; offload-region and cuda-region call the same step written as a
// view region (soa_conversion_region: the sweeps share one set of device
// buffers, so the particles stay on the device between sweeps and steps).
// The build "region" is that view region compiled for the CPU (-fopenmp, no
// offload target): its sweeps run on the host's OpenMP threads and share
// one set of host buffers for the whole step loop.
// The cell-by-cell device builds and manual-cuda-sweep have no step.
#include "initial.h"
#include "kernels.h"
#include "tables.h"

#include <soaview/soaview.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <omp.h>


namespace sph {
namespace {

struct Build {
  // plain, soaview, manual, region (the step's view region swept on the
  // CPU threads), offload, cuda, offload-sweep, offload-region, cuda-sweep,
  // cuda-region, manual-cuda-sweep (hand-written CUDA sweeps, manual_cuda.cu)
  const char *build;
  const char *fpmode; // strict, fast
  KernelTable (*table)();
  /// Runs the kernels' sweeps (one call over all cells) where they have one;
  /// kernels without a sweep run cell by cell from this table on the CPU
  /// threads (the soaview build: host loops compiled by soaview-clang++).
  KernelTable (*cellTable)() = nullptr;
  /// A sweep build that runs only the step, as the table's view region
  /// (region, offload-region, cuda-region); the other sweep builds run the
  /// table's step with one sweep per kernel.
  bool region = false;
  bool sweep() const { return cellTable != nullptr; }
  /// Runs its converted loops on the GPU (cell by cell: launching from
  /// --gpu-threads).
  bool device() const { return !std::strcmp(build, "offload") || !std::strcmp(build, "cuda"); }
  /// soaview converted its loops, or (manual-cuda-sweep) the hand-written
  /// sweeps record their phases with soaview's timers: profiled.
  bool profiled() const { return std::strcmp(build, "plain") && std::strcmp(build, "manual"); }
};

const Build kBuilds[] = {
    {"plain", "strict", plain_strict::table},
    {"soaview", "strict", soaview_strict::table},
    {"manual", "strict", manual_strict::table},
    {"region", "strict", region_strict::table, soaview_strict::table, true},
#ifdef SPH_WITH_OFFLOAD
    {"offload", "strict", offload_strict::table},
    {"offload-sweep", "strict", offload_strict::table, soaview_strict::table},
    {"offload-region", "strict", offload_strict::table, soaview_strict::table,
     true},
#endif
#ifdef SPH_WITH_CUDA
    {"cuda", "strict", cuda_strict::table},
    {"cuda-sweep", "strict", cuda_strict::table, soaview_strict::table},
    {"cuda-region", "strict", cuda_strict::table, soaview_strict::table, true},
    {"manual-cuda-sweep", "strict", cuda_manual_strict::table, manual_strict::table},
#endif
    {"plain", "fast", plain_fast::table},
    {"soaview", "fast", soaview_fast::table},
    {"manual", "fast", manual_fast::table},
    {"region", "fast", region_fast::table, soaview_fast::table, true},
#ifdef SPH_WITH_OFFLOAD
    {"offload", "fast", offload_fast::table},
    {"offload-sweep", "fast", offload_fast::table, soaview_fast::table},
    {"offload-region", "fast", offload_fast::table, soaview_fast::table, true},
#endif
#ifdef SPH_WITH_CUDA
    {"cuda", "fast", cuda_fast::table},
    {"cuda-sweep", "fast", cuda_fast::table, soaview_fast::table},
    {"cuda-region", "fast", cuda_fast::table, soaview_fast::table, true},
    {"manual-cuda-sweep", "fast", cuda_manual_fast::table, manual_fast::table},
#endif
};

// ---- options ------------------------------------------------------------------

struct Options {
  std::vector<long> ppc{64, 128, 256, 512, 1024};
  std::vector<long> particles{16384, 65536};
  std::vector<std::string> storage{"scattered", "contiguous"};
  std::vector<std::string> fpmode{"strict", "fast"};
  std::vector<std::string> kernels; // empty: all
  std::vector<std::string> builds;  // empty: all
  int reps = 5;
  int steps = 10;     // time steps of the kernel "step"
  bool quick = false;
  int threads = 0;    // 0: OpenMP default
  int gpuThreads = 0; // offload and CUDA builds; 0: 4 per CPU thread
  bool profile = true;
  unsigned seed = 1;
  std::string csv;
};

std::vector<std::string> split(const char *s) {
  std::vector<std::string> out;
  std::string cur;
  for (; *s; ++s) {
    if (*s == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += *s;
    }
  }
  if (!cur.empty())
    out.push_back(cur);
  return out;
}

std::vector<long> splitLongs(const char *s) {
  std::vector<long> out;
  for (const std::string &x : split(s))
    out.push_back(std::strtol(x.c_str(), nullptr, 10));
  return out;
}

[[noreturn]] void usage(const char *msg) {
  std::fprintf(
      stderr,
      "soaview-sph: %s\nusage: soaview-sph [--quick] [--csv FILE] "
      "[--ppc L] [--particles L] [--storage L] [--fpmode L] "
      "[--kernels L] [--builds L] [--reps N] [--steps N] [--threads N] "
      "[--gpu-threads N] [--no-profile] [--seed S]\n",
      msg);
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc)
        usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--quick") {
      o.ppc = {64, 256, 1024};
      o.particles = {8192};
      o.storage = {"scattered"};
      o.reps = 3;
      o.quick = true; // no step unless --kernels names it
    } else if (a == "--csv") {
      o.csv = next();
    } else if (a == "--ppc") {
      o.ppc = splitLongs(next());
    } else if (a == "--particles") {
      o.particles = splitLongs(next());
    } else if (a == "--storage") {
      o.storage = split(next());
    } else if (a == "--fpmode") {
      o.fpmode = split(next());
    } else if (a == "--kernels") {
      o.kernels = split(next());
    } else if (a == "--builds") {
      o.builds = split(next());
    } else if (a == "--reps") {
      o.reps = std::max(1, std::atoi(next()));
    } else if (a == "--steps") {
      o.steps = std::max(1, std::atoi(next()));
    } else if (a == "--threads") {
      o.threads = std::atoi(next());
    } else if (a == "--gpu-threads") {
      o.gpuThreads = std::max(1, std::atoi(next()));
    } else if (a == "--no-profile") {
      o.profile = false;
    } else if (a == "--seed") {
      o.seed = static_cast<unsigned>(std::strtoul(next(), nullptr, 10));
    } else if (a == "-h" || a == "--help") {
      std::string builds = "builds:";
      for (const Build &b : kBuilds)
        if (!std::strcmp(b.fpmode, "strict"))
          builds += std::string(" ") + b.build;
      usage(("the SPH kernels with and without soaview; " + builds +
             "; kernels: density force kick1 kick2 drift step")
                .c_str());
    } else {
      usage(("unknown argument " + a).c_str());
    }
  }
  return o;
}

bool selected(const std::vector<std::string> &filter, const std::string &a,
              const std::string &b = "") {
  if (filter.empty())
    return true;
  for (const std::string &f : filter)
    if (f == a || (!b.empty() && f == a + "/" + b))
      return true;
  return false;
}

/// Whether --kernels selects the step (or one of its variants).
bool stepSelected(const Options &o) {
  for (const std::string &f : o.kernels)
    if (f == "step" || f.rfind("step/", 0) == 0)
      return true;
  return o.kernels.empty() && !o.quick;
}

// ---- the particle system --------------------------------------------------------

struct System {
  long ppc = 0, grid = 0, n = 0;
  std::vector<Particle> pristine;          // initial state, cell-major order
  std::vector<Particle *> ptr;             // where particle k lives
  std::vector<ParticleList> local, active; // per cell
  std::vector<std::unique_ptr<Particle>> scattered;
  std::vector<Particle> contiguous;

  System(long ppcIn, long particles, bool scatteredStorage, unsigned seed) {
    ppc = ppcIn;
    grid = gridOf(ppc, particles);
    n = grid * grid * ppc;
    std::mt19937_64 rng(seed * 1000003u + ppcIn);
    pristine.resize(n);
    for (long k = 0; k < n; ++k)
      drawParticle(pristine[k], k, ppc, grid, rng);
    ptr.resize(n);
    if (scatteredStorage) {
      // One heap allocation per particle, in random order, so that a cell's
      // particles lie far apart ([Radtke2025]'s scattered storage).
      std::vector<long> order(n);
      for (long k = 0; k < n; ++k)
        order[k] = k;
      std::shuffle(order.begin(), order.end(), rng);
      scattered.resize(n);
      for (long k : order) {
        scattered[k] = std::make_unique<Particle>();
        ptr[k] = scattered[k].get();
      }
    } else {
      contiguous.resize(n);
      for (long k = 0; k < n; ++k)
        ptr[k] = &contiguous[k];
    }
    local.resize(grid * grid);
    active.resize(grid * grid);
    for (long c = 0; c < grid * grid; ++c)
      for (long k = 0; k < ppc; ++k)
        local[c].push_back(ptr[c * ppc + k]);
    for (long cy = 0; cy < grid; ++cy)
      for (long cx = 0; cx < grid; ++cx)
        for (long dy = -1; dy <= 1; ++dy)
          for (long dx = -1; dx <= 1; ++dx) {
            long nx = cx + dx, ny = cy + dy;
            if (nx < 0 || ny < 0 || nx >= grid || ny >= grid)
              continue;
            const ParticleList &L = local[ny * grid + nx];
            active[cy * grid + cx].insert(active[cy * grid + cx].end(), L.begin(), L.end());
          }
  }

  void reset() {
    for (long k = 0; k < n; ++k)
      *ptr[k] = pristine[k];
  }
  /// The time step's initial state: the pristine particles with the
  /// accumulators zeroed, so that the first density sweep computes the
  /// density from scratch and the first force sweep the forces (kick2 then
  /// updates pressure and sound speed from that density and zeroes the force
  /// accumulators again for the next step). The pristine pressure and sound
  /// speed (consistent with its density) feed the first force sweep. The
  /// particles move by about kDt |v| per step, far less than a cell over the
  /// step counts run here, so the cell lists stay valid without re-binning.
  /// Each step starts the density sums again (initDensity).
  void resetStep() {
    reset();
    for (long k = 0; k < n; ++k) {
      Particle &p = *ptr[k];
      p.rho = p.wcount = p.wcount_dh = p.rho_dh = p.div_v = p.rot_v = 0;
      p.a[0] = p.a[1] = p.u_dt = p.h_dt = p.v_sig = 0;
    }
  }
  std::vector<Particle> state() const {
    std::vector<Particle> s(n);
    for (long k = 0; k < n; ++k)
      s[k] = *ptr[k];
    return s;
  }
  /// One kernel over every cell on `threads` threads.
  void forCells(KernelFn fn, int threads) {
    const long count = grid * grid;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (long c = 0; c < count; ++c)
      fn(local[c], active[c]);
  }
  /// Wall-clock nanoseconds of f().
  template <class F> static double timed(F &&f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::nano>(t1 - t0).count();
  }
  /// One kernel over every cell on `threads` threads; returns nanoseconds.
  double run(KernelFn fn, int threads) {
    return timed([&] { forCells(fn, threads); });
  }
  /// One sweep over every cell, called once; returns nanoseconds.
  double sweep(SweepFn fn) {
    return timed([&] { fn(local, active); });
  }
  /// A build's way of running one kernel over all cells: its sweep, or
  /// cell by cell.
  double run(const KernelEntry &e, const KernelEntry &cells, bool sweepBuild,
             int threads) {
    return sweepBuild && e.sweep ? sweep(e.sweep) : run(cells.fn, threads);
  }
  /// `steps` time steps of the kernels `step` (density, force, kick1, drift,
  /// kick2) after initDensity, each over every cell on `threads` threads;
  /// returns nanoseconds.
  double runSteps(const std::vector<KernelFn> &step, int steps, int threads) {
    return timed([&] {
      for (int s = 0; s < steps; ++s) {
        forCells(initDensity, threads);
        for (KernelFn fn : step)
          forCells(fn, threads);
      }
    });
  }
  /// A time step starts the density sums again, in every CPU build (plain
  /// code: kernels.cpp's initSweep in the sweep builds).
  static void initDensity(ParticleList &local, ParticleList &) {
    for (Particle *p : local)
      p->rho = p->wcount = p->wcount_dh = p->rho_dh = p->div_v = p->rot_v = 0;
  }
  /// `steps` time steps of a step function, called once; returns nanoseconds.
  double runSteps(StepFn fn, int steps) {
    return timed([&] { fn(local, active, steps); });
  }
};

// ---- checking ---------------------------------------------------------------------

constexpr int kDoubles = offsetof(Particle, id) / sizeof(double);
constexpr double kFastTolerance = 1e-8;

/// strict: every byte equal. fast: every double within kFastTolerance of the
/// reference, relative to |a| + |b| + the largest magnitude of that field.
bool same(const std::vector<Particle> &ref, const std::vector<Particle> &got,
          bool strict, std::string &why) {
  if (strict) {
    for (std::size_t k = 0; k < ref.size(); ++k)
      if (std::memcmp(&ref[k], &got[k], sizeof(Particle))) {
        why = "particle " + std::to_string(k) + " differs";
        return false;
      }
    return true;
  }
  double scale[kDoubles] = {};
  for (const Particle &p : ref)
    for (int f = 0; f < kDoubles; ++f)
      scale[f] = std::max(scale[f], std::fabs(reinterpret_cast<const double *>(&p)[f]));
  for (std::size_t k = 0; k < ref.size(); ++k) {
    const double *a = reinterpret_cast<const double *>(&ref[k]);
    const double *b = reinterpret_cast<const double *>(&got[k]);
    for (int f = 0; f < kDoubles; ++f) {
      double tol = kFastTolerance * (std::fabs(a[f]) + std::fabs(b[f]) + scale[f]);
      if (!(std::fabs(a[f] - b[f]) <= tol)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "particle %zu double %d: %.17g vs %.17g", k, f,
                      a[f], b[f]);
        why = buf;
        return false;
      }
    }
    if (std::memcmp(a + kDoubles, b + kDoubles, sizeof(Particle) - kDoubles * sizeof(double))) {
      why = "particle " + std::to_string(k) + " differs outside the doubles";
      return false;
    }
  }
  return true;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

struct Row {
  std::string kernel, variant, storage, fpmode, build;
  long ppc, n;
  double ns; // per particle update (step: per particle and time step)
  bool pass;
  // Shares of the time per phase (soaview, offload and cuda builds; -1: not
  // profiled).
  // index: the sweeps' lists (slots, runs, a view region's list check).
  double gather = -1, scatter = -1, toDevice = -1, compute = -1, fromDevice = -1,
         index = -1;
  // Swept builds: the kernels' own time per update in the profiled run (the
  // phase timer waits for each kernel), in ns; -1: not measured.
  double kernelNs = -1;
};

// ---- running the builds -----------------------------------------------------

/// How one build runs one row of the table: run() runs the row's kernel (or
/// time steps) once over all cells and returns nanoseconds.
struct Job {
  const Build *build;
  std::function<double()> run;
  bool swept;  // called once from one host thread (a sweep, a swept step)
  int threads; // otherwise: the threads running cells
};

/// The builds of one floating-point mode that the options select; plain
/// (the reference) always, first.
std::vector<const Build *> buildsOf(const Options &o, const std::string &fp) {
  std::vector<const Build *> builds;
  for (const Build &b : kBuilds)
    if (fp == b.fpmode &&
        (!std::strcmp(b.build, "plain") || selected(o.builds, b.build)))
      builds.push_back(&b);
  return builds;
}

/// Kernel k of every build: its sweep where the build sweeps and the kernel
/// has one, else cell by cell (the device builds launching from gpuThreads
/// host threads). The region builds run only the step.
std::vector<Job> kernelJobs(System &sys,
                            const std::vector<const Build *> &builds, int k,
                            int cpuThreads, int gpuThreads) {
  const KernelEntry &e = builds[0]->table().entries[k];
  std::vector<Job> jobs;
  for (const Build *b : builds) {
    if (b->region)
      continue;
    const KernelEntry *be = &b->table().entries[k];
    if (std::strcmp(be->kernel, e.kernel) ||
        std::strcmp(be->variant, e.variant)) {
      std::fprintf(stderr, "soaview-sph: kernel tables of %s/%s disagree\n",
                   b->build, b->fpmode);
      std::exit(2);
    }
    const KernelEntry *ce = b->sweep() ? &b->cellTable().entries[k] : be;
    const int threads = b->device() ? gpuThreads : cpuThreads;
    const bool sweep = b->sweep();
    jobs.push_back({b,
                    [&sys, be, ce, sweep, threads] {
                      return sys.run(*be, *ce, sweep, threads);
                    },
                    sweep && be->sweep, threads});
  }
  return jobs;
}

/// The per-cell kernels of one time step in a table: density and force of
/// `variant`, then kick1, drift and kick2.
std::vector<KernelFn> stepKernels(KernelTable t, const std::string &variant) {
  const char *const order[][2] = {{"density", variant.c_str()},
                                  {"force", variant.c_str()},
                                  {"kick1", "streaming"},
                                  {"drift", "streaming"},
                                  {"kick2", "streaming"}};
  std::vector<KernelFn> fns;
  for (const auto &kv : order)
    for (int k = 0; k < t.count; ++k)
      if (!std::strcmp(t.entries[k].kernel, kv[0]) &&
          !std::strcmp(t.entries[k].variant, kv[1]))
        fns.push_back(t.entries[k].fn);
  if (fns.size() != 5) {
    std::fprintf(stderr,
                 "soaview-sph: a kernel table lacks a kernel of step %s\n",
                 variant.c_str());
    std::exit(2);
  }
  return fns;
}

/// The step of `variant` in a table, or null.
const StepEntry *stepOf(KernelTable t, const std::string &variant) {
  for (int s = 0; s < t.stepCount; ++s)
    if (variant == t.steps[s].variant)
      return &t.steps[s];
  return nullptr;
}

/// `steps` time steps of every build that has them: the CPU builds run the
/// kernels of their table cell by cell on the CPU threads; the sweep builds
/// call their table's step from this thread (the region builds its view
/// region). The cell-by-cell device builds and manual-cuda-sweep (no step
/// in their tables) are left out.
std::vector<Job> stepJobs(System &sys, const std::vector<const Build *> &builds,
                          const std::string &variant, int steps,
                          int cpuThreads) {
  std::vector<Job> jobs;
  for (const Build *b : builds) {
    if (b->device())
      continue;
    if (!b->sweep()) {
      std::vector<KernelFn> fns = stepKernels(b->table(), variant);
      jobs.push_back({b,
                      [&sys, fns, steps, cpuThreads] {
                        return sys.runSteps(fns, steps, cpuThreads);
                      },
                      false, cpuThreads});
    } else if (const StepEntry *se = stepOf(b->table(), variant)) {
      StepFn fn = b->region ? se->region : se->loops;
      jobs.push_back(
          {b, [&sys, fn, steps] { return sys.runSteps(fn, steps); }, true, 1});
    }
  }
  return jobs;
}

/// [Radtke2025], Table 2: the share of gather and scatter in one more run of
/// a profiled build, and for the device builds of the copies and the kernel
/// (the CUDA runtime then waits after each phase to time it, so the shares
/// describe a run without overlap). Phase times are summed over threads:
/// compare with the summed thread time of the run. Swept builds (one
/// launching thread) also give the kernels' time per update, to set against
/// the unprofiled cost per update.
void profile(System &sys, void (System::*reset)(), const Job &j, Row &r,
             double updates) {
  (sys.*reset)();
  soaview::rt::reset_phases();
  soaview::rt::set_profiling(true);
  double wall = j.run();
  soaview::rt::set_profiling(false);
  const soaview::rt::phase_times ph = soaview::rt::phase_totals();
  double busy =
      wall * (j.swept ? 1 : std::min<long>(j.threads, sys.grid * sys.grid));
  r.gather = std::min(1.0, ph[soaview::rt::phase::gather] / busy);
  r.scatter = std::min(1.0, ph[soaview::rt::phase::scatter] / busy);
  r.index = std::min(1.0, ph[soaview::rt::phase::index] / busy);
  if (j.build->device() || j.swept) {
    r.toDevice = std::min(1.0, ph[soaview::rt::phase::to_device] / busy);
    r.compute = std::min(1.0, ph[soaview::rt::phase::kernel] / busy);
    r.fromDevice = std::min(1.0, ph[soaview::rt::phase::from_device] / busy);
  }
  if (j.swept && (j.build->device() || ph[soaview::rt::phase::kernel]))
    r.kernelNs = ph[soaview::rt::phase::kernel] / updates;
}

/// One row of the table: checks each job's physics once against the first
/// (plain) from the state reset() makes (and profiles the converted builds
/// and the hand-written CUDA sweeps), then times them. The repetitions go
/// round the builds, so that a slow spell of a shared machine hits every
/// build alike instead of one build's block of repetitions. `updates`:
/// particle updates per run. Failures are appended to `failures`.
std::vector<Row> measure(System &sys, void (System::*reset)(),
                         const std::vector<Job> &jobs, const Options &o,
                         const Row &proto, double updates,
                         std::string &failures) {
  std::vector<Row> here;
  std::vector<Particle> expect;
  for (const Job &j : jobs) {
    Row r = proto;
    r.build = j.build->build;
    (sys.*reset)();
    j.run();
    std::vector<Particle> got = sys.state();
    if (expect.empty()) {
      expect = std::move(got);
    } else {
      std::string why;
      r.pass = same(expect, got, proto.fpmode == "strict", why);
      if (!r.pass)
        failures += std::string(" ") + j.build->build + ": " + why + ";";
    }
    if (o.profile && j.build->profiled())
      profile(sys, reset, j, r, updates);
    here.push_back(r);
  }
  std::vector<std::vector<double>> t_ns(jobs.size());
  for (int rep = 0; rep < o.reps; ++rep)
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      (sys.*reset)();
      t_ns[i].push_back(jobs[i].run());
    }
  for (std::size_t i = 0; i < here.size(); ++i)
    here[i].ns = median(t_ns[i]) / updates;
  return here;
}

// ---- output -----------------------------------------------------------------

void printHeader(const System &sys, const std::string &storage, long ppc) {
  std::printf("\n== %s storage, ppc %ld, %ld particles (%ld cells)\n",
              storage.c_str(), ppc, sys.n, sys.grid * sys.grid);
  std::printf("%-8s %-13s %-6s %10s %10s %8s %10s %7s %10s %8s", "kernel",
              "variant", "fp", "plain", "soaview", "speedup", "manual", "limit",
              "region", "speedup");
#ifdef SPH_WITH_OFFLOAD
  std::printf(" %10s %8s %13s %8s %14s %8s", "offload", "speedup",
              "offload-sweep", "speedup", "offload-region", "speedup");
#endif
#ifdef SPH_WITH_CUDA
  std::printf(" %10s %8s %10s %8s %11s %8s %17s %8s", "cuda", "speedup",
              "cuda-sweep", "speedup", "cuda-region", "speedup",
              "manual-cuda-sweep", "speedup");
#endif
  std::printf("  check\n");
}

/// Prints one row of the table (its plain build first); returns whether
/// every build passed the physics check.
bool printRow(const std::vector<Row> &here, const std::string &failures) {
  auto find = [&](const char *name) -> const Row * {
    for (const Row &r : here)
      if (r.build == name)
        return &r;
    return nullptr;
  };
  const Row *pl = &here[0], *sv = find("soaview"), *ma = find("manual");
  bool pass = true;
  for (const Row &r : here)
    pass &= r.pass;
  std::printf("%-8s %-13s %-6s %10.2f", pl->kernel.c_str(), pl->variant.c_str(),
              pl->fpmode.c_str(), pl->ns);
  if (sv)
    std::printf(" %10.2f %7.2fx", sv->ns, pl->ns / sv->ns);
  else
    std::printf(" %10s %8s", "-", "-");
  if (ma)
    std::printf(" %10.2f %7.2f", ma->ns, sv ? ma->ns / sv->ns : 0.0);
  else
    std::printf(" %10s %7s", "-", "-");
  auto column = [&](const char *name, int width) {
    if (const Row *r = find(name))
      std::printf(" %*.2f %7.2fx", width, r->ns, pl->ns / r->ns);
    else
      std::printf(" %*s %8s", width, "-", "-");
  };
  column("region", 10);
#ifdef SPH_WITH_OFFLOAD
  column("offload", 10);
  column("offload-sweep", 13);
  column("offload-region", 14);
#endif
#ifdef SPH_WITH_CUDA
  column("cuda", 10);
  column("cuda-sweep", 10);
  column("cuda-region", 11);
  column("manual-cuda-sweep", 17);
#endif
  std::printf("  %s%s\n", pass ? "PASS" : "FAIL", failures.c_str());
  return pass;
}

void writeCsv(std::FILE *csv, const std::vector<Row> &rows) {
  for (const Row &r : rows) {
    std::fprintf(csv, "%s,%s,%s,%ld,%ld,%s,%s,%.4f,%s,", r.kernel.c_str(),
                 r.variant.c_str(), r.storage.c_str(), r.ppc, r.n,
                 r.fpmode.c_str(), r.build.c_str(), r.ns,
                 r.pass ? "PASS" : "FAIL");
    auto share = [&](double v, const char *end) {
      if (v >= 0)
        std::fprintf(csv, "%.4f%s", v, end);
      else
        std::fprintf(csv, "%s", end);
    };
    share(r.gather, ",");
    share(r.scatter, ",");
    share(r.toDevice, ",");
    share(r.compute, ",");
    share(r.fromDevice, ",");
    share(r.kernelNs, ",");
    share(r.index, "\n");
  }
}

} // namespace
} // namespace sph

int main(int argc, char **argv) {
  using namespace sph;
  Options o = parse(argc, argv);
  if (o.threads > 0)
    omp_set_num_threads(o.threads);
  const int cpuThreads = omp_get_max_threads();
  const int gpuThreads = o.gpuThreads > 0 ? o.gpuThreads : 4 * cpuThreads;
  std::FILE *csv = nullptr;
  if (!o.csv.empty()) {
    csv = std::fopen(o.csv.c_str(), "w");
    if (!csv)
      usage(("cannot write " + o.csv).c_str());
    std::fprintf(csv, "kernel,variant,storage,ppc,particles,fpmode,build,ns_per_update,"
                      "check,gather_share,scatter_share,to_device_share,kernel_share,"
                      "from_device_share,kernel_ns_per_update,index_share\n");
  }
  std::printf("soaview-sph: %d threads, %d repetitions (median), cost per particle "
              "update in ns, end to end\n",
              cpuThreads, o.reps);
#if defined(SPH_WITH_OFFLOAD) || defined(SPH_WITH_CUDA)
  std::printf("offload and cuda builds: %d host threads launch one cell each\n", gpuThreads);
#endif
  std::printf("speedup = plain / build; limit = manual / soaview (1.0: as fast as "
              "hand-written SoA)\n");
  if (stepSelected(o))
    std::printf(
        "step: %d time step%s (init, density, force, kick1, drift, kick2), cost "
        "per particle and time step\n",
        o.steps, o.steps == 1 ? "" : "s");
  bool allPass = true;
  std::vector<Row> rows;
  for (const std::string &storage : o.storage)
    for (long ppc : o.ppc)
      for (long particles : o.particles) {
        System sys(ppc, particles, storage == "scattered", o.seed);
        printHeader(sys, storage, ppc);
        for (const std::string &fp : o.fpmode) {
          std::vector<const Build *> builds = buildsOf(o, fp);
          KernelTable ref = builds[0]->table();
          auto row = [&](const std::vector<Job> &jobs, Row proto,
                         void (System::*reset)(), double updates) {
            std::string failures;
            std::vector<Row> here =
                measure(sys, reset, jobs, o, proto, updates, failures);
            allPass &= printRow(here, failures);
            rows.insert(rows.end(), here.begin(), here.end());
          };
          for (int k = 0; k < ref.count; ++k) {
            const KernelEntry &e = ref.entries[k];
            if (selected(o.kernels, e.kernel, e.variant))
              row(kernelJobs(sys, builds, k, cpuThreads, gpuThreads),
                  {e.kernel, e.variant, storage, fp, "", ppc, sys.n, 0, true},
                  &System::reset, double(sys.n));
          }
          // The time steps, checked after all --steps steps: strict builds
          // bit for bit with plain, like the kernels; fast builds within the
          // same kFastTolerance (1e-8 relative to the field's scale).
          for (int s = 0; s < ref.stepCount; ++s) {
            const char *variant = ref.steps[s].variant;
            if (stepSelected(o) && selected(o.kernels, "step", variant))
              row(stepJobs(sys, builds, variant, o.steps, cpuThreads),
                  {"step", variant, storage, fp, "", ppc, sys.n, 0, true},
                  &System::resetStep, double(sys.n) * o.steps);
          }
        }
      }
  if (csv) {
    writeCsv(csv, rows);
    std::fclose(csv);
  }
  std::printf("\n%s\n", allPass ? "physics check: all converted builds PASS"
                                : "physics check: FAIL (see above)");
  return allPass ? 0 : 1;
}
