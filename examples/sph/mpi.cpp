// soaview-sph-mpi: the SPH demonstrator's time step (main.cpp's kernel
// "step") across MPI ranks, one GPU per rank in the device builds
// (docs/benchmarks.md; issue #31).
//
//   mpirun -np R soaview-sph-mpi [--ppc 64,256] [--particles 65536] [--weak]
//       [--builds plain,soaview,offload-sweep] [--fpmode strict,fast]
//       [--variant branching,masking] [--steps N] [--reps N] [--threads N]
//       [--csv FILE] [--seed S] [--check plain,build|none] [--no-profile]
//       [--overlap off] [--edge-rows K]
//
// Every rank builds the same global particle system as soaview-sph (same
// generator and seed; --particles is the total, or with --weak the count per
// rank) and keeps a slab of rows of cells plus one row of halo cells from
// each neighbouring rank (domain.h). The particles stay structs (AoS) for
// the exchange: each step sends whole Particle structs of the slab's edge
// rows to the neighbours (MPI_Sendrecv) before density and again before
// force, which reads the halo particles' densities. Only the kernels see
// views.
//
// The step runs in halves so that the exchange can sit between density and
// force (kernels.cpp's step functions run all kernels in one call): the CPU
// builds run the per-cell kernels of their table on the rank's threads; the
// sweep builds (offload-sweep, cuda-sweep) run density and force as one
// sweep over the rank's cells (the halo particles are the sweep's ghosts)
// and init, kicks and drift cell by cell on the CPU threads, as soaview-sph
// runs kernels without a sweep. The view-region builds (region on the CPU,
// offload-region, cuda-region) run all steps as one view region of sweeps
// with the exchanges inside it (kernels.cpp's exchangedBranching and
// exchangedMasking): each exchange is a synchronisation point,
// soaview::sync over the slab's edge and halo rows, which writes those
// particles back before the exchange and gathers them again after it.
//
// No migration: the particles move by about kDt |v| per step, far less than
// a cell, and soaview-sph does not re-bin them either (main.cpp,
// resetStep), so cell lists, slabs and halos stay fixed.
//
// Physics check: rank 0 gathers the final particles and compares them with
// one-process runs on the whole domain (--check: plain, build or both, the
// default; none): the plain build's per-cell kernels and the same build's
// (its table's step where it has one). Each cell's neighbour order is that
// of the one-process run, so strict builds must agree bit for bit; fast
// builds within main.cpp's tolerance (1e-8 relative to the field's scale).
// The exit status is 1 on a mismatch. Each row prints a digest of the final
// state, equal across rank counts where the runs agree bit for bit. (At
// 2^20 particles plain takes seconds per step: --check build there.)
//
// Times per step, median over --reps, each the most any rank took: the
// whole step, its two exchanges (waiting for a slower neighbour included)
// and its kernels; from one more run with soaview's phase timers, the
// shares of the kernel time spent converting (gather, scatter, the sweeps'
// lists), copying to and from the device, and in device kernels.
//
// Each rank uses its own device: SOAVIEW_SPH_DEVICE, else its rank on the
// node modulo the node's devices (cudaSetDevice, omp_set_default_device
// before any soaview call).
#include "domain.h"
#include "initial.h"
#include "kernels.h"
#include "tables.h"

#include <soaview/soaview.h>

#include <mpi.h>
#include <omp.h>

#ifdef SPH_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>


