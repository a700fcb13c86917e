// Pair nests that write a field through both loops' views, or write it in
// one loop and read it in the other, over containers that share elements
// (AutoPas's functors with newton3: `i.addF(f); if (newton3) j.subF(f);`,
// and a density written by the outer loop and read by the inner one). Such
// a field stays in the element: every view reaches it through a reference
// member, so all loops see each other's writes as the loops as written do.
// Here the active set holds every local particle and some twice; the
// fields in place are private, in a base class template, an array and a
// scalar; the other fields go through buffers as usual.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 6 --out %t \
// RUN:   --run "1 40" --run "7 3" --run "3 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

namespace lib {
template <class F> class ParticleBase {
public:
  F getR(int k) const { return r[k]; }
  F getF(int k) const { return f[k]; }
  void addF(const F *d) {
    for (int k = 0; k < 2; ++k)
      f[k] += d[k];
  }
  void subF(const F *d) {
    for (int k = 0; k < 2; ++k)
      f[k] -= d[k];
  }
  F r[2] = {0, 0};

protected:
  F f[2] = {0, 0};
};
} // namespace lib

class Mol : public lib::ParticleBase<double> {
public:
  double getRho() const { return rho; }
  void addRho(double d) { rho += d; }
  void setRho(double d) { rho = d; }
  double mass = 1;

private:
  double rho = 0;
};

struct Functor {
  double cut = 0.3, eps = 1.5;
  long pairs = 0;
  void aos(Mol &i, Mol &j, bool newton3) {
    double d[2] = {i.getR(0) - j.getR(0), i.getR(1) - j.getR(1)};
    double r2 = d[0] * d[0] + d[1] * d[1];
    if (r2 > cut * cut || r2 == 0)
      return;
    ++pairs;
    double s = eps * (cut * cut - r2), fd[2] = {s * d[0], s * d[1]};
    i.addF(fd);
    i.addRho(j.mass * s);
    if (newton3) {
      j.subF(fd);
      j.addRho(i.mass * s);
    }
  }
};

void pairs(Functor &fn, std::vector<Mol *> &local, std::vector<Mol *> &active,
           bool newton3) {
  [[clang::soa_conversion("always")]]
  for (Mol *p1 : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (Mol *p2 : active)
      if (p1 != p2)
        fn.aos(*p1, *p2, newton3);
  }
}

// The outer loop writes rho before the inner loop reads everyone's.
void smooth(std::vector<Mol *> &local, std::vector<Mol *> &active) {
  [[clang::soa_conversion("always")]]
  for (Mol *p1 : local) {
    p1->setRho(0.5 * p1->getRho() + p1->mass);
    double sum = 0;
    [[clang::soa_conversion]]
    for (Mol *p2 : active)
      sum += p2->getRho() * p2->r[0];
    p1->mass = sum;
  }
}

// Both loops over one vector of objects.
void cell(std::vector<Mol> &ms, Functor &fn) {
  [[clang::soa_conversion("always")]]
  for (Mol &a : ms) {
    [[clang::soa_conversion]]
    for (Mol &b : ms)
      fn.aos(a, b, true);
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  std::vector<Mol> ms(n);
  for (Mol &m : ms) {
    m.r[0] = corpus::uniform();
    m.r[1] = corpus::uniform();
    m.mass = 0.5 + corpus::uniform();
  }
  std::vector<Mol *> local, active;
  for (int k = 0; k < n; ++k) {
    if (k % 3)
      local.push_back(&ms[k]);
    active.push_back(&ms[k]);
    if (k % 4 == 0)
      active.push_back(&ms[k]); // twice: the pair is visited twice
  }
  Functor fn;
  pairs(fn, local, active, true);
  pairs(fn, local, active, false);
  smooth(local, active);
  cell(ms, fn);
  for (const Mol &m : ms) {
    corpus::print("f", m.getF(0) + 3 * m.getF(1));
    corpus::print("rho", m.getRho());
    corpus::print("mass", m.mass);
  }
  corpus::print("pairs", fn.pairs);
}
