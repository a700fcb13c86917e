// Under annotate=all (issue #29, found on AutoPas): an element type whose
// template arguments name a class template of another namespace converts and
// its generated code compiles (before: an internal error).
// RUN: %soaview_cc1 -fplugin-arg-soaview-annotate=all -fplugin-arg-soaview-remarks %s 2>&1 | FileCheck %s
// CHECK: remark: soaview: view of 'std::pair<
// CHECK-NOT: error:
// Shape: the element is std::pair<double, ns::PB<double, unsigned long> *> (a pair holding a pointer to a class
// template specialization from another namespace); the generated code did not compile ("expected expression", 6 more
// errors; in AutoPas also "Spec does not meet the spec contract" for 'std::pair_double_ParticleBase_..._spec').
// The same type-spelling problem as test/Exec/constructs/template-elements.cpp.
// From AutoPas: tests/testAutopas/tests/cells/SortedCellViewTest.cpp:41 and :51 (for (auto &p : fspc._particles),
// SortedCellView::_particles is std::vector<std::pair<double, Particle_T *>>).
#include <utility>
#include <vector>
namespace ns { template <class A, class B> struct PB { A r; B id; B getID() const { return id; } }; }
using P = ns::PB<double, unsigned long>;
struct View { std::vector<std::pair<double, P *>> _particles; };
double check(View &v) {
  double s = 0; unsigned long id = 0;
  for (auto &p : v._particles) {
    s += p.first;
    if (p.second->getID() != id) s += 1;
    id++;
  }
  return s;
}
