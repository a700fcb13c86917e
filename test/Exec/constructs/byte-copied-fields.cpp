// Fields of a class that is not trivially copyable but whose value is its
// bytes (Peano4's tarch::la::Vector: a user-written copy constructor and
// assignment that copy its array in a loop, a defaulted default
// constructor, a trivial destructor): views carry them with memcpy, and
// the class's own copies run only where the program copies (getters
// returning by value, `auto c = p->x`). Read and written whole, through
// const-reference getters, setters and operators. (A copy that also counts
// is refused: test/Sema/value-classes.cpp.)
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 3 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

namespace la {
template <int N> class Vector {
  double v[N];

public:
  Vector() = default;
  explicit Vector(double a) {
    for (int i = 0; i < N; i++)
      v[i] = a;
  }
  Vector(const Vector &o) {
    for (int i = 0; i < N; i++)
      v[i] = o.v[i];
  }
  Vector &operator=(const Vector &o) {
    for (int i = 0; i < N; i++)
      v[i] = o.v[i];
    return *this;
  }
  double &operator()(int i) { return v[i]; }
  const double &operator()(int i) const { return v[i]; }
};
template <int N> Vector<N> operator+(const Vector<N> &a, const Vector<N> &b) {
  Vector<N> r;
  for (int i = 0; i < N; i++)
    r(i) = a(i) + b(i);
  return r;
}
template <int N> Vector<N> operator*(double s, const Vector<N> &b) {
  Vector<N> r;
  for (int i = 0; i < N; i++)
    r(i) = s * b(i);
  return r;
}
} // namespace la

class Particle {
  la::Vector<3> _x, _v;
  double _m;
  int _flag;

public:
  Particle(double x, double v, double m)
      : _x(x), _v(v), _m(m), _flag(int(x * 10) % 2) {}
  const la::Vector<3> &getX() const { return _x; }
  la::Vector<3> getV() const { return _v; }
  void setX(const la::Vector<3> &x) { _x = x; }
  void setV(const la::Vector<3> &v) { _v = v; }
  double getM() const { return _m; }
  int getFlag() const { return _flag; }
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  std::vector<Particle> ps;
  for (int k = 0; k < n; ++k)
    ps.emplace_back(corpus::uniform(), corpus::uniform(), 1 + corpus::uniform());
  std::vector<Particle *> some;
  for (Particle &p : ps)
    some.push_back(&p);
  double dt = 0.01;
  [[clang::soa_conversion("always")]]
  for (Particle *p : some) // drift: x += dt v
    p->setX(p->getX() + dt * p->getV());
  [[clang::soa_conversion("always")]]
  for (Particle &p : ps) { // kick, on some only
    if (!p.getFlag())
      continue;
    la::Vector<3> v = p.getV();
    v(1) += dt / p.getM();
    p.setV(v);
  }
  double sum = 0;
  [[clang::soa_conversion("always")]]
  for (const Particle *p : some)
    sum += p->getX()(0) * p->getV()(2) + p->getX()(1);
  corpus::print("sum", sum);
  for (const Particle &p : ps)
    corpus::print("x v", p.getX()(2) + p.getV()(1));
}
