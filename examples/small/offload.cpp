// Offloaded views (soa_conversion_offload_compute): a range loop over
// scattered pointers calling a free function, and an index loop. Run with
// host offloading in CI (OMP_TARGET_OFFLOAD=MANDATORY) and on the GPU with
// tools/gpu/run-gpu-tests.sh.
// Usage: offload SEED N REPS
#include "common.h"

#include <algorithm>
#include <memory>
#include <vector>

struct Particle {
  double x[3], v[3], a[3];
  double mass, h, rho;
  int id;
  double admin[16]; // never moves to the device
};

static void kick(Particle &p, double dt) {
  for (int d = 0; d < 3; ++d)
    p.v[d] += p.a[d] * dt;
}

void step(std::vector<Particle *> &ps, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (auto *p : ps) {
    kick(*p, 0.5 * dt);
    for (int d = 0; d < 3; ++d)
      p->x[d] += p->v[d] * dt;
    if (p->h > 0.5) // conditional write: unwritten slots keep their value
      p->rho = p->mass / (p->h * p->h);
  }
}

void smooth(Particle *buf, long n) {
  [[clang::soa_conversion_target("buf")]] [[clang::soa_conversion_offload_compute]]
  for (long i = 0; i < n; ++i)
    buf[i].h = 0.5 * buf[i].h + 0.25 * (buf[i].mass > 1.5 ? 1.0 : 0.5);
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv);
  std::mt19937_64 rng(a.seed);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<Particle> store(static_cast<std::size_t>(a.n));
  for (Particle &p : store) {
    for (int d = 0; d < 3; ++d) {
      p.x[d] = U(rng);
      p.v[d] = U(rng);
      p.a[d] = U(rng);
    }
    p.mass = 1.5 + U(rng);
    p.h = 0.5 + 0.4 * U(rng);
    p.rho = 0;
  }
  std::vector<Particle *> ps;
  for (Particle &p : store)
    ps.push_back(&p);
  std::shuffle(ps.begin(), ps.end(), rng);
  for (int r = 0; r < a.reps; ++r) {
    step(ps, 0.01);
    smooth(store.data(), a.n);
  }
  double x = 0, v = 0, rho = 0, h = 0;
  for (const Particle &p : store) {
    x += p.x[0] + 2 * p.x[1] + 3 * p.x[2];
    v += p.v[0] - p.v[2];
    rho += p.rho;
    h += p.h;
  }
  printValue("x", x);
  printValue("v", v);
  printValue("rho", rho);
  printValue("h", h);
}
