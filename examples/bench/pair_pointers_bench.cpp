// A symmetric pair nest over a container of pointers (docs/attributes.md,
// "Symmetric pair loops"): each pair visited once, both objects written
// (Newton's third law), as molecular-dynamics codes write it. The objects
// are allocated one by one and shuffled, as a code's heap leaves them, and
// carry fields the kernel never reads. Converted, the outer frame gathers
// the four fields the nest uses once and the inner loop walks it; as
// written, every pair reads both objects through their pointers.
// Usage: pair_pointers_bench N STEPS [REPEATS]
// Prints a digest of the forces (hex of their sum) and the seconds of the
// STEPS steps. REPEATS puts that many objects in the container twice: then
// the converted build runs the nest as written (tools/bench-pairs.sh).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <random>
#include <vector>

struct Atom {
  double x, y, z;
  double fx, fy, fz;
  double admin[10]; // velocities, ids, history: not read by the kernel
};

__attribute__((noinline)) void forces(std::vector<Atom *> &atoms) {
  [[clang::soa_conversion]]
  for (auto it = atoms.begin(); it != atoms.end(); ++it)
    [[clang::soa_conversion]]
    for (auto jt = std::next(it); jt != atoms.end(); ++jt) {
      const double dx = (*it)->x - (*jt)->x, dy = (*it)->y - (*jt)->y,
                   dz = (*it)->z - (*jt)->z;
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 > 0 && r2 < 2.5 * 2.5) {
        const double s2 = 1.0 / r2, s6 = s2 * s2 * s2;
        const double f = 24 * s2 * s6 * (2 * s6 - 1);
        (*it)->fx += f * dx, (*it)->fy += f * dy, (*it)->fz += f * dz;
        (*jt)->fx -= f * dx, (*jt)->fy -= f * dy, (*jt)->fz -= f * dz;
      }
    }
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 10;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 0;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  // A box holding about 0.8 atoms per unit volume, about 50 neighbours
  // within the cut-off.
  const double side = std::cbrt(n / 0.8);
  std::vector<std::unique_ptr<Atom>> store;
  std::vector<Atom *> atoms;
  for (int i = 0; i < n; ++i) {
    store.push_back(std::make_unique<Atom>());
    Atom &a = *store.back();
    a.x = side * u(rng), a.y = side * u(rng), a.z = side * u(rng);
    atoms.push_back(&a);
  }
  std::shuffle(atoms.begin(), atoms.end(), rng);
  for (int r = 0; r < repeats && r < n; ++r)
    atoms.push_back(atoms[r]);
  auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s)
    forces(atoms);
  auto t1 = std::chrono::steady_clock::now();
  double sum = 0;
  for (const Atom *a : atoms)
    sum += a->fx + 2 * a->fy + 3 * a->fz;
  std::printf("%a %.6f\n", sum, std::chrono::duration<double>(t1 - t0).count());
}
