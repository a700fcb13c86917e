// Kernels written as functors, the commonest shape of C++ kernels: the
// loop passes elements to a member function of another class (a class
// template's, a member template with the element as a non-dependent
// parameter, one defined out of line, a final override of a virtual one, a
// call operator), whose own state (a cutoff, a counter it increments) keeps
// its meaning; a function template taking the element by its own type; two
// overloads for two element types. Each gets a clone taking a view of that
// element (test/Rewrite/functor-clones.cpp shows them).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 50" --run "9 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

namespace md {
struct Atom {
  double r[3], f[3];
  double m;
  long id;
};
struct Ion {
  double q, phi;
};

template <class Particle> class PairFunctor {
public:
  virtual ~PairFunctor() = default;
  virtual void single(Particle &p) const = 0;
};

template <class Particle> class LJ final : public PairFunctor<Particle> {
public:
  explicit LJ(double cutoff) : cutoff2(cutoff * cutoff) {}
  void pair(Particle &i, Particle &j);
  template <bool Newton3> void pairImpl(Particle &i, Particle &j) {
    if (i.id == j.id)
      return;
    double d2 = 0, d[3];
    for (int k = 0; k < 3; ++k) {
      d[k] = i.r[k] - j.r[k];
      d2 += d[k] * d[k];
    }
    if (d2 > cutoff2)
      return;
    ++interactions; // the functor's own state
    double s = (i.m * j.m) / (d2 + 0.01);
    for (int k = 0; k < 3; ++k) {
      i.f[k] += s * d[k];
      if constexpr (Newton3)
        j.f[k] -= s * d[k];
    }
  }
  void single(Particle &p) const override;
  long interactions = 0;

private:
  double cutoff2;
};

template <class Particle>
void LJ<Particle>::pair(Particle &i, Particle &j) {
  pairImpl<false>(i, j);
}
template <class Particle> void LJ<Particle>::single(Particle &p) const {
  p.f[2] -= p.m * cutoff2;
}

struct Charge {
  double k;
  void operator()(Ion &a, const Ion &b) const { a.phi += k * b.q; }
};

template <class T> void damp(Atom &a, T factor) {
  for (double &f : a.f)
    f *= factor;
}
inline void reset(Atom &a) { a.f[0] = a.f[1] = a.f[2] = 0; }
inline void reset(Ion &i) { i.phi = 0; }
} // namespace md

long step(std::vector<md::Atom *> &atoms, md::LJ<md::Atom> &lj) {
  [[clang::soa_conversion]]
  for (md::Atom *a : atoms) {
    reset(*a);
    lj.single(*a);
  }
  [[clang::soa_conversion]]
  for (md::Atom *i : atoms) {
    [[clang::soa_conversion_hoist(1)]]
    for (md::Atom *j : atoms)
      lj.pair(*i, *j);
    md::damp(*i, 0.5);
  }
  return lj.interactions;
}

void charges(std::vector<md::Ion> &ions, const md::Charge &c) {
  [[clang::soa_conversion]]
  for (md::Ion &a : ions) {
    reset(a);
    for (const md::Ion &b : ions)
      c(a, b);
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 50);
  std::vector<md::Atom> atoms(n);
  std::vector<md::Atom *> ptrs;
  for (int k = 0; k < n; ++k) {
    md::Atom &a = atoms[k];
    for (int d = 0; d < 3; ++d)
      a.r[d] = corpus::uniform(), a.f[d] = corpus::uniform();
    a.m = corpus::uniform() + 0.5;
    a.id = k % 7 == 3 ? k - 1 : k;
    ptrs.push_back(&a);
  }
  md::LJ<md::Atom> lj(0.6);
  corpus::print("interactions", step(ptrs, lj));
  for (const md::Atom &a : atoms)
    for (double f : a.f)
      corpus::print("f", f);
  std::vector<md::Ion> ions(n / 2 + 1);
  for (md::Ion &i : ions)
    i = {corpus::uniform() - 0.5, corpus::uniform()};
  charges(ions, md::Charge{1.5});
  for (const md::Ion &i : ions)
    corpus::print("phi", i.phi);
}
