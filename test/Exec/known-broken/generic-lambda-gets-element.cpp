// Known broken under annotate=all (issue #29, found on real code): soaview converts
// the loop and its generated code does not compile. XFAIL until fixed; then make
// it a test/Exec/constructs program compared bit for bit with the plain build.
// XFAIL: *
// RUN: %soaview_cc1 -fplugin-arg-soaview-annotate=all %s
// Shape: the element of a range-for is handed to a generic lambda ([&](auto &p2)) which passes it on to a
// function taking P& (in AutoPas a virtual AoSFunctor; a plain member function fails the same way): soaview converts the loop and
// the lambda, instantiated with the view, binds P& to the view ("non-const lvalue reference to type P cannot bind to ... P_15_5").
// From AutoPas: src/autopas/cells/FullParticleCell.h:288 (forEachImpl) instantiated from
// src/autopas/remainder/RemainderPairwiseInteractionHandler.h:188-198 (f->AoSFunctor(p1, p2, ...)); examples/sph/sph-main.cpp
#include <vector>
struct P { double r[3]; double f[3]; int own; };
struct Functor {
  void aos(P &a, P &b, bool n3) { a.f[0] += b.r[0] - a.r[0]; }

};
template <class T> struct Cell {
  std::vector<T> ps;
  template <typename L> void forEach(L l) {
    for (T &p : ps) {
      if (p.own) l(p);
    }
  }
};
void run(Cell<P> &c, P &q, Functor *f) {
  c.forEach([&](auto &p2) { f->aos(q, p2, false); });
}