namespace sph {
namespace {

// ---- builds -----------------------------------------------------------------

struct Build {
  const char *build;  // plain, soaview, manual, region, *-sweep, *-region
  const char *fpmode; // strict, fast
  KernelTable (*table)();
  /// Sweep builds: the table whose per-cell kernels run the kernels that
  /// have no sweep (init, kicks, drift) on the CPU threads.
  KernelTable (*cellTable)() = nullptr;
  /// Region builds: all steps in one of the table's view regions.
  bool regions = false;
  bool sweep() const { return cellTable != nullptr; }
  /// Runs whole sweeps from the calling thread (its phases are wall time).
  bool swept() const { return sweep() || regions; }
  bool device() const { return swept() && std::strcmp(build, "region"); }
  bool profiled() const {
    return std::strcmp(build, "plain") && std::strcmp(build, "manual");
  }
};

const Build kBuilds[] = {
    {"plain", "strict", plain_strict::table},
    {"soaview", "strict", soaview_strict::table},
    {"manual", "strict", manual_strict::table},
    {"region", "strict", region_strict::table, nullptr, true},
#ifdef SPH_WITH_OFFLOAD
    {"offload-sweep", "strict", offload_strict::table, soaview_strict::table},
    {"offload-region", "strict", offload_strict::table, nullptr, true},
#endif
#ifdef SPH_WITH_CUDA
    {"cuda-sweep", "strict", cuda_strict::table, soaview_strict::table},
    {"cuda-region", "strict", cuda_strict::table, nullptr, true},
#endif
    {"plain", "fast", plain_fast::table},
    {"soaview", "fast", soaview_fast::table},
    {"manual", "fast", manual_fast::table},
    {"region", "fast", region_fast::table, nullptr, true},
#ifdef SPH_WITH_OFFLOAD
    {"offload-sweep", "fast", offload_fast::table, soaview_fast::table},
    {"offload-region", "fast", offload_fast::table, nullptr, true},
#endif
#ifdef SPH_WITH_CUDA
    {"cuda-sweep", "fast", cuda_fast::table, soaview_fast::table},
    {"cuda-region", "fast", cuda_fast::table, nullptr, true},
#endif
};

// ---- options ----------------------------------------------------------------

struct Options {
  std::vector<long> ppc{64, 256};
  std::vector<long> particles{65536};
  bool weak = false;               // --particles per rank
  std::vector<std::string> builds; // empty: all
  std::vector<std::string> fpmode{"strict"};
  std::vector<std::string> variant{"branching"};
  int steps = 10;
  int reps = 3;
  int threads = 0; // per rank; 0: OpenMP default
  // The one-process runs the gathered state is compared with (--check).
  bool checkPlain = true, checkBuild = true;
  bool check() const { return checkPlain || checkBuild; }
  bool profile = true;
  bool skipForceExchange = false; // the check must then fail (test)
  bool overlap = true; // region builds: inner cells swept before exchanges
  long edgeRows = 0;    // region builds: rows swept after them (0: auto)
  unsigned seed = 1;
  std::string csv;
};

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    std::size_t comma = std::min(s.find(',', at), s.size());
    if (comma > at)
      out.push_back(s.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

std::vector<long> splitLongs(const std::string &s) {
  std::vector<long> out;
  for (const std::string &x : split(s))
    out.push_back(std::strtol(x.c_str(), nullptr, 10));
  return out;
}

/// Every rank parses the same options and stops alike: rank 0 says why.
[[noreturn]] void usage(const std::string &msg) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::fprintf(stderr,
                 "soaview-sph-mpi: %s\nusage: mpirun -np R soaview-sph-mpi "
                 "[--ppc L] [--particles L] [--weak] [--builds L] "
                 "[--fpmode L] [--variant L] [--steps N] [--reps N] "
                 "[--threads N] [--csv FILE] [--seed S] [--check L] "
                 "[--no-profile]\n",
                 msg.c_str());
  MPI_Finalize();
  std::exit(2);
}

std::string buildNames() {
  std::string names;
  for (const Build &b : kBuilds)
    if (!std::strcmp(b.fpmode, "strict"))
      names += std::string(" ") + b.build;
  return names;
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc)
        usage("missing value after " + a);
      return argv[++i];
    };
    if (a == "--ppc")
      o.ppc = splitLongs(next());
    else if (a == "--particles")
      o.particles = splitLongs(next());
    else if (a == "--weak")
      o.weak = true;
    else if (a == "--builds")
      o.builds = split(next());
    else if (a == "--fpmode")
      o.fpmode = split(next());
    else if (a == "--variant")
      o.variant = split(next());
    else if (a == "--steps")
      o.steps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--reps")
      o.reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--threads")
      o.threads = std::atoi(next().c_str());
    else if (a == "--csv")
      o.csv = next();
    else if (a == "--seed")
      o.seed = static_cast<unsigned>(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--check" || a == "--no-check") {
      // plain, build, both (plain,build) or none.
      std::vector<std::string> what = split(a == "--check" ? next() : "none");
      auto has = [&](const char *x) {
        return std::find(what.begin(), what.end(), x) != what.end();
      };
      o.checkPlain = has("plain"), o.checkBuild = has("build");
    } else if (a == "--skip-force-exchange")
      o.skipForceExchange = true;
    else if (a == "--overlap")
      o.overlap = next() != "off";
    else if (a == "--edge-rows")
      o.edgeRows = std::max(1, std::atoi(next().c_str()));
    else if (a == "--no-profile")
      o.profile = false;
    else if (a == "-h" || a == "--help")
      usage("the SPH time step over MPI ranks; builds:" + buildNames() +
            "; variants: branching masking");
    else
      usage("unknown argument " + a);
  }
  return o;
}

