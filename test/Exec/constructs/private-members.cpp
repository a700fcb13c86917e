// A generated-style particle (DaStGen's shape): private members of class,
// enum and alias type behind getters and setters, a private nested alias and
// a public nested enum class; the vector type ends in '>' (member pointers
// to it must not read as a nested name).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 2 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

namespace la {
template <int N, class T> struct Vector {
  T v[N];
  T &operator()(int i) { return v[i]; }
  const T &operator()(int i) const { return v[i]; }
};
} // namespace la

namespace app::particles {
class Particle {
public:
  enum class State { Fresh, Updated };
  using Vec = la::Vector<2, double>;
  Vec getX() const { return _x; }
  void setX(const Vec &x) { _x = x; }
  double getDensity() const { return _density; }
  void setDensity(double d) { _density = d; }
  double getMass() const { return _mass; }
  void setMass(double m) { _mass = m; }
  State getState() const { return _state; }
  void setState(State s) { _state = s; }

private:
  using Scalar = double;
  Vec _x;
  Scalar _density = 0;
  Scalar _mass = 0;
  State _state = State::Fresh;
  char _other[40] = {};
};
} // namespace app::particles

using app::particles::Particle;

void density(std::vector<Particle *> &local, std::vector<Particle *> &active) {
  [[clang::soa_conversion]]
  for (Particle *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (Particle *pj : active) {
      double dx = pi->getX()(0) - pj->getX()(0);
      double dy = pi->getX()(1) - pj->getX()(1);
      pi->setDensity(pi->getDensity() + pj->getMass() / (1 + dx * dx + dy * dy));
    }
    pi->setState(Particle::State::Updated);
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<Particle> ps(corpus::count(argc, argv, 40));
  std::vector<Particle *> all;
  for (Particle &p : ps) {
    Particle::Vec x;
    x(0) = corpus::uniform();
    x(1) = corpus::uniform();
    p.setX(x);
    p.setMass(corpus::uniform());
    all.push_back(&p);
  }
  density(all, all);
  for (const Particle &p : ps) {
    corpus::print("density", p.getDensity());
    corpus::print("state", p.getState());
  }
}
