// The hand-written CUDA sweep the cuda-sweep build is measured against
// (build manual-cuda-sweep; docs/benchmarks.md, "Sweeps"): the pair kernels
// over all cells written by hand, as a CUDA programmer who knows the grid
// writes them. One gather of every particle into SoA arrays (cell-major, so
// a cell's particles are one range of slots and its neighbours are the 3x3
// cells around it: no pointer matching), one copy each way, one launch with
// blocks of up to 128 of a cell's particles (a thread each) reading the
// neighbours through shared-memory tiles, one scatter. The arithmetic is
// kernels.cpp's, in the same order, so the strict build (--fmad=false)
// matches the plain build bit for bit.
//
// The phases are recorded with soaview's timers (soaview::rt::record) only
// so that the driver reports them as for the generated builds; nothing else
// of soaview is used. Compiled by nvcc into namespace SPH_NS.
#include "kernels.h"

#include <soaview/pool.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef SPH_NS
#error "compile with -DSPH_NS=<build name>"
#endif

namespace sph {
namespace SPH_NS {
namespace {

constexpr int kMaxBlock = 128; // threads per block, and the tile length

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "manual-cuda-sweep: %s: %s\n", what, cudaGetErrorString(e));
    throw std::runtime_error(std::string("manual-cuda-sweep: ") + what);
  }
}

/// Pinned host and device blocks, grown on demand and kept between calls.
struct Blocks {
  void *host = nullptr, *dev = nullptr;
  std::size_t bytes = 0;
  void reserve(std::size_t b) {
    if (b <= bytes)
      return;
    cudaFreeHost(host);
    cudaFree(dev);
    check(cudaMallocHost(&host, b), "pinned allocation");
    check(cudaMalloc(&dev, b), "device allocation");
    bytes = b;
  }
};

/// A kernel's arrays in one block: NIn fields read, then NOut fields read
/// and written (copied back in one piece), then the cells' first slots.
template <int NIn, int NOut> struct Soa {
  double *f[NIn + NOut];
  std::uint32_t *start; // cells + 1 entries
  int side;             // cells per row of the square grid
};

/// Slots of the cells (cell-major) and a check that each cell's active list
/// is its 3x3 neighbours' local lists in row order, which is what the
/// kernel reads instead of the list.
std::vector<std::uint32_t> layout(CellLists &locals, CellLists &actives, int &side) {
  const std::size_t cells = locals.size();
  side = 0;
  while (std::size_t(side + 1) * (side + 1) <= cells)
    ++side;
  if (std::size_t(side) * side != cells)
    throw std::invalid_argument("manual-cuda-sweep: the cells are not a square grid");
  std::vector<std::uint32_t> start(cells + 1, 0);
  for (std::size_t c = 0; c < cells; ++c)
    start[c + 1] = start[c] + std::uint32_t(locals[c].size());
  for (int cy = 0; cy < side; ++cy)
    for (int cx = 0; cx < side; ++cx) {
      const ParticleList &A = actives[cy * side + cx];
      std::size_t at = 0;
      bool ok = true;
      for (int ny = cy - 1; ny <= cy + 1; ++ny)
        for (int nx = cx - 1; nx <= cx + 1; ++nx) {
          if (nx < 0 || ny < 0 || nx >= side || ny >= side)
            continue;
          const ParticleList &L = locals[ny * side + nx];
          ok &= L.empty() || (at < A.size() && A[at] == L[0]);
          at += L.size();
        }
      if (!ok || at != A.size())
        throw std::invalid_argument("manual-cuda-sweep: an active list is not "
                                    "the 3x3 neighbours' local lists");
    }
  return start;
}

// ---- the pair physics (kernels.cpp's densityPair and forcePair) --------------

