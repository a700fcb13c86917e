// Known broken under annotate=all (issue #29, found on AutoPas): the loop is left as
// written with a remark that names no reason. XFAIL until the remark says why.
// XFAIL: *
// RUN: %soaview_cc1 -fplugin-arg-soaview-annotate=all %s 2>&1 | FileCheck %s
// CHECK: loop left as written (annotate=all):
// RUN: %soaview_cc1 -fplugin-arg-soaview-annotate=all %s 2>&1 | not grep -q 'no reason given'
// Shape: the loop is refused with "loop left as written (annotate=all): no reason given" - the refusal
// names no reason. Shape: element handed, with no condition around the call, to a generic lambda ([&](auto &p)).
// From AutoPas: src/autopas/baseFunctors/CellFunctor.h:257-258 (interactParticles(p1, p2), a [this](auto &p1, auto &p2)
// lambda); also LinkedCells.h:97, VerletClusterLists.h:646 (examples/sph/sph-main.cpp); 6 locations in AutoPas.
// (With an 'if' around the call the same shape converts and fails to compile instead: see 01.)
#include <vector>
struct P { double x, v; };
template <class T> struct Cell {
  std::vector<T> ps;
  template <typename L> void forEach(L l) {
    for (T &p : ps) l(p);
  }
};
void run(Cell<P> &c, double &s) {
  c.forEach([&](auto &p) { s += p.x; });
}
