// Members of the element named with their class (found on MercuryDPM-like
// code, issue #50): `p->Base::x`, `p->Base::get()`, a qualified call of a
// virtual function (which dispatches to nothing: it runs Base's), and the
// same in a function the loop calls and in a template instantiated with
// the view. The view knows its members by their names alone, so the
// qualifier is taken out where the element is a view. Before, the
// converted code did not compile (an internal error).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 40" --run "7 3" --run "3 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct Base {
  double x = 0, v = 0, f = 0;
  virtual ~Base() = default;
  virtual double speed() const { return v; }
  double pos() const { return x; }
};
struct Spinner : Base { // makes Base::speed a call that could dispatch
  double speed() const override { return 2 * v; }
};
struct Grain : Base {
  double r = 1;
  struct {
    double spin = 0;
  };
  union {
    struct {
      double tilt;
    };
    long bits = 0;
  };
  // A named member of an anonymous union, named with the class in a member
  // function the view copies (the fuzzer's seed 36000919: `S::ua.u0` lost
  // `ua.` in the copy, an internal error, since the qualifier sits on two
  // member expressions and its removal was applied twice).
  union {
    struct {
      double a, b;
    } pose;
    char raw[16];
  };
  double lean() const { return Grain::pose.a - this->Grain::pose.b; }
  double reach() const { return Base::pos() + this->Grain::r0() + r; }
  double r0() const { return 0.5; }
  double capped() const;
};

static double twice(const Grain &g) { return 2 * g.Base::x; }
template <class G> double shifted(G &g) {
  return g.Base::v + g.Grain::r + (sizeof(g.Base::f) > 4 ? 0.5 : 0.25);
}

// A qualified member written in a macro's argument, expanded twice: the
// qualifier goes where the argument is written (the fuzzer's SV_MAX; refused
// before). One written in a macro's definition stays refused
// (test/Sema/refusals-more.cpp).
#define TWICE(a) ((a) + (a))
#define MAX_OF(a, b)                                                           \
  ({                                                                           \
    __typeof__(a) a_ = (a);                                                    \
    __typeof__(b) b_ = (b);                                                    \
    a_ > b_ ? a_ : b_;                                                         \
  })
// The same in a member function the view copies (the fuzzer's seed
// 37000476: the copy kept `Grain::`, an internal error).
double Grain::capped() const {
  return MAX_OF(Grain::r, Base::v) + TWICE(Grain::pose.a);
}

void step(std::vector<Grain *> &gs, double dt) {
  [[clang::soa_conversion]]
  for (Grain *g : gs) {
    g->Base::f += g->Base::speed() - g->Grain::r;
    g->Base::x += dt * g->Base::v + 1e-3 * twice(*g);
    decltype(g->Grain::r) half = sizeof(g->Base::v) / 16.0;
    g->Base::v -= half * g->Base::v;
    // A member of an anonymous struct named with the class holding it (the
    // fuzzer's seed 35000009: refused as named by two classes before).
    g->Grain::spin += g->Grain::tilt * dt + g->Base::v;
    g->Base::f += TWICE(g->Base::x) * dt + MAX_OF(g->Base::v, g->Grain::r);
    g->Base::v += g->lean() * dt;
    g->Base::f += g->capped() * dt;
  }
}

// Analysed once per view, the callee lists its qualified member twice: the
// qualifier goes once (the fuzzer's seed 34000028: both went, with the
// name, an internal error before).
static double weight(const Grain &g) { return g.Base::x * 0.5; }
void pairs(std::vector<Grain> &gs) {
  [[clang::soa_conversion]]
  for (Grain &a : gs)
    [[clang::soa_conversion]]
    for (Grain &b : gs)
      a.Base::f += weight(a) - weight(b);
}

double sum(std::vector<Grain> &gs) {
  double s = 0;
  [[clang::soa_conversion]]
  for (Grain &g : gs)
    s += g.Base::pos() * g.reach() + shifted(g);
  return s;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  std::vector<Grain> gs(n);
  std::vector<Grain *> ptrs;
  for (Grain &g : gs) {
    g.x = corpus::uniform(), g.v = corpus::uniform() - 0.5;
    g.r = 0.5 + corpus::uniform();
    g.pose = {corpus::uniform(), corpus::uniform()};
    ptrs.push_back(&g);
  }
  for (int s = 0; s < 3; ++s)
    step(ptrs, 0.01);
  pairs(gs);
  corpus::print("sum", sum(gs));
  for (const Grain &g : gs) {
    corpus::print("x", g.x);
    corpus::print("f", g.f);
    corpus::print("spin", g.spin);
  }
}
