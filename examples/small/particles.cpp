// Particles on the heap behind a list of pointers ([Radtke2025]'s scattered
// storage). The kernel reads and writes through getters, setters, a nested
// struct, a fixed-size array and a free function; writes are conditional.
#include "common.h"

#include <algorithm>
#include <memory>
#include <vector>

struct Particle {
  double x[3];
  double v[3];
  double mass;
  struct Thermo {
    double u, du, rho;
  } th;
  double pad[20]; // untouched by the kernel: never gathered
  int id;

  double getMass() const { return mass; }
  double getDensity() const { return th.rho; }
  void setEnergyRate(double r) { th.du = r; }
};

static double kineticEnergy(const Particle &p) {
  return 0.5 * p.mass * (p.v[0] * p.v[0] + p.v[1] * p.v[1] + p.v[2] * p.v[2]);
}

static void heat(Particle &p, double dt) {
  p.th.u += p.th.du * dt;
  if (p.th.u < 0)
    p.th.u = 0;
}

double step(std::vector<Particle *> &ps, double dt) {
  double total = 0;
  [[clang::soa_conversion]]
  for (Particle *p : ps) {
    total += kineticEnergy(*p);
    if (p->getDensity() <= 0.1)
      continue; // th.du keeps its old value for these particles
    p->setEnergyRate(-p->getMass() * p->th.rho * 0.01);
    heat(*p, dt);
    for (int d = 0; d < 3; ++d)
      p->x[d] += p->v[d] * dt;
  }
  return total;
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv);
  std::mt19937_64 rng(a.seed);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<std::unique_ptr<Particle>> owner;
  std::vector<Particle *> ps;
  for (long i = 0; i < a.n; ++i) {
    auto p = std::make_unique<Particle>();
    for (int d = 0; d < 3; ++d) {
      p->x[d] = U(rng);
      p->v[d] = U(rng);
    }
    p->mass = 1 + U(rng) * 0.5;
    p->th = {std::abs(U(rng)), U(rng), std::abs(U(rng))};
    p->id = static_cast<int>(i);
    ps.push_back(p.get());
    owner.push_back(std::move(p));
  }
  std::shuffle(ps.begin(), ps.end(), rng);
  double e = 0;
  for (int r = 0; r < a.reps; ++r)
    e += step(ps, 0.01);
  printValue("energy", e);
  double cx = 0, cu = 0, cdu = 0;
  for (auto &p : owner) {
    cx += p->x[0] + 2 * p->x[1] + 3 * p->x[2];
    cu += p->th.u;
    cdu += p->th.du;
  }
  printValue("x", cx);
  printValue("u", cu);
  printValue("du", cdu);
}
