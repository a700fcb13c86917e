// Classes carried as bytes: the rule reads what the special members do
// (docs/semantics.md, "Classes carried as bytes"). Copies that copy each
// member (initialisers, assignments, loops over an array member, memcpy of
// the member), empty destructors and default constructors with constant
// initialisers keep a class's value its bytes; anything else is refused
// with the function or member that does it.
// RUN: %soaview_verify -fplugin-arg-soaview-remarks -ferror-limit=0 %s
#include <cstring>
#include <memory>
#include <string>
#include <vector>

// The C++98 idiom: an empty user destructor, a user default constructor,
// a memberwise copy and an assignment with a self-check.
struct Vector3D {
  double x, y, z;
  Vector3D() : x(0), y(0), z(0) {}
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
};
// A class template copying its array in a loop, and with memcpy; never
// copied by the program (its copy operations are read from the template).
template <int N> struct Tensor {
  float v[N];
  Tensor() {}
  Tensor(const Tensor &o) {
    for (int i = 0; i < N; ++i)
      v[i] = o.v[i];
  }
  Tensor &operator=(const Tensor &o) {
    std::memcpy(v, o.v, sizeof v);
    return *this;
  }
};

// Copies with side effects, destructors that do something, members that
// own or point: refused, with what does it.
static long copies;
struct Counted {
  double v;
  Counted() = default;
  Counted(const Counted &o) : v(o.v) { ++copies; } // expected-note {{'Counted::Counted' does more than copy the members: views carry a class with memcpy only when}}
};
struct Logged {
  double v;
  ~Logged() { copies += 2; } // expected-note {{'Logged::~Logged' does more than nothing}}
};
struct Guarded {
  double v;
  ~Guarded() try { // expected-note {{'Guarded::~Guarded' does more than nothing}}
  } catch (...) {
  }
};
struct Stale {
  double v, cache;
  Stale() = default;
  Stale(const Stale &o) : v(o.v), cache(0) {} // expected-note {{'Stale::Stale' does more than copy the members}}
};
struct Owning {
  double *data; // expected-note {{'Owning::data' is a double *, neither a number nor a class of numbers}}
  Owning() : data(nullptr) {}
  Owning(const Owning &o) : data(o.data) {}
};
struct Named {
  std::string name; // expected-note {{'Named::name' is a library class that is not trivially copyable}}
  double v;
};
struct Shared {
  std::shared_ptr<double> w; // expected-note {{'Shared::w' is a library class that is not trivially copyable}}
};

struct P {
  Vector3D x, v;
  Tensor<6> t;
  Counted c;
  Logged l;
  Stale s;
  Guarded gd;
  Owning o;
  Named n;
  Shared sh;
  double m;
};

void drift(std::vector<P *> &ps, double dt) {
  [[clang::soa_conversion]] // expected-remark@+1 {{view of 'P' in {x.x, x.y, x.z, v.x, v.y, v.z} out {x.x, x.y, x.z}}}
  for (P *p : ps) {
    p->x.x += dt * p->v.x;
    p->x.y += dt * p->v.y;
    p->x.z += dt * p->v.z;
  }
}

void wholeValues(std::vector<P *> &ps, std::vector<Vector3D> &out) {
  [[clang::soa_conversion]] // expected-remark@+1 {{view of 'P' in {x, t} out {t}}}
  for (P *p : ps) {
    out.push_back(p->x);
    Tensor<6> t = p->t;
    t.v[0] += 1;
    p->t = t;
  }
}

void counted(std::vector<P *> &ps, std::vector<Counted> &out) {
  [[clang::soa_conversion]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    out.push_back(p->c); // expected-error {{field 'c' is used as a whole but is not trivially copyable}}
}
void logged(std::vector<P *> &ps, std::vector<Logged> &out) {
  [[clang::soa_conversion]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    out.push_back(p->l); // expected-error {{field 'l' is used as a whole}}
}
void stale(std::vector<P *> &ps, std::vector<Stale> &out) {
  [[clang::soa_conversion]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    out.push_back(p->s); // expected-error {{field 's' is used as a whole}}
}
void owning(std::vector<P *> &ps, std::vector<Owning> &out) {
  [[clang::soa_conversion]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    out.push_back(p->o); // expected-error {{field 'o' is used as a whole}}
}
void named(std::vector<P *> &ps, std::vector<Named> &out) {
  [[clang::soa_conversion]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    out.push_back(p->n); // expected-error {{field 'n' is used as a whole}}
}
void shared(std::vector<P *> &ps, double &s) {
  [[clang::soa_conversion]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    s += *p->sh.w; // expected-error {{field 'w' is used as a whole}}
}
void guarded(std::vector<P *> &ps, std::vector<Guarded> &out) {
  [[clang::soa_conversion]]
  for (P *p : ps) // expected-note {{in the loop annotated here}}
    out.push_back(p->gd); // expected-error {{field 'gd' is used as a whole}}
}
