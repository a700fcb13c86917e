// Rarer refusals, each with its note (checks/, forms/, analysis/).
// RUN: %soaview_verify -isystem %inputs/sys %s

#include <sysloop.h>
#include <string>
#include <vector>

struct P {
  double x, y;
  std::string names[2];
  void m();
  double get() const { return x; }
};
#define MACRO_METHOD double twice() const { return 2 * x; }
struct Q {
  double x;
  MACRO_METHOD
};
#define ELEM P
void viaMacro(ELEM &p) { p.x += 1; } // expected-error {{cannot rewrite the type of this parameter for the view}} expected-note {{the parameter's type must name the element type}}

// The views of a loop in a system header would go there.
void sys(std::vector<SysP *> &v) { sysLoop(v); } // expected-error@sysloop.h:6 {{its views would go into a system header}}

struct Buf {
  std::vector<P> buf;
  void ambiguous(int n) {
    [[clang::soa_conversion_target("buf")]]
    for (int i = 0; i < n; ++i) {
      std::vector<P> buf(1);
      buf[0].x = this->buf[i].x; // expected-error {{target name 'buf' refers to more than one variable}}
    }
  }
};

void rare(std::vector<P *> &v, std::vector<Q *> &q, int n) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    p->x = p->names[0].size(); // expected-error {{field 'names' is not trivially copyable}} expected-note@10 {{views copy fields with memcpy}}

  [[clang::soa_conversion]]
  for (auto *e : q) // expected-note {{in the loop annotated here}}
    e->x = e->twice(); // expected-error {{member function 'Q::twice' cannot be copied into the view}} expected-note@17 {{it is in a system header or a macro}}

  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    (void)p[0]; // expected-error {{unsupported use of the element}} expected-note {{use the element through its fields}}

  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    auto f = &P::get;
    (void)(p->*f)(); // expected-error {{unsupported operation on the element}} expected-note {{use the element through its fields}}
  }

  [[clang::soa_conversion]]
  for (auto *p : v) // (the parameter is reported where it is declared)
    viaMacro(*p);

  [[clang::soa_conversion_hoist]] // expected-error {{'soa_conversion_hoist' attribute takes one argument}} expected-note {{give the number of loop levels, e.g. soa_conversion_hoist(1)}}
  for (auto *p : v)
    p->x = 0;
}

// A written annotation in a constexpr function is an error, not a remark.
constexpr double total(const P (&a)[2]) { // expected-note {{move the loop into a function that is not constexpr}}
  double s = 0;
  [[clang::soa_conversion]]
  for (const P &p : a) // expected-error {{cannot convert loop: it is in a constexpr function}}
    s += p.x;
  return s;
}

// Elements of a private nested class (AutoPas's LJFunctor::AoSThreadData):
// the view, declared outside the class, could not name it.
namespace lib {
template <class T> class Functor {
public:
  void init() {
    [[clang::soa_conversion]]
    for (auto &d : data) // expected-error {{its elements are of 'lib::Functor<int>::Data', a private or protected nested class}}
      d.e = 0;
  }

private:
  struct Data { // expected-note {{make the nested class public (its members may stay private)}}
    double e, v;
  };
  std::vector<Data> data{4};
};
} // namespace lib
void initAll(lib::Functor<int> &f) { f.init(); }

// One loop of a template instantiated with the same element type and
// different functors that use different fields (AutoPas's traversals with
// several functors): each use gets its view, picked by the functor type
// (test/Sema/instance-keys.cpp has the refusals left).
struct Q2 { double r, f, rho; };
struct Dens final { void aos(Q2 &q) { q.rho += q.r; } };
struct Forc final { void aos(Q2 &q) { q.f += 2 * q.r; } };
template <class F> void sweepAll(F &f, std::vector<Q2> &qs) {
  [[clang::soa_conversion]]
  for (auto &q : qs)
    f.aos(q);
}
void bothSweeps(std::vector<Q2> &qs) {
  Dens d;
  Forc c;
  sweepAll(d, qs);
  sweepAll(c, qs);
}

// A class that is not trivially copyable is carried as bytes only when its
// value is its bytes (docs/semantics.md, "Classes carried as bytes"): a
// default constructor with constant initialisers keeps it so, a pointer
// field does not.
struct Counted {
  double v;
  Counted() : v(1) {}
  Counted(const Counted &o) : v(o.v) {}
};
struct Pointing {
  double *at; // expected-note {{'Pointing::at' is a double *, neither a number nor a class of numbers: views carry a class with memcpy only when}}
  Pointing() = default;
  Pointing(const Pointing &o) : at(o.at) {}
};
struct R2 {
  Counted c;
  Pointing p;
  double w;
};
double weigh(const Counted &c) { return c.v; }
double aim(const Pointing &p) { return *p.at; }
void notBytes(std::vector<R2> &rs) {
  [[clang::soa_conversion]]
  for (auto &r : rs)
    r.w = weigh(r.c);
  [[clang::soa_conversion]]
  for (auto &r : rs) // expected-note {{in the loop annotated here}}
    r.w += aim(r.p); // expected-error {{field 'p' is used as a whole but is not trivially copyable}}
}