bool selected(const std::vector<std::string> &filter, const char *name) {
  return filter.empty() ||
         std::find(filter.begin(), filter.end(), name) != filter.end();
}

using namespace slabs;

// ---- running a build --------------------------------------------------------

/// How a build runs the kernels of one step: per cell, (density and force
/// of the sweep builds) one sweep over all of the rank's cells, or (region
/// builds) all steps as one view region, the exchanges inside it.
struct Plan {
  KernelFn density, force, kick1, drift, kick2;
  SweepFn densitySweep = nullptr, forceSweep = nullptr;
  ExchangedStepFn exchanged = nullptr;
};

const KernelEntry *find(KernelTable t, const char *kernel,
                        const std::string &variant) {
  for (int k = 0; k < t.count; ++k)
    if (!std::strcmp(t.entries[k].kernel, kernel) &&
        variant == t.entries[k].variant)
      return &t.entries[k];
  usage(std::string("a kernel table has no kernel ") + kernel + "/" + variant);
}

/// The time step of a variant in a table (null: the table has none).
const StepEntry *stepOf(KernelTable t, const std::string &variant) {
  for (int s = 0; s < t.stepCount; ++s)
    if (variant == t.steps[s].variant)
      return &t.steps[s];
  return nullptr;
}

Plan planOf(const Build &b, const std::string &variant) {
  KernelTable cells = b.sweep() ? b.cellTable() : b.table();
  Plan p{find(cells, "density", variant)->fn, find(cells, "force", variant)->fn,
         find(cells, "kick1", "streaming")->fn,
         find(cells, "drift", "streaming")->fn,
         find(cells, "kick2", "streaming")->fn};
  if (b.sweep()) {
    p.densitySweep = find(b.table(), "density", variant)->sweep;
    p.forceSweep = find(b.table(), "force", variant)->sweep;
  }
  if (b.regions) {
    const StepEntry *se = stepOf(b.table(), variant);
    if (!se)
      usage(std::string("the build ") + b.build + " has no step " + variant);
    p.exchanged = se->exchanged;
  }
  return p;
}

/// A step starts the density sums again (main.cpp's initDensity).
void initDensity(ParticleList &local, ParticleList &) {
  for (Particle *p : local)
    p->rho = p->wcount = p->wcount_dh = p->rho_dh = p->div_v = p->rot_v = 0;
}

