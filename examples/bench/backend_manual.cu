// The backend benchmark's hand-written limit (see backend_bench.h): the
// loops of backend_bench.cpp written by hand in CUDA over structure-of-arrays
// buffers, [Radtke2025], Listing 2, on a GPU: gather the fields into pinned host
// arrays, copy them to device arrays allocated once, one kernel (one thread
// per element), copy the written field back, scatter. Buffers are allocated
// on the first call and reused, as soaview's pool does.
// Usage: backend_manual REPS N...
#include "backend_bench.h"

#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));         \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

/// Grown-on-demand pinned host and device arrays of doubles.
struct Buffers {
  double *host = nullptr, *dev = nullptr;
  std::size_t cap = 0;
  void need(std::size_t n) {
    if (n <= cap)
      return;
    if (host) {
      CHECK(cudaFreeHost(host));
      CHECK(cudaFree(dev));
    }
    CHECK(cudaMallocHost(&host, n * sizeof(double)));
    CHECK(cudaMalloc(&dev, n * sizeof(double)));
    cap = n;
  }
};

static bool profiling = false;
static Phases phases;
static double mark;
static void phase(int k) { // end of phase k when profiling
  if (!profiling)
    return;
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  double t = now_us();
  phases.us[k] += t - mark;
  mark = t;
}

__global__ void driftKernel(std::size_t n, double *__restrict__ x,
                            const double *__restrict__ v) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
       i < n; i += std::size_t(blockDim.x) * gridDim.x)
    for (int d = 0; d < 3; ++d)
      x[3 * i + d] += v[3 * i + d] * kDt;
}

static unsigned grid(std::size_t n) {
  static int sms = 0;
  if (!sms)
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  std::size_t need = (n + 255) / 256, cap = std::size_t(sms) * 32;
  return unsigned(need < cap ? need : cap);
}

void drift(std::vector<Particle> &ps) {
  static Buffers x, v;
  std::size_t n = ps.size();
  x.need(3 * n), v.need(3 * n);
  mark = now_us();
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      x.host[3 * i + d] = ps[i].x[d];
      v.host[3 * i + d] = ps[i].v[d];
    }
  phase(0);
  cudaStream_t s = cudaStreamPerThread;
  CHECK(cudaMemcpyAsync(x.dev, x.host, 3 * n * sizeof(double), cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyAsync(v.dev, v.host, 3 * n * sizeof(double), cudaMemcpyHostToDevice, s));
  phase(1);
  driftKernel<<<grid(n), 256, 0, s>>>(n, x.dev, v.dev);
  CHECK(cudaGetLastError());
  phase(2);
  CHECK(cudaMemcpyAsync(x.host, x.dev, 3 * n * sizeof(double), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  phase(3);
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d)
      ps[i].x[d] = x.host[3 * i + d];
  phase(4);
}

__global__ void densityKernel(std::size_t n, const double *__restrict__ lx,
                              const double *__restrict__ lh,
                              double *__restrict__ rho, std::size_t m,
                              const double *__restrict__ ax,
                              const double *__restrict__ am) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
       i < n; i += std::size_t(blockDim.x) * gridDim.x) {
    double xi = lx[3 * i], yi = lx[3 * i + 1], zi = lx[3 * i + 2], h = lh[i];
    double r = rho[i];
    for (std::size_t j = 0; j < m; ++j) {
      double dx = xi - ax[3 * j], dy = yi - ax[3 * j + 1], dz = zi - ax[3 * j + 2];
      r += am[j] * bench_w(dx * dx + dy * dy + dz * dz, h);
    }
    rho[i] = r;
  }
}

void density(std::vector<Particle *> &local, std::vector<Particle *> &active) {
  static Buffers lx, lh, rho, ax, am;
  std::size_t n = local.size(), m = active.size();
  lx.need(3 * n), lh.need(n), rho.need(n), ax.need(3 * m), am.need(m);
  mark = now_us();
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d)
      lx.host[3 * i + d] = local[i]->x[d];
    lh.host[i] = local[i]->h;
    rho.host[i] = local[i]->rho;
  }
  for (std::size_t j = 0; j < m; ++j) {
    for (int d = 0; d < 3; ++d)
      ax.host[3 * j + d] = active[j]->x[d];
    am.host[j] = active[j]->mass;
  }
  phase(0);
  cudaStream_t s = cudaStreamPerThread;
  CHECK(cudaMemcpyAsync(lx.dev, lx.host, 3 * n * sizeof(double), cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyAsync(lh.dev, lh.host, n * sizeof(double), cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyAsync(rho.dev, rho.host, n * sizeof(double), cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyAsync(ax.dev, ax.host, 3 * m * sizeof(double), cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyAsync(am.dev, am.host, m * sizeof(double), cudaMemcpyHostToDevice, s));
  phase(1);
  densityKernel<<<grid(n), 256, 0, s>>>(n, lx.dev, lh.dev, rho.dev, m, ax.dev, am.dev);
  CHECK(cudaGetLastError());
  phase(2);
  CHECK(cudaMemcpyAsync(rho.host, rho.dev, n * sizeof(double), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  phase(3);
  for (std::size_t i = 0; i < n; ++i)
    local[i]->rho = rho.host[i];
  phase(4);
}

int main(int argc, char **argv) {
  auto profiled = [](auto &call) {
    phases = Phases();
    profiling = true;
    call();
    profiling = false;
    return phases;
  };
  return run_bench("manual", argc, argv, drift, density, profiled);
}
