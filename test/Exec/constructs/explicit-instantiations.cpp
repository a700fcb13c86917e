// Loops in class templates instantiated only by explicit instantiation
// definitions (`template bool Container<md::Molecule>::compute(int);`),
// which Clang keeps no declaration for. A member instantiated by one
// instantiates the moment it is written, so the views go right before it,
// also in the middle of a file and in a namespace; members it reaches are
// instantiated at the end of the file, and where the file ends with such
// instantiations (AutoPas's template instantiation files) their views go
// before the first of them, after the element type. Before: views placed
// before the element type was declared, or after the instantiation (an
// internal error in both).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 40" --run "2 9" --run "3 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

namespace lib {
template <class P> struct Cluster {
  P *first = nullptr;
  std::vector<Cluster *> *neighbours = nullptr;
};
template <class P> class Lists {
public:
  std::vector<Cluster<P>> clusters;
  unsigned long load() const {
    unsigned long sum = 0;
    [[clang::soa_conversion("always")]]
    for (const auto &c : clusters)
      if (c.neighbours)
        sum += c.neighbours->size();
    return sum;
  }
};
template <class P> struct Container {
  Lists<P> lists;
  std::vector<P> items;
  bool compute(int);
  double sum() const;
};
template <class P> bool Container<P>::compute(int k) {
  [[clang::soa_conversion("always")]]
  for (auto &p : items)
    p.f[0] += k * p.r[0];
  return lists.load() > 0;
}
template <class P> double Container<P>::sum() const {
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (const auto &p : items)
    s += p.r[1] * p.f[0];
  return s;
}
} // namespace lib

namespace md {
struct Molecule {
  double r[3];
  double f[3];
};
struct Atom {
  double q, e;
};
} // namespace md

namespace lib {
template <> struct Container<md::Atom> {
  std::vector<md::Atom> items;
  template <class F> double energy(F f);
};
template <class F> double Container<md::Atom>::energy(F f) {
  double e = 0;
  [[clang::soa_conversion("always")]]
  for (auto &a : items) {
    a.e = f(a.q);
    e += a.e;
  }
  return e;
}
struct Half {
  double operator()(double q) const { return q / 2; }
};
// In the middle of the file, in a namespace: instantiated right here.
template double Container<md::Atom>::energy<Half>(Half);
} // namespace lib

extern template bool lib::Container<md::Molecule>::compute(int);
extern template double lib::Container<md::Molecule>::sum() const;

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  lib::Container<md::Molecule> c;
  c.items.resize(n);
  for (md::Molecule &m : c.items)
    m = {{corpus::uniform(), corpus::uniform(), 0}, {corpus::uniform(), 0, 0}};
  std::vector<lib::Cluster<md::Molecule> *> none;
  c.lists.clusters.resize(n / 3);
  for (auto &cl : c.lists.clusters)
    cl.neighbours = corpus::uniform() < 0.5 ? &none : nullptr;
  corpus::print("loaded", c.compute(3));
  corpus::print("sum", c.sum());
  lib::Container<md::Atom> a;
  a.items.resize(n);
  for (md::Atom &t : a.items)
    t = {corpus::uniform(), 0};
  corpus::print("energy", a.energy(lib::Half{}));
  for (const md::Atom &t : a.items)
    corpus::print("e", t.e);
}

// The file ends with explicit instantiations.
template bool lib::Container<md::Molecule>::compute(int);
template double lib::Container<md::Molecule>::sum() const;
