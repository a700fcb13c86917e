// Reads through non-const accessors are not writes (issue #50, part 6):
// fields only read through `double &mass()`, std::array's and a user
// vector's non-const operator[] are gathered and not scattered; fields
// written through them (assigned, compound assigned, incremented, through
// a non-const reference or address, in a callee, through an accessor's
// result returned on by reference) are scattered. Every field is printed,
// so a write taken for a read would show. The out sets:
// test/Rewrite/accessor-reads.cpp.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 9 --out %t \
// RUN:   --run "1 40" --run "7 3" --run "3 1" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <array>
#include <vector>

template <class T, int N> class Small {
  T v[N];

public:
  T &operator[](int i) { return v[i]; }
};

class Particle {
public:
  double &mass() { return m; }
  double &massRef() { return mass(); }
  std::array<double, 3> &vel() { return v; }
  double &energy() { return e; }
  double &charge() { return q; }
  Small<double, 3> f;
  std::array<double, 3> a;
  double w;

private:
  double m, e, q;
  std::array<double, 3> v;
};

static double twice(double x) { return 2 * x; }
static double half(const double &x) { return x / 2; }
static void bump(double &x) { x += 1; }
static void rescale(Particle &p) { p.mass() *= 2; }
static double &weightOf(Particle &p) { return p.w; }
static double &weight(Particle &p) { return weightOf(p); }

void kick(std::vector<Particle *> &ps, double dt) {
  [[clang::soa_conversion]]
  for (Particle *p : ps) {
    const double &m = p->mass();
    for (int k = 0; k < 3; ++k)
      p->vel()[k] += dt * (p->f[k] + p->a[k]) / m;
  }
}

void calls(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (Particle *p : ps) {
    p->w = twice(p->mass()) + half(p->energy());
    bump(p->charge());
  }
}

void mixed(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (Particle *p : ps) {
    double m0 = p->mass();
    if (m0 < 0.5)
      rescale(*p);
    p->w += m0 + p->massRef();
    double e0 = p->energy();
    if (e0 > 0.3)
      p->energy() = e0 + 1;
    double &q = p->charge();
    ++q;
    p->a[0] = p->f[1];
    *&p->vel()[2] -= p->a[1];
  }
}

void chain(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (Particle *p : ps)
    p->w -= p->massRef();
}

void chainWrite(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (Particle *p : ps)
    if (p->w > 0)
      p->massRef() = p->w;
}

void freeRead(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (Particle *p : ps)
    p->energy() += weight(*p) + p->a.at(1) + p->a.front();
}

void freeWrite(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (Particle *p : ps) {
    if (p->a.back() > 0.5)
      weight(*p) = p->a.back();
    p->a.back() = p->a[0] * p->charge();
  }
}

void nest(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (Particle *a : ps) {
    double s = a->energy();
    [[clang::soa_conversion_hoist(1)]]
    for (Particle *b : ps)
      if (a != b)
        s += b->mass() * b->f[0] / (1 + s * s);
    a->energy() = s;
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<Particle> store(corpus::count(argc, argv, 40));
  std::vector<Particle *> ps;
  for (Particle &p : store) {
    p.mass() = corpus::uniform() + 0.1;
    p.energy() = corpus::uniform();
    p.charge() = corpus::uniform() - 0.5;
    p.w = corpus::uniform() - 0.5;
    for (int k = 0; k < 3; ++k) {
      p.f[k] = corpus::uniform() - 0.5;
      p.a[k] = corpus::uniform();
      p.vel()[k] = corpus::uniform();
    }
    ps.push_back(&p);
  }
  // every other particle, twice, in reverse: repeats share a slot
  for (size_t i = store.size(); i-- > 0;)
    if (i % 2 == 0)
      ps.push_back(&store[i]);
  kick(ps, 0.01);
  calls(ps);
  mixed(ps);
  chain(ps);
  chainWrite(ps);
  freeRead(ps);
  freeWrite(ps);
  nest(ps);
  for (Particle &p : store) {
    corpus::print("m", p.mass()), corpus::print("e", p.energy());
    corpus::print("q", p.charge()), corpus::print("w", p.w);
    for (int k = 0; k < 3; ++k)
      corpus::print("f", p.f[k]), corpus::print("a", p.a[k]),
          corpus::print("v", p.vel()[k]);
  }
}
