// Nested views: aliasing between views of one element type, and hoisting
// that would change what the loop computes.
// RUN: %soaview_verify %s
#include <list>
#include <vector>

struct P {
  double x, rho, f;
};

// Two loops write 'rho' (or one writes what the other reads): the views
// share it in the element (test/Exec/constructs/shared-fields.cpp), unless
// it is a field of a member, or a use would change meaning through a
// reference member (a const element passing it on, decltype).
struct Q {
  struct {
    double x, y;
  } kin; // expected-note {{views share such a field in the element itself when it is a field of the element (not of a member or an anonymous union)}}
  double rho; // expected-note 2 {{views share such a field in the element itself}}
};

void memberOfMember(std::list<Q *> &local, std::list<Q *> &active) {
  [[clang::soa_conversion]]
  for (auto *l : local) { // expected-note {{the loop writing it}}
    [[clang::soa_conversion]]
    for (auto *a : active) // expected-note {{the loop holding it; its containers may share elements}}
      l->kin.x += a->kin.x; // expected-error {{cannot convert loops: field 'kin.x' is written through the view of one loop and held by the view of another loop over the same element type}}
  }
}

const double &larger(const double &a, const double &b) { return a < b ? b : a; }

void constPassedOn(std::list<Q *> &local, std::list<const Q *> &active) {
  [[clang::soa_conversion]]
  for (auto *l : local) { // expected-note {{the loop writing it}}
    [[clang::soa_conversion_hoist(1)]]
    for (const Q *a : active) // expected-note {{the loop holding it}}
      l->rho = larger(l->rho, a->rho); // expected-error {{field 'rho' is written through the view of one loop and held by the view of another}}
  }
}

void declaredType(std::list<Q *> &local, std::list<Q *> &active) {
  [[clang::soa_conversion]]
  for (auto *l : local) { // expected-note {{the loop writing it}}
    [[clang::soa_conversion_hoist(1)]]
    for (auto *a : active) { // expected-note {{the loop holding it}}
      decltype(a->rho) copy = a->rho;
      l->rho += copy; // expected-error {{field 'rho' is written through the view of one loop and held by the view of another}}
    }
  }
}

void dependsOnOuter(std::vector<std::list<P *>> &cells) {
  for (auto &cell : cells) { // expected-note {{the view would be built before this loop}} expected-note {{declared here}}
    [[clang::soa_conversion_hoist(1)]] // expected-error {{cannot hoist the conversion: the loop's elements depend on 'cell', declared inside the loop it would move out of}}
    for (auto *p : cell)
      p->f = 0;
  }
}

void containerChanges(std::list<P *> &ps, std::list<P *> &more, int steps) {
  for (int s = 0; s < steps; ++s) { // expected-note {{the view would be built once, before this loop}}
    [[clang::soa_conversion_hoist(1)]] // expected-note {{hoisting requested here}}
    for (auto *p : ps)
      p->f += 1;
    ps.splice(ps.end(), more); // expected-error {{cannot hoist the conversion: what the hoisted view is built from may change inside the loop it moves out of}}
  }
}

void fieldChangesOutside(std::list<P *> &ps, P *probe, int steps) {
  for (int s = 0; s < steps; ++s) {
    probe->x = s; // expected-error {{field 'x' is written through another object of the element type while the loop reads it through the view}}
    [[clang::soa_conversion_hoist(1)]]
    for (auto *p : ps) // expected-note {{in the loop annotated here}}
      p->f += p->x; // expected-note {{the view works on a copy of the field}}
  }
}
