// A velocity step that reads the mass and the force through non-const
// accessors (`double &mass()`, `std::array<double, 3> &force()`), as many
// C++ particle codes write their particles, over a container of pointers
// (issue #50, part 6). Only the velocity is written: the view gathers mass,
// force and velocity and scatters the velocity alone, since a read through
// a non-const accessor is not a write (docs/semantics.md, "What counts as a
// write"). Before that rule, mass and force were scattered back unchanged.
// Usage: accessor_bench PARTICLES STEPS
// Prints a digest of the velocities (plain and converted builds must print
// the same); time it with
//   tools/soaview-compare.py --time --repeat 5 --run "200000 200" \
//     examples/bench/accessor_bench.cpp
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

class Particle {
public:
  double &mass() { return m_; }
  std::array<double, 3> &force() { return f_; }
  std::array<double, 3> &vel() { return v_; }
  std::array<double, 3> &pos() { return x_; }

private:
  std::array<double, 3> x_, v_, f_;
  double m_;
  double admin_[6]; // never touched by the step
};

__attribute__((noinline)) void kick(std::vector<Particle *> &ps, double dt) {
  [[clang::soa_conversion("always")]]
  for (Particle *p : ps) {
    const double im = dt / p->mass();
    for (int k = 0; k < 3; ++k)
      p->vel()[k] += im * p->force()[k];
  }
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 200000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 200;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0.5, 1.5);
  std::vector<Particle> store(n);
  std::vector<Particle *> ps;
  for (Particle &p : store) {
    p.mass() = u(rng);
    for (int k = 0; k < 3; ++k)
      p.pos()[k] = u(rng), p.vel()[k] = 0, p.force()[k] = u(rng) - 1;
    ps.push_back(&p);
  }
  std::shuffle(ps.begin(), ps.end(), rng); // a cell list's order
  for (int s = 0; s < steps; ++s)
    kick(ps, 1e-3);
  std::uint64_t digest = 1469598103934665603ull;
  for (Particle &p : store)
    for (int k = 0; k < 3; ++k) {
      std::uint64_t b;
      std::memcpy(&b, &p.vel()[k], sizeof b);
      digest = (digest ^ b) * 1099511628211ull;
    }
  std::printf("%016llx\n", (unsigned long long)digest);
}