struct DensityKernel {
  static constexpr int kIn = 6;  // x0 x1 v0 v1 h mass
  static constexpr int kOut = 6; // rho wcount wcount_dh rho_dh div_v rot_v
  static constexpr int kTile = 5; // x0 x1 v0 v1 mass of the neighbours
  static void gather(const Particle &p, double *v) {
    v[0] = p.x[0], v[1] = p.x[1], v[2] = p.v[0], v[3] = p.v[1], v[4] = p.h,
    v[5] = p.mass, v[6] = p.rho, v[7] = p.wcount, v[8] = p.wcount_dh,
    v[9] = p.rho_dh, v[10] = p.div_v, v[11] = p.rot_v;
  }
  static void scatter(Particle &p, const double *v) {
    p.rho = v[6], p.wcount = v[7], p.wcount_dh = v[8], p.rho_dh = v[9],
    p.div_v = v[10], p.rot_v = v[11];
  }
  /// Field k of the tile from field tileField(k) of the arrays.
  __device__ static int tileField(int k) { return k < 4 ? k : 5; }
  /// i: the local particle's fields (kIn + kOut), t: tile, j: its entry.
  template <bool Mask>
  __device__ static void pair(double *i, double (*t)[kMaxBlock], int j) {
    const double dx = i[0] - t[0][j], dy = i[1] - t[1][j];
    const double r2 = dx * dx + dy * dy;
    const bool in = r2 < i[4] * i[4];
    if (!Mask && !in)
      return;
    const double mask = Mask ? (in ? 1.0 : 0.0) : 1.0;
    const double mj = t[4][j];
    const double H = i[4];
    const double r = std::sqrt(r2);
    const double q = 2.5 * r / H;
    const double norm = quarticNorm(H);
    const double w = mask * norm * quarticW(q);
    const double dwdr = mask * norm * quarticDW(q) * 2.5 / H;
    const double dwdh = -(2 * w + r * dwdr) / H;
    i[6] += mj * w;
    i[7] += w;
    i[8] += dwdh;
    i[9] += mj * dwdh;
    const double rinv = r2 > 0 ? 1 / r : 0.0;
    const double dvx = i[2] - t[2][j], dvy = i[3] - t[3][j];
    const double fac = mj * dwdr * rinv;
    i[10] -= fac * (dvx * dx + dvy * dy);
    i[11] += fac * (dvx * dy - dvy * dx);
  }
};

struct ForceKernel {
  // x0 x1 vf0 vf1 h mass rho pressure f_grad soundspeed balsara
  static constexpr int kIn = 11;
  static constexpr int kOut = 5; // a0 a1 u_dt h_dt v_sig
  static constexpr int kTile = 11;
  static void gather(const Particle &p, double *v) {
    v[0] = p.x[0], v[1] = p.x[1], v[2] = p.v_full[0], v[3] = p.v_full[1],
    v[4] = p.h, v[5] = p.mass, v[6] = p.rho, v[7] = p.pressure, v[8] = p.f_grad,
    v[9] = p.soundspeed, v[10] = p.balsara, v[11] = p.a[0], v[12] = p.a[1],
    v[13] = p.u_dt, v[14] = p.h_dt, v[15] = p.v_sig;
  }
  static void scatter(Particle &p, const double *v) {
    p.a[0] = v[11], p.a[1] = v[12], p.u_dt = v[13], p.h_dt = v[14], p.v_sig = v[15];
  }
  __device__ static int tileField(int k) { return k; }
  template <bool Mask>
  __device__ static void pair(double *i, double (*t)[kMaxBlock], int j) {
    const double dx = i[0] - t[0][j], dy = i[1] - t[1][j];
    const double r2 = dx * dx + dy * dy;
    const double Hi = i[4], Hj = t[4][j];
    const bool in = r2 < Hi * Hi || r2 < Hj * Hj;
    if (!Mask && !in)
      return;
    const double mask = Mask ? (in ? 1.0 : 0.0) : 1.0;
    const double r = std::sqrt(r2);
    const double rinv = r2 > 0 ? 1 / r : 0.0;
    const double dWi = mask * quarticNorm(Hi) * quarticDW(2.5 * r / Hi) * 2.5 / Hi;
    const double dWj = mask * quarticNorm(Hj) * quarticDW(2.5 * r / Hj) * 2.5 / Hj;
    const double Pi = i[7] / (i[6] * i[6]) * i[8];
    const double Pj = t[7][j] / (t[6][j] * t[6][j]) * t[8][j];
    const double dvx = i[2] - t[2][j];
    const double dvy = i[3] - t[3][j];
    const double dvdr = dvx * dx + dvy * dy;
    const double mu = dvdr < 0 ? dvdr * rinv : 0.0;
    const double vsig = i[9] + t[9][j] - 3 * mu;
    const double rhoij = 0.5 * (i[6] + t[6][j]);
    const double visc = -0.25 * kAlpha * vsig * mu / rhoij * (i[10] + t[10][j]);
    const double dWij = 0.5 * (dWi + dWj);
    const double acc = t[5][j] * (Pi * dWi + Pj * dWj + visc * dWij) * rinv;
    i[11] -= acc * dx;
    i[12] -= acc * dy;
    i[13] += t[5][j] * (Pi * dWi + 0.5 * visc * dWij) * dvdr * rinv;
    i[14] -= t[5][j] / t[6][j] * dvdr * dWi * rinv;
    i[15] = std::fmax(i[15], mask * vsig);
  }
};

