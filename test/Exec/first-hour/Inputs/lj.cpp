// A small Lennard-Jones code as a newcomer writes one (issue #51, "the first
// hour"): atoms in a cubic box, a cell list of cells as wide as the cut-off
// (about 18 atoms per cell), a force loop over pairs of neighbouring cells
// annotated for soaview, and a velocity-Verlet integrator. Prints the
// energy each step in hex, so that a difference in any bit shows.
//   lj STEPS CELLS_PER_SIDE ATOMS_PER_CELL SEED
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Atom {
  double x[3], v[3], f[3];
  double mass;
  int id;
};

struct Cell {
  std::vector<Atom *> atoms;
};

struct Box {
  int n;       // cells per side
  double side; // cell width = cut-off
  std::vector<Cell> cells;
  Cell &at(int i, int j, int k) {
    auto wrap = [&](int a) { return (a + n) % n; };
    return cells[(wrap(i) * n + wrap(j)) * n + wrap(k)];
  }
};

static double rand01(unsigned long long &s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return double(s >> 11) * (1.0 / 9007199254740992.0);
}

static void bin(Box &box, std::vector<Atom> &atoms) {
  for (Cell &c : box.cells)
    c.atoms.clear();
  for (Atom &a : atoms) {
    int i = int(a.x[0] / box.side), j = int(a.x[1] / box.side),
        k = int(a.x[2] / box.side);
    box.at(i, j, k).atoms.push_back(&a);
  }
}

static double pairForce(Atom &a, const Atom &b, double L, double rc2) {
  double d[3], r2 = 0;
  for (int c = 0; c < 3; ++c) {
    d[c] = a.x[c] - b.x[c];
    if (d[c] > L / 2)
      d[c] -= L;
    if (d[c] < -L / 2)
      d[c] += L;
    r2 += d[c] * d[c];
  }
  if (r2 >= rc2 || r2 == 0)
    return 0;
  double s6 = 1 / (r2 * r2 * r2), f = 24 * s6 * (2 * s6 - 1) / r2;
  for (int c = 0; c < 3; ++c)
    a.f[c] += f * d[c];
  return 2 * s6 * (s6 - 1);
}

static double cellPair(Cell &own, Cell &other, double L, double rc2) {
  double e = 0;
  [[clang::soa_conversion]]
  for (Atom *a : own.atoms)
    [[clang::soa_conversion_hoist(1)]]
    for (const Atom *b : other.atoms)
      e += pairForce(*a, *b, L, rc2);
  return e;
}

static double forces(Box &box, double rc2) {
  double e = 0, L = box.n * box.side;
  for (Cell &c : box.cells)
    for (Atom *a : c.atoms)
      a->f[0] = a->f[1] = a->f[2] = 0;
  for (int i = 0; i < box.n; ++i)
    for (int j = 0; j < box.n; ++j)
      for (int k = 0; k < box.n; ++k)
        for (int di = -1; di <= 1; ++di)
          for (int dj = -1; dj <= 1; ++dj)
            for (int dk = -1; dk <= 1; ++dk)
              e += cellPair(box.at(i, j, k), box.at(i + di, j + dj, k + dk), L,
                            rc2);
  return e;
}

static void integrate(std::vector<Atom> &atoms, double dt, double L) {
  for (Atom &a : atoms)
    for (int c = 0; c < 3; ++c) {
      a.v[c] += dt * a.f[c] / a.mass;
      a.x[c] += dt * a.v[c];
      a.x[c] = std::fmod(a.x[c] + L, L);
    }
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? std::atoi(argv[1]) : 3;
  int n = argc > 2 ? std::atoi(argv[2]) : 3;
  int perCell = argc > 3 ? std::atoi(argv[3]) : 18;
  unsigned long long seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  const double rc = 2.5, dt = 1e-4;
  Box box{n, rc, std::vector<Cell>(n * n * n)};
  std::vector<Atom> atoms(n * n * n * perCell);
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    Atom &a = atoms[i];
    for (int c = 0; c < 3; ++c) {
      a.x[c] = rand01(seed) * n * rc;
      a.v[c] = rand01(seed) - 0.5;
    }
    a.mass = 1 + rand01(seed);
    a.id = int(i);
  }
  for (int s = 0; s < steps; ++s) {
    bin(box, atoms);
    double e = forces(box, rc * rc);
    integrate(atoms, dt, n * rc);
    std::printf("step %d energy %a\n", s, e);
  }
  double sum = 0;
  for (const Atom &a : atoms)
    sum += a.x[0] + a.x[1] + a.x[2] + a.v[0];
  std::printf("checksum %a\n", sum);
}
