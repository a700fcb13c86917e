// Fields of value-like classes that are not trivially copyable (the C++98
// idiom: an empty user destructor, a user default constructor with
// constant initialisers, a memberwise copy, an assignment with a
// self-check) are carried as bytes, and a particle that holds an atomic
// the loops do not use converts: only the fields they use are gathered
// (docs/semantics.md, "Classes carried as bytes"). Built plain and
// converted, compared bit for bit.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 3 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <atomic>
#include <vector>

struct Vector3D {
  double x, y, z;
  Vector3D() : x(0), y(0), z(0) {}
  Vector3D(double a, double b, double c) : x(a), y(b), z(c) {}
  Vector3D(const Vector3D &o) : x(o.x), y(o.y), z(o.z) {}
  Vector3D &operator=(const Vector3D &o) {
    if (this != &o) {
      x = o.x;
      y = o.y;
      z = o.z;
    }
    return *this;
  }
  ~Vector3D() {}
  Vector3D operator+(const Vector3D &o) const {
    return Vector3D(x + o.x, y + o.y, z + o.z);
  }
  Vector3D operator*(double s) const { return Vector3D(x * s, y * s, z * s); }
};

struct Particle {
  Vector3D pos, vel, acc;
  double mass;
  std::atomic<int> visits; // used by other code, never by the loops
  Particle() : mass(1), visits(0) {}
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  std::vector<Particle> ps(n);
  for (Particle &p : ps) {
    p.pos = Vector3D(corpus::uniform(), corpus::uniform(), corpus::uniform());
    p.vel = Vector3D(corpus::uniform(), corpus::uniform(), corpus::uniform());
    p.mass = 1 + corpus::uniform();
  }
  std::vector<Particle *> some;
  for (Particle &p : ps)
    some.push_back(&p);
  double dt = 0.01;
  for (int step = 0; step < 3; ++step) {
    [[clang::soa_conversion("always")]]
    for (Particle *p : some) // accelerations: whole values read and written
      p->acc = p->pos * (-1.0 / p->mass);
    [[clang::soa_conversion("always")]]
    for (Particle &p : ps) { // kick and drift
      p.vel = p.vel + p.acc * dt;
      p.pos = p.pos + p.vel * dt;
    }
  }
  for (Particle &p : ps)
    p.visits.fetch_add(1);
  double e = 0;
  [[clang::soa_conversion("always")]]
  for (const Particle *p : some)
    e += 0.5 * p->mass * (p->vel.x * p->vel.x + p->vel.y * p->vel.y);
  corpus::print("energy", e);
  for (const Particle &p : ps)
    corpus::print("pos", p.pos.x + p.pos.y + p.pos.z + p.visits.load());
}