// ---- the kernel: a block per cell ----------------------------------------------

/// Block (c, k) runs the k-th blockDim particles of cell c, one per
/// thread; its threads walk the 3x3 neighbour cells in row order (the
/// active list's order) through tiles of blockDim neighbours in shared
/// memory.
template <class K, bool Mask>
__global__ void __launch_bounds__(kMaxBlock) sweepKernel(Soa<K::kIn, K::kOut> s) {
  __shared__ double tile[K::kTile][kMaxBlock];
  const int c = blockIdx.x, cx = c % s.side, cy = c / s.side;
  const std::uint32_t last = s.start[c + 1];
  const std::uint32_t base = s.start[c] + blockIdx.y * blockDim.x;
  if (base >= last)
    return; // the whole block: this cell has fewer particles
  const std::uint32_t me = base + threadIdx.x;
  const bool live = me < last;
  double i[K::kIn + K::kOut];
  if (live)
    for (int f = 0; f < K::kIn + K::kOut; ++f)
      i[f] = s.f[f][me];
  for (int ny = cy - 1; ny <= cy + 1; ++ny)
    for (int nx = cx - 1; nx <= cx + 1; ++nx) {
      if (nx < 0 || ny < 0 || nx >= s.side || ny >= s.side)
        continue;
      const int nc = ny * s.side + nx;
      const std::uint32_t nb = s.start[nc], ne = s.start[nc + 1];
      for (std::uint32_t t0 = nb; t0 < ne; t0 += blockDim.x) {
        __syncthreads(); // the previous tile is done with
        if (t0 + threadIdx.x < ne)
          for (int k = 0; k < K::kTile; ++k)
            tile[k][threadIdx.x] = s.f[K::tileField(k)][t0 + threadIdx.x];
        __syncthreads();
        const int n = int(ne - t0 < blockDim.x ? ne - t0 : blockDim.x);
        if (live)
          for (int j = 0; j < n; ++j)
            K::template pair<Mask>(i, tile, j);
      }
    }
  if (live)
    for (int f = K::kIn; f < K::kIn + K::kOut; ++f)
      s.f[f][me] = i[f];
}

