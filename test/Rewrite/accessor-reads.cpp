// A read through a non-const accessor is not a write (issue #50, part 6):
// whether a field is written is decided from how the call's result is used
// where it is called, not from the accessor's signature. `double &mass()`
// read (`/ p->mass()`, `const double &`, by value, a const reference
// parameter) only reads `m`; an element of a member through a non-const
// `operator[]` that only names it (std::array's, or a user vector's
// `return v[i];`) is read unless it is assigned. Assigned, compound
// assigned, incremented, bound to a non-const reference, its address
// taken, passed to a non-const reference parameter: written. A result
// returned on by non-const reference (`massRef()` returning `mass()`) is
// decided by the outer call's uses; an accessor written by one call and
// read by another is written; an operator that does more than name the
// element (`++hits`) still writes its object.
// RUN: %soaview_dump -fplugin-arg-soaview-remarks %s 2>%t.remarks | %nochecks | FileCheck %s
// RUN: FileCheck --check-prefix=REMARK %s < %t.remarks
#include <array>
#include <vector>

template <class T, int N> class Small {
  T v[N];

public:
  T &operator[](int i) { return v[i]; }
};

template <class T, int N> class Counted {
  T v[N];
  int hits = 0;

public:
  T &operator[](int i) {
    ++hits;
    return v[i];
  }
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
  Counted<double, 3> g;
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

// Reads only: m, f and a stay out of the out set.
void kick(std::vector<Particle *> &ps, double dt) {
  [[clang::soa_conversion("always")]]
  for (Particle *p : ps) {
    const double &m = p->mass();
    for (int k = 0; k < 3; ++k)
      p->vel()[k] += dt * (p->f[k] + p->a[k]) / m;
  }
}
// REMARK: accessor-reads.cpp:[[@LINE-6]]:3: remark: soaview: view of 'Particle' in {f, a, m, v} out {v}
// The view of kick writes back v alone; its copy of mass() returns its m.
// CHECK:       struct Particle_[[KICK:[0-9]+_3]] {
// CHECK:         double m;
// CHECK-NOT:     soaview_out_m
// CHECK:         ::soaview::out_slot<::std::array<double, 3>> soaview_out_v;
// CHECK-NOT:     ::soaview::out_slot
// CHECK:         soaview_out_v(&s.v[i]) {
// CHECK-NEXT:    }
// CHECK-NEXT:    ~Particle_[[KICK]]() {
// CHECK-NEXT:      if (soaview_out_v.p) *soaview_out_v.p = v;
// CHECK-NEXT:    }
// CHECK:         double &mass() { return m; }
// CHECK:       struct Particle_[[KICK]]_spec {
// CHECK:         static void scatter(const soa &s, std::size_t i, element &e) {
// CHECK-NEXT:      std::memcpy(&(e.*soaview_member(Particle_[[KICK]]_tag_v{})), &s.v[i], sizeof s.v[i]);
// CHECK-NEXT:    }

// Calls, by value and by const reference, read; by non-const reference, write.
void calls(std::vector<Particle *> &ps) {
  [[clang::soa_conversion("always")]]
  for (Particle *p : ps) {
    p->w = twice(p->mass()) + half(p->energy());
    bump(p->charge());
  }
}
// REMARK: accessor-reads.cpp:[[@LINE-5]]:3: remark: soaview: view of 'Particle' in {m, e, q} out {w, q}

// Read here, written in a callee, or read and written in one loop: written.
void mixed(std::vector<Particle *> &ps) {
  [[clang::soa_conversion("always")]]
  for (Particle *p : ps) {
    double m0 = p->mass();
    rescale(*p);
    p->w = m0 + p->massRef();
    double e0 = p->energy();
    p->energy() = e0 + 1;
    double &q = p->charge();
    ++q;
    p->a[0] = p->f[1];
  }
}
// REMARK: accessor-reads.cpp:[[@LINE-11]]:3: remark: soaview: view of 'Particle' in {f, m, e, q} out {a, w, m, e, q}

// Through a function returning the accessor's result by reference: read,
// then written.
void chain(std::vector<Particle *> &ps) {
  [[clang::soa_conversion("always")]]
  for (Particle *p : ps)
    p->w = p->massRef();
}
// REMARK: accessor-reads.cpp:[[@LINE-3]]:3: remark: soaview: view of 'Particle' in {m} out {w}
void chainWrite(std::vector<Particle *> &ps) {
  [[clang::soa_conversion("always")]]
  for (Particle *p : ps)
    p->massRef() = p->w;
}
// REMARK: accessor-reads.cpp:[[@LINE-3]]:3: remark: soaview: view of 'Particle' in {w, m} out {m}

// Free functions returning a field by reference, and std::array's at,
// front and back: read, then written.
void freeRead(std::vector<Particle *> &ps) {
  [[clang::soa_conversion("always")]]
  for (Particle *p : ps)
    p->energy() = weight(*p) + p->a.at(1) + p->a.front();
}
// REMARK: accessor-reads.cpp:[[@LINE-3]]:3: remark: soaview: view of 'Particle' in {a, w, e} out {e}
void freeWrite(std::vector<Particle *> &ps) {
  [[clang::soa_conversion("always")]]
  for (Particle *p : ps) {
    weight(*p) = p->a.back();
    p->a.back() = 1;
  }
}
// REMARK: accessor-reads.cpp:[[@LINE-5]]:3: remark: soaview: view of 'Particle' in {a, w} out {a, w}

// An operator[] that counts its calls writes its object, read or not.
void counted(std::vector<Particle *> &ps) {
  [[clang::soa_conversion("always")]]
  for (Particle *p : ps)
    p->w = p->g[0] + *&p->vel()[1];
}
// REMARK: accessor-reads.cpp:[[@LINE-3]]:3: remark: soaview: view of 'Particle' in {g, v} out {g, w, v}

// A nest: the outer loop reads its energy through the accessor in one place
// and writes it in another (out); the inner loop only reads mass and force.
void nest(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (Particle *a : ps) {
    double s = a->energy();
    [[clang::soa_conversion_hoist(1)]]
    for (Particle *b : ps)
      s += b->mass() * b->f[0];
    a->energy() = s;
  }
}
// REMARK: accessor-reads.cpp:[[@LINE-8]]:3: remark: soaview: view of 'Particle' in {e} out {e}
// REMARK: accessor-reads.cpp:[[@LINE-6]]:5: remark: soaview: view of 'Particle' in {f, m} out {}
