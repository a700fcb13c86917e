// Several devices in one process (docs/runtime.md, "Several devices"). Two
// host threads, each on its own device (omp_set_default_device, or
// cudaSetDevice in the CUDA translation), run at the same time over their
// own particles: an offloaded loop, a sweep whose code allocates (the device
// heap of its device) and a view region of sweeps. Then one thread runs a
// third set of particles on the two devices in turn, one step each. Prints
// every set's results exactly: equal to the plain build bit for bit.
// Arguments: seed, particles per cell, steps; a fourth, "switch", changes the
// device between two sweeps of one view region instead, which the region
// refuses at run time.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <cstring>
#include <thread>
#include <vector>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
static int devices() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}
static void useDevice(int d) { cudaSetDevice(d); }
#elif defined(_OPENMP)
#include <omp.h>
static int devices() { return omp_get_num_devices(); }
static void useDevice(int d) { omp_set_default_device(d); }
#else
static int devices() { return 2; }
static void useDevice(int) {}
#endif

struct Particle {
  double x[2], v[2], a[2];
  double h, mass, rho;
  int id;
};

struct Cell {
  std::vector<Particle *> local, active;
};

struct World {
  std::vector<std::unique_ptr<Particle>> owner;
  std::vector<Cell> cells;
  std::vector<Particle *> all;
};

static double kernelW(double q) {
  double t = 1.0 - q;
  return t > 0 ? t * t * t * (1 + 3 * q) : 0.0;
}

// Allocates in offloaded code: a scratch array per particle.
void density(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (Particle *l : c.local) {
      double *w = new double[2];
      w[0] = w[1] = 0;
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *a : c.active) {
        double dx = l->x[0] - a->x[0], dy = l->x[1] - a->x[1];
        double r2 = dx * dx + dy * dy;
        if (r2 < l->h * l->h) {
          w[0] += a->mass * kernelW(std::sqrt(r2) / l->h);
          w[1] += 1;
        }
      }
      l->rho = w[0] + 0.001 * w[1];
      delete[] w;
    }
  }
}

void force(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (Particle *l : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Particle *a : c.active) {
        double dx = l->x[0] - a->x[0], dy = l->x[1] - a->x[1];
        double r2 = dx * dx + dy * dy;
        if (r2 < l->h * l->h && r2 > 0) {
          double f = a->mass / (l->rho + a->rho + 1) / (r2 + 0.01);
          l->a[0] += f * dx;
          l->a[1] += f * dy;
        }
      }
    }
  }
}

// An offloaded loop over all particles (no cells).
void kick(std::vector<Particle *> &all, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle *p : all) {
    p->v[0] += dt * p->a[0];
    p->v[1] += dt * p->a[1];
    p->x[0] += dt * p->v[0];
    p->x[1] += dt * p->v[1];
    p->a[0] = p->a[1] = 0;
  }
}

void regionSteps(World &w, int steps) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < steps; ++s) {
    density(w.cells);
    force(w.cells);
  }
}

// The device changes inside the region: refused, nothing written back.
void regionSwitching(World &w) {
  [[clang::soa_conversion_region]] {
    useDevice(0);
    density(w.cells);
    useDevice(1);
    force(w.cells);
  }
}

static void step(World &w, int steps) {
  for (int s = 0; s < steps; ++s) {
    density(w.cells);
    force(w.cells);
    kick(w.all, 1e-3);
  }
  regionSteps(w, steps);
  kick(w.all, 1e-3);
}

static void build(World &w, unsigned seed, long n) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0, 1);
  const int cells = 5;
  w.cells.resize(cells);
  for (int c = 0; c < cells; ++c)
    for (long i = 0; i < n; ++i) {
      auto p = std::make_unique<Particle>();
      p->x[0] = c + U(rng);
      p->x[1] = U(rng);
      p->v[0] = U(rng) - 0.5;
      p->v[1] = U(rng) - 0.5;
      p->a[0] = p->a[1] = 0;
      p->h = 0.3 + 0.2 * U(rng);
      p->mass = 1 + U(rng);
      p->rho = 0;
      p->id = static_cast<int>(w.owner.size());
      w.cells[c].local.push_back(p.get());
      w.all.push_back(p.get());
      w.owner.push_back(std::move(p));
    }
  for (int c = 0; c < cells; ++c)
    for (int d = -1; d <= 1; ++d)
      for (Particle *p : w.cells[(c + d + cells) % cells].local)
        w.cells[c].active.push_back(p);
}

static void print(const char *name, const World &w) {
  double rho = 0, x = 0, v = 0;
  for (auto &p : w.owner) {
    rho += p->rho * (1 + p->id % 3);
    x += p->x[0] * (1 + p->id % 5) + p->x[1];
    v += p->v[0] * (1 + p->id % 3) + p->v[1];
  }
  std::printf("%s rho %a x %a v %a\n", name, rho, x, v);
}

int main(int argc, char **argv) {
  unsigned seed = argc > 1 ? std::atoi(argv[1]) : 1;
  long n = argc > 2 ? std::atol(argv[2]) : 50;
  int steps = argc > 3 ? std::atoi(argv[3]) : 2;
  if (devices() < 2) {
    std::fprintf(stderr, "two_devices: needs two devices, found %d\n",
                 devices());
    return 2;
  }
  World w[3];
  for (int k = 0; k < 3; ++k)
    build(w[k], seed + k, n);
  if (argc > 4 && !std::strcmp(argv[4], "switch")) {
    try {
      regionSwitching(w[0]);
      print("switched", w[0]);
    } catch (const std::logic_error &) {
      print("refused", w[0]);
    }
    return 0;
  }
  std::vector<std::thread> threads;
  for (int d = 0; d < 2; ++d)
    threads.emplace_back([&, d] {
      useDevice(d);
      step(w[d], steps);
    });
  for (auto &t : threads)
    t.join();
  for (int s = 0; s < 2 * steps; ++s) { // one thread, the devices in turn
    useDevice(s % 2);
    step(w[2], 1);
  }
  print("device0", w[0]);
  print("device1", w[1]);
  print("alternating", w[2]);
}