/// One sweep: gather, copy, launch, copy back, scatter.
template <class K, bool Mask> void sweep(CellLists &locals, CellLists &actives) {
  static soaview::site where(Mask ? "manual_cuda.cu:masking" : "manual_cuda.cu:branching");
  static thread_local Blocks blocks;
  constexpr int kF = K::kIn + K::kOut;
  soaview::rt::phase_clock clock(where);
  auto phase = [&](soaview::rt::phase p) {
    if (!clock.on())
      return;
    check(cudaStreamSynchronize(cudaStreamPerThread), "phase");
    clock.mark(p);
  };
  int side = 0;
  const std::vector<std::uint32_t> start = layout(locals, actives, side);
  const std::size_t cells = locals.size(), n = start[cells];
  const std::size_t bytes = kF * n * sizeof(double) + (cells + 1) * sizeof(std::uint32_t);
  blocks.reserve(bytes);
  Soa<K::kIn, K::kOut> h{}, d{};
  for (int f = 0; f < kF; ++f) {
    h.f[f] = static_cast<double *>(blocks.host) + f * n;
    d.f[f] = static_cast<double *>(blocks.dev) + f * n;
  }
  h.start = reinterpret_cast<std::uint32_t *>(h.f[0] + kF * n);
  d.start = reinterpret_cast<std::uint32_t *>(d.f[0] + kF * n);
  h.side = d.side = side;
  std::copy(start.begin(), start.end(), h.start);
#pragma omp parallel for schedule(static)
  for (std::size_t c = 0; c < cells; ++c) {
    double v[kF];
    for (std::size_t k = 0; k < locals[c].size(); ++k) {
      K::gather(*locals[c][k], v);
      for (int f = 0; f < kF; ++f)
        h.f[f][start[c] + k] = v[f];
    }
  }
  phase(soaview::rt::phase::gather);
  check(cudaMemcpyAsync(blocks.dev, blocks.host, bytes, cudaMemcpyHostToDevice,
                        cudaStreamPerThread),
        "copy to the device");
  phase(soaview::rt::phase::to_device);
  std::size_t most = 0;
  for (const ParticleList &L : locals)
    most = L.size() > most ? L.size() : most;
  const unsigned block = unsigned(most >= kMaxBlock ? kMaxBlock : (most + 31) / 32 * 32);
  if (cells && block) {
    const dim3 grid(unsigned(cells), unsigned((most + block - 1) / block));
    sweepKernel<K, Mask><<<grid, block, 0, cudaStreamPerThread>>>(d);
    check(cudaGetLastError(), "kernel launch");
  }
  phase(soaview::rt::phase::kernel);
  check(cudaMemcpyAsync(h.f[K::kIn], d.f[K::kIn], K::kOut * n * sizeof(double),
                        cudaMemcpyDeviceToHost, cudaStreamPerThread),
        "copy from the device");
  check(cudaStreamSynchronize(cudaStreamPerThread), "sweep");
  phase(soaview::rt::phase::from_device);
#pragma omp parallel for schedule(static)
  for (std::size_t c = 0; c < cells; ++c) {
    double v[kF];
    for (std::size_t k = 0; k < locals[c].size(); ++k) {
      for (int f = K::kIn; f < kF; ++f)
        v[f] = h.f[f][start[c] + k];
      K::scatter(*locals[c][k], v);
    }
  }
  phase(soaview::rt::phase::scatter);
}

// The sweeps where kernels.cpp has them; the rest run cell by cell from the
// CPU build the driver pairs with this table (manual.cpp), so fn is unused.
const KernelEntry kEntries[] = {
    {"density", "branching", true, nullptr, sweep<DensityKernel, false>},
    {"density", "masking", true, nullptr, sweep<DensityKernel, true>},
    {"density", "active-local", true, nullptr, nullptr},
    {"force", "branching", true, nullptr, sweep<ForceKernel, false>},
    {"force", "masking", true, nullptr, sweep<ForceKernel, true>},
    {"kick1", "streaming", false, nullptr, nullptr},
    {"kick2", "streaming", false, nullptr, nullptr},
    {"drift", "streaming", false, nullptr, nullptr},
};

} // namespace

// No step functions (KernelTable::steps null): manual-cuda-sweep has no time
// step.
KernelTable table() { return {kEntries, sizeof(kEntries) / sizeof(kEntries[0])}; }

} // namespace SPH_NS
} // namespace sph