void forCells(Domain &d, KernelFn fn, int threads) {
  const long count = static_cast<long>(d.local.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (long c = 0; c < count; ++c)
    fn(d.local[c], d.active[c]);
}

void runKernel(Domain &d, KernelFn fn, SweepFn sweep, int threads) {
  if (sweep)
    sweep(d.local, d.active);
  else
    forCells(d, fn, threads);
}

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Seconds of one rank's steps.
struct Timing {
  double exchange = 0, kernels = 0;
};

/// The exchange of a region build (kernels.cpp's `exchanged` steps): the
/// rows it sends (the slab's edge rows) and receives (its halo rows) on the
/// sides that have a neighbour, and the call, which times itself.
struct RegionExchange {
  Domain &d;
  const Halo &h;
  double seconds = 0;
  static void run(void *self) {
    auto &x = *static_cast<RegionExchange *>(self);
    double t0 = now();
    exchange(x.d, x.h);
    x.seconds += now() - t0;
  }
  Exchange of() {
    Exchange x{{}, {}, &RegionExchange::run, this, h.beforeForce};
    const long n = d.g.rowParticles();
    auto row = [&](ParticleList &l, long r) {
      for (long k = 0; k < n; ++k)
        l.push_back(d.row(r) + k);
    };
    if (h.below != MPI_PROC_NULL) {
      row(x.sent, d.s.r0);
      row(x.received, d.s.r0 - 1);
    }
    if (h.above != MPI_PROC_NULL) {
      row(x.sent, d.s.r1 - 1);
      row(x.received, d.s.r1);
    }
    // Own rows [0, lo) and [hi, rows) are swept after the exchange: those
    // that see halo particles and the next ones (--edge-rows, edgeRowsFor),
    // so that the kernels after it are large enough to fill the GPU; with
    // --overlap off, every row.
    const long rows = d.s.r1 - d.s.r0, g = d.g.grid,
               k = h.edgeRows > 0 ? h.edgeRows : edgeRowsFor(d.g);
    long lo = std::min(rows, h.below != MPI_PROC_NULL ? k : 0),
         hi = std::max(lo, rows - (h.above != MPI_PROC_NULL ? k : 0));
    if (!h.innerFirst)
      lo = hi = rows;
    auto cells = [&](Exchange::Cells &c, long from, long to) {
      c.local.assign(d.local.begin() + from * g, d.local.begin() + to * g);
      c.active.assign(d.active.begin() + from * g, d.active.begin() + to * g);
    };
    cells(x.inner, lo, hi);
    cells(x.low, 0, lo);
    cells(x.high, hi, rows);
    return x;
  }
};

/// `steps` time steps of a plan on a slab; halo null: the whole domain in
/// one process (nothing to exchange).
void runSteps(Domain &d, const Plan &p, const Halo *halo, int steps,
              int threads, Timing &t) {
  if (p.exchanged && halo) { // one region, the exchanges inside it
    RegionExchange rx{d, *halo};
    Exchange x = rx.of();
    double t0 = now();
    p.exchanged(d.local, d.active, x, steps);
    t.exchange += rx.seconds;
    t.kernels += now() - t0 - rx.seconds;
    return;
  }
  for (int s = 0; s < steps; ++s) {
    double t0 = now();
    if (halo)
      exchange(d, *halo);
    double t1 = now();
    forCells(d, initDensity, threads);
    runKernel(d, p.density, p.densitySweep, threads);
    double t2 = now();
    if (halo && halo->beforeForce)
      exchange(d, *halo);
    double t3 = now();
    runKernel(d, p.force, p.forceSweep, threads);
    for (KernelFn fn : {p.kick1, p.drift, p.kick2})
      forCells(d, fn, threads);
    double t4 = now();
    t.exchange += (t1 - t0) + (t3 - t2);
    t.kernels += (t2 - t1) + (t4 - t3);
  }
}

// ---- checking ---------------------------------------------------------------

constexpr int kDoubles = offsetof(Particle, id) / sizeof(double);
constexpr double kFastTolerance = 1e-8;

/// strict: every byte equal. fast: every double within kFastTolerance of the
/// reference, relative to |a| + |b| + the largest magnitude of that field
/// (main.cpp's check).
bool same(const std::vector<Particle> &ref, const std::vector<Particle> &got,
          bool strict, std::string &why) {
  double scale[kDoubles] = {};
  for (const Particle &p : ref)
    for (int f = 0; f < kDoubles; ++f)
      scale[f] = std::max(scale[f],
                          std::fabs(reinterpret_cast<const double *>(&p)[f]));
  for (std::size_t k = 0; k < ref.size(); ++k) {
    const double *a = reinterpret_cast<const double *>(&ref[k]);
    const double *b = reinterpret_cast<const double *>(&got[k]);
    bool ok = !std::memcmp(a + kDoubles, b + kDoubles,
                           sizeof(Particle) - kDoubles * sizeof(double));
    for (int f = 0; f < kDoubles && ok; ++f)
      ok = strict ? !std::memcmp(a + f, b + f, sizeof(double))
                  : std::fabs(a[f] - b[f]) <=
                        kFastTolerance *
                            (std::fabs(a[f]) + std::fabs(b[f]) + scale[f]);
    if (!ok) {
      why = "particle " + std::to_string(k) + " differs";
      return false;
    }
  }
  return true;
}

/// FNV-1a of the particles' bytes: runs with different rank counts print the
/// same digest when they agree bit for bit.
unsigned long long digest(const std::vector<Particle> &ps) {
  unsigned long long h = 1469598103934665603ull;
  const unsigned char *b = reinterpret_cast<const unsigned char *>(ps.data());
  for (std::size_t i = 0; i < ps.size() * sizeof(Particle); ++i)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

/// The final state of the whole domain on rank 0 (empty elsewhere), in
/// global order: the slabs are consecutive ranges of it.
std::vector<Particle> gather(Domain &d, const Halo &h, int ranks) {
  int rank;
  MPI_Comm_rank(h.comm, &rank);
  int mine = static_cast<int>(d.ownParticles());
  std::vector<int> counts(ranks), offsets(ranks);
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, h.comm);
  std::vector<Particle> all;
  if (rank == 0) {
    for (int r = 1; r < ranks; ++r)
      offsets[r] = offsets[r - 1] + counts[r - 1];
    all.resize(d.g.n);
  }
  MPI_Gatherv(d.own(), mine, h.particle, all.data(), counts.data(),
              offsets.data(), h.particle, 0, h.comm);
  return all;
}

/// The one-process runs a build is compared with: the plain build's
/// per-cell kernels and the build's own table step (or its per-cell kernels
/// when its table has no step) on the whole domain, from the same state.
std::vector<Particle> oneProcess(const Geometry &g, const Options &o,
                                 const Build &b, const std::string &variant,
                                 int threads) {
  Domain whole(g, {0, g.grid, 0, g.grid}, o.seed);
  const StepEntry *se = b.swept() ? stepOf(b.table(), variant) : nullptr;
  if (se) {
    (b.regions ? se->region : se->loops)(whole.local, whole.active, o.steps);
  } else {
    Timing ignored;
    runSteps(whole, planOf(b, variant), nullptr, o.steps, threads, ignored);
  }
  return whole.store;
}

// ---- measuring --------------------------------------------------------------

struct Row {
  std::string build, fpmode, variant;
  long ppc = 0, n = 0;
  double step = 0, exchange = 0, kernels = 0; // seconds per step, slowest rank
  double convert = -1, transfer = -1, device = -1; // shares of kernel time
  double haloMB = 0; // sent per step by the rank that sends most
  std::string check = "unchecked", why; // PASS, FAIL, unchecked
  unsigned long long digest = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// The timed repetitions: per repetition the slowest rank's step,
/// exchange and kernel times; the median of each over the repetitions.
void timeSteps(Domain &d, const Plan &p, const Halo &h, const Options &o,
               int threads, Row &r) {
  std::vector<double> step, exch, kern;
  for (int rep = 0; rep < o.reps; ++rep) {
    d.reset();
    Timing t;
    MPI_Barrier(h.comm);
    double t0 = now();
    runSteps(d, p, &h, o.steps, threads, t);
    double mine[3] = {now() - t0, t.exchange, t.kernels}, most[3];
    MPI_Allreduce(mine, most, 3, MPI_DOUBLE, MPI_MAX, h.comm);
    step.push_back(most[0] / o.steps);
    exch.push_back(most[1] / o.steps);
    kern.push_back(most[2] / o.steps);
  }
  r.step = median(step);
  r.exchange = median(exch);
  r.kernels = median(kern);
}

/// One more run with soaview's phase timers on: the shares of conversion
/// (gather, scatter), transfers and device kernels in the kernel time, over
/// all ranks. The sweeps record wall time of the calling thread; the CPU
/// builds' phases add up over threads.
void profile(Domain &d, const Plan &p, const Halo &h, const Options &o,
             const Build &b, int threads, Row &r) {
  d.reset();
  soaview::rt::reset_phases();
  soaview::rt::set_profiling(true);
  Timing t;
  runSteps(d, p, &h, o.steps, threads, t);
  soaview::rt::set_profiling(false);
  const soaview::rt::phase_times ph = soaview::rt::phase_totals();
  namespace rt = soaview::rt;
  // Conversion: gathers, scatters and the sweeps' lists (rt::index).
  using rt::phase;
  double mine[4] = {double(ph[phase::gather] + ph[phase::scatter] + ph[phase::index]),
                    double(ph[phase::to_device] + ph[phase::from_device]),
                    double(ph[phase::kernel]),
                    t.kernels * 1e9 * (b.swept() ? 1 : threads)};
  double sum[4];
  MPI_Allreduce(mine, sum, 4, MPI_DOUBLE, MPI_SUM, h.comm);
  r.convert = std::min(1.0, sum[0] / sum[3]);
  if (b.device()) {
    r.transfer = std::min(1.0, sum[1] / sum[3]);
    r.device = std::min(1.0, sum[2] / sum[3]);
  }
}

// ---- output -----------------------------------------------------------------

void printHeader(const Geometry &g, int ranks, const Options &o) {
  std::printf("\n== ppc %ld, %ld particles (%ldx%ld cells), %d rank%s, %d "
              "step%s\n",
              g.ppc, g.n, g.grid, g.grid, ranks, ranks == 1 ? "" : "s", o.steps,
              o.steps == 1 ? "" : "s");
  std::printf("%-14s %-9s %-6s %10s %10s %10s %6s %8s %9s %7s %10s %9s  %s\n",
              "build", "variant", "fp", "step_ms", "exch_ms", "kern_ms",
              "exch%", "convert%", "transfer%", "device%", "ns/update",
              "halo_MB", "check");
}

void printRow(const Row &r) {
  auto pct = [](double v) {
    char buf[16];
    if (v < 0)
      std::snprintf(buf, sizeof buf, "-");
    else
      std::snprintf(buf, sizeof buf, "%.1f", 100 * v);
    return std::string(buf);
  };
  std::printf("%-14s %-9s %-6s %10.3f %10.3f %10.3f %6s %8s %9s %7s %10.2f "
              "%9.2f  %s digest %016llx%s%s\n",
              r.build.c_str(), r.variant.c_str(), r.fpmode.c_str(),
              1e3 * r.step, 1e3 * r.exchange, 1e3 * r.kernels,
              pct(r.exchange / r.step).c_str(), pct(r.convert).c_str(),
              pct(r.transfer).c_str(), pct(r.device).c_str(),
              1e9 * r.step / r.n, r.haloMB, r.check.c_str(), r.digest,
              r.why.empty() ? "" : ": ", r.why.c_str());
  std::fflush(stdout);
}

void writeCsv(std::FILE *csv, const Row &r, int ranks, int threads,
              const Options &o) {
  auto share = [&](double v) {
    if (v >= 0)
      std::fprintf(csv, ",%.4f", v);
    else
      std::fprintf(csv, ",");
  };
  std::fprintf(csv, "%d,%d,%s,%ld,%ld,%s,%s,%s,%d,%.4f,%.4f,%.4f,%.4f", ranks,
               threads, o.weak ? "weak" : "strong", r.ppc, r.n,
               r.variant.c_str(), r.fpmode.c_str(), r.build.c_str(), o.steps,
               1e3 * r.step, 1e3 * r.exchange, 1e3 * r.kernels,
               r.exchange / r.step);
  share(r.convert);
  share(r.transfer);
  share(r.device);
  std::fprintf(csv, ",%.3f,%.3f,%s,%016llx\n", 1e9 * r.step / r.n, r.haloMB,
               r.check.c_str(), r.digest);
}

// ---- devices ----------------------------------------------------------------

/// The rank's number among the ranks on its node.
int nodeRank(MPI_Comm world) {
  MPI_Comm node;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  return local;
}

/// SOAVIEW_SPH_DEVICE, else the rank on the node modulo the devices there;
/// -1 without devices.
int pickDevice(int local, int count) {
  const char *env = std::getenv("SOAVIEW_SPH_DEVICE");
  return count <= 0 ? -1 : env ? std::atoi(env) : local % count;
}

/// Sets the rank's device before any soaview call: the runtime allocates
/// and launches on the current device (cudaGetDevice,
/// omp_get_default_device). Returns the device and the device count.
std::pair<int, int> selectDevice(MPI_Comm world) {
  const int local = nodeRank(world);
  int device = -1, count = 0;
#ifdef SPH_WITH_CUDA
  if (cudaGetDeviceCount(&count) != cudaSuccess)
    count = 0;
  if ((device = pickDevice(local, count)) >= 0)
    cudaSetDevice(device);
#endif
#ifdef SPH_WITH_OFFLOAD
  // (With both backends linked, OpenMP numbers the same GPUs.)
  if (omp_get_num_devices() > 0) {
    count = omp_get_num_devices();
    device = pickDevice(local, count);
    omp_set_default_device(device);
  }
#endif
  (void)local;
  return {device, count};
}

void printRanks(const Slab &s, std::pair<int, int> dev, int ranks, int rank) {
  long mine[4] = {s.r0, s.r1, dev.first, dev.second};
  std::vector<long> all(4 * ranks);
  MPI_Gather(mine, 4, MPI_LONG, all.data(), 4, MPI_LONG, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < ranks; ++r)
    std::printf("rank %d: rows %ld-%ld, device %ld of %ld\n", r, all[4 * r],
                all[4 * r + 1] - 1, all[4 * r + 2], all[4 * r + 3]);
  std::fflush(stdout); // before a device build's first error, if any
}

/// The plain build of a floating-point mode (the reference).
const Build &plainOf(const std::string &fp) {
  for (const Build &b : kBuilds)
    if (!std::strcmp(b.build, "plain") && fp == b.fpmode)
      return b;
  usage("no plain build of fp mode " + fp);
}

/// What every measurement of one problem shares.
struct Problem {
  Geometry g;
  Domain &d;
  const Halo &h;
  const Options &o;
  int ranks, rank, threads;
  double haloMB;
  std::vector<Particle> plainRef; // rank 0, per fp mode and variant
};

/// Rank 0: the gathered state against the one-process runs --check names,
/// the plain build's (kept for the other builds) and the build's own.
void check(Problem &pr, const Build &b, const std::string &variant,
           const std::vector<Particle> &got, Row &r) {
  const bool strict = !std::strcmp(b.fpmode, "strict");
  const bool plain = !std::strcmp(b.build, "plain");
  std::string why;
  if (pr.o.checkPlain) {
    if (pr.plainRef.empty())
      pr.plainRef =
          oneProcess(pr.g, pr.o, plainOf(b.fpmode), variant, pr.threads);
    if (!same(pr.plainRef, got, strict, why))
      r.why = "vs one-process plain: " + why;
  }
  if (r.why.empty() && pr.o.checkBuild && !(plain && pr.o.checkPlain) &&
      !same(oneProcess(pr.g, pr.o, b, variant, pr.threads), got, strict, why))
    r.why = "vs one-process " + r.build + ": " + why;
  r.check = r.why.empty() ? "PASS" : "FAIL";
}

/// One build on one problem: the physics run from the initial state
/// (gathered and checked on rank 0), the profile, the timed repetitions.
Row measure(Problem &pr, const Build &b, const std::string &variant) {
  Row r;
  r.build = b.build, r.fpmode = b.fpmode, r.variant = variant;
  r.ppc = pr.g.ppc, r.n = pr.g.n, r.haloMB = pr.haloMB;
  const Plan p = planOf(b, variant);
  pr.d.reset();
  Timing ignored;
  runSteps(pr.d, p, &pr.h, pr.o.steps, pr.threads, ignored);
  std::vector<Particle> got = gather(pr.d, pr.h, pr.ranks);
  if (pr.rank == 0) {
    r.digest = digest(got);
    if (pr.o.check())
      check(pr, b, variant, got, r);
  }
  if (pr.o.profile && b.profiled())
    profile(pr.d, p, pr.h, pr.o, b, pr.threads, r);
  timeSteps(pr.d, p, pr.h, pr.o, pr.threads, r);
  return r;
}

/// Every selected build on one problem (ppc, particles); returns whether
/// all passed (rank 0; true elsewhere).
bool runProblem(const Geometry &g, MPI_Datatype particle, const Options &o,
                int threads, std::FILE *csv, bool printRankLines,
                std::pair<int, int> dev) {
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Slab s = slabOf(g, rank, ranks);
  Domain d(g, s, o.seed);
  Halo h{MPI_COMM_WORLD, particle, rank > 0 ? rank - 1 : MPI_PROC_NULL,
         rank + 1 < ranks ? rank + 1 : MPI_PROC_NULL, !o.skipForceExchange,
         o.overlap, o.edgeRows};
  if (printRankLines)
    printRanks(s, dev, ranks, rank);
  if (rank == 0)
    printHeader(g, ranks, o);
  double halo = 2 * haloBytes(d, h) / 1e6, haloMost;
  MPI_Allreduce(&halo, &haloMost, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  bool pass = true;
  for (const std::string &fp : o.fpmode)
    for (const std::string &variant : o.variant) {
      Problem pr{g, d, h, o, ranks, rank, threads, haloMost, {}};
      for (const Build &b : kBuilds) {
        if (fp != b.fpmode || !selected(o.builds, b.build))
          continue;
        Row r = measure(pr, b, variant);
        if (rank != 0)
          continue;
        printRow(r);
        if (csv)
          writeCsv(csv, r, ranks, threads, o);
        pass &= r.check != "FAIL";
      }
    }
  return pass;
}

std::FILE *openCsv(const std::string &path) {
  std::FILE *csv = std::fopen(path.c_str(), "w");
  if (!csv)
    usage("cannot write " + path);
  std::fprintf(csv, "ranks,threads,scaling,ppc,particles,variant,fpmode,build,"
                    "steps,step_ms,exchange_ms,kernels_ms,exchange_share,"
                    "convert_share,transfer_share,device_kernel_share,"
                    "ns_per_update,halo_mb_per_step,check,digest\n");
  return csv;
}

} // namespace
} // namespace sph

int main(int argc, char **argv) {
  using namespace sph;
  int provided, rank, ranks;
  // Only the main thread calls MPI; the kernels' OpenMP threads do not.
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::pair<int, int> dev = selectDevice(MPI_COMM_WORLD);
  Options o = parse(argc, argv);
  if (o.threads > 0)
    omp_set_num_threads(o.threads);
  const int threads = omp_get_max_threads();
  MPI_Datatype particle;
  MPI_Type_contiguous(sizeof(Particle), MPI_BYTE, &particle);
  MPI_Type_commit(&particle);
  std::FILE *csv = rank == 0 && !o.csv.empty() ? openCsv(o.csv) : nullptr;
  if (rank == 0)
    std::printf("soaview-sph-mpi: %d rank%s x %d thread%s, %d repetitions "
                "(median; slowest rank), times per time step\n",
                ranks, ranks == 1 ? "" : "s", threads, threads == 1 ? "" : "s",
                o.reps);
  bool pass = true, first = true;
  for (long ppc : o.ppc)
    for (long particles : o.particles) {
      Geometry g = geometryOf(ppc, o.weak ? particles * ranks : particles);
      if (g.grid < ranks)
        usage("fewer rows of cells than ranks");
      pass &= runProblem(g, particle, o, threads, csv, first, dev);
      first = false;
    }
  if (csv)
    std::fclose(csv);
  if (rank == 0)
    std::printf("\n%s\n", !o.check() ? "physics check: skipped (--check none)"
                          : pass     ? "physics check: all builds PASS"
                                     : "physics check: FAIL (see above)");
  MPI_Type_free(&particle);
  MPI_Finalize();
  return pass ? 0 : 1;
}
