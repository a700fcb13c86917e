// Shapes of particle libraries: fields declared in a base class template of
// another namespace (typed by its template parameters, an enum of that
// namespace, a std::array) read through its getters; a private member alias
// as a getter's return type; a setter naming its member qualified by its
// class; kernels as one-parameter function templates calling each other
// with both particles, one declared in a namespace and defined out of line
// after; a two-parameter template comparing the particles' addresses; a
// std::unordered_map whose key is an enum nested in a class (MercuryDPM's
// VTK options; its std::pair element was named with the library's own
// spelling of the key, which does not compile outside it).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 5 --out %t \
// RUN:   --run "1 40" --run "3 5" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <array>
#include <unordered_map>
#include <vector>

namespace lib {
enum class State : unsigned char { dummy, owned, halo };
template <class F, class Id> class ParticleBase {
public:
  bool isDummy() const { return state == State::dummy; }
  Id getId() const { return id; }
  const std::array<F, 3> &getR() const { return r; }
  void setR(const std::array<F, 3> &to) { ParticleBase::r = to; }

protected:
  std::array<F, 3> r;
  Id id;
  State state;
};
} // namespace lib

namespace app {
class Molecule : public lib::ParticleBase<double, unsigned long> {
  using Vec = std::array<double, 2>;
  Vec vel;

public:
  double rho = 0, e = 0;
  void init(double x, unsigned long i) {
    r = {x, 1 - x, 0.5 * x};
    id = i;
    state = i % 5 == 2 ? lib::State::dummy : lib::State::owned;
    vel = {x, -x};
  }
  Vec getVel() const { return vel; }
  void setVel(const Vec &v) { vel = v; }
};
} // namespace app

struct Box {
  double lo, hi;
  bool holds(double x) const { return lo <= x && x < hi; }
};

namespace kernels {
template <class Particle> void densityOf(Particle *l, const Particle *a);
template <class L, class A> bool different(const L &l, const A &a) {
  return &l != &a;
}
template <class Particle>
void density(const Box &box, Particle &l, const Particle &a) {
  if (different(l, a) && box.holds(l.getR()[0]))
    densityOf(&l, &a);
}
} // namespace kernels
template <class Particle>
void kernels::densityOf(Particle *l, const Particle *a) {
  double d = l->getR()[0] - a->getR()[0];
  l->rho += 1.0 / (1.0 + d * d);
}

void step(std::vector<app::Molecule *> &ms, const Box &box) {
  [[clang::soa_conversion]]
  for (app::Molecule *m : ms)
    if (!m->isDummy())
      m->e += m->getR()[1] * double(m->getId() % 7);
  [[clang::soa_conversion]]
  for (app::Molecule *m : ms) {
    auto v = m->getVel();
    v[0] += 0.5 * m->e;
    m->setVel(v);
    const auto &r = m->getR();
    m->setR({r[0], r[1] + v[1], r[2]});
  }
  [[clang::soa_conversion]]
  for (app::Molecule *l : ms) {
    [[clang::soa_conversion_hoist(1)]]
    for (app::Molecule *a : ms)
      kernels::density(box, *l, *a);
  }
}

struct Writer {
  enum class Option { Points, Cells, Walls };
  std::unordered_map<Option, int> every;
};
int written(Writer &w) {
  int s = 0;
  [[clang::soa_conversion("always")]]
  for (auto &entry : w.every)
    s += static_cast<int>(entry.first) * entry.second;
  return s;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<app::Molecule> ms(corpus::count(argc, argv, 40));
  std::vector<app::Molecule *> ptrs;
  for (unsigned long i = 0; i < ms.size(); ++i) {
    ms[i].init(corpus::uniform(), i);
    ptrs.push_back(&ms[i]);
  }
  step(ptrs, Box{0.2, 0.8});
  Writer w;
  w.every = {{Writer::Option::Points, 3}, {Writer::Option::Walls, 5}};
  corpus::print("written", written(w));
  for (const app::Molecule &m : ms) {
    corpus::print("e", m.e), corpus::print("rho", m.rho);
    corpus::print("v", m.getVel()), corpus::print("r", m.getR());
  }
}
