// Fields and types a view cannot hold or place.
// RUN: %soaview_verify %s
#include <vector>

struct V {
  volatile double sensor; // expected-note {{a view works on a temporary copy}}
  union { // expected-note {{views share such a field in the element itself when it is a field of the element (not of a member or an anonymous union)}}
    struct {
      float wcount, div_v;
    } density;
    struct {
      float f, v_sig;
    } force;
  };
  double b;
};

void volatileField(std::vector<V *> &v, double &s) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    s += p->sensor; // expected-error {{field 'sensor' is volatile or atomic}}
}

// Members of one anonymous union share storage: separate buffers are exact
// only while none of them is written. A view holds the union whole when it
// can declare one like it (V's: test/Exec/constructs/anonymous-union.cpp);
// not with a bit-field among its members.
struct W {
  union {
    struct {
      float wcount, div_v;
    } density;
    struct {
      float f, v_sig;
    } force;
    unsigned bits : 3;
  };
  double b;
};
void unionMembersMixed(std::vector<W *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    p->density.wcount = p->b; // expected-error {{cannot convert loop: field 'density.wcount' is written and field 'force.v_sig' is used, and they share storage in an anonymous union}}
    p->b += p->force.v_sig;   // expected-note {{a view holds an anonymous union whole only when its members are named, public and not bit-fields; otherwise use one member of the union in a loop}}
  }
}
void unionMembersMixedHeld(std::vector<V *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) {
    p->density.wcount = p->b;
    p->b += p->force.v_sig;
  }
}
// A union held whole and written is one field: another object's member of
// it conflicts with the view.
void unionHeldForeign(std::vector<V *> &v, V *other) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    p->force.f = p->density.wcount * 2; // expected-note {{the view works on a copy of the field}}
    p->b += other->density.wcount; // expected-error {{field 'union {density, force}' is read through another object of the element type while the loop writes it through the view}}
  }
}

void unionMembersRead(std::vector<V *> &v, double &s) {
  [[clang::soa_conversion]]
  for (auto *p : v)
    s += p->density.wcount + p->force.f; // reading two members is exact
}

// Across the loops of a nest: one writes what shares storage with what the
// other holds.
void unionAcrossLoops(std::vector<V *> &l, std::vector<V *> &a) {
  [[clang::soa_conversion]]
  for (auto *p : l) { // expected-note {{the loop writing it}}
    [[clang::soa_conversion_hoist(1)]]
    for (auto *q : a) // expected-note {{the loop holding it}}
      p->density.wcount += q->force.f; // expected-error {{cannot convert loops: field 'density.wcount' is written through the view of one loop and held by the view of another loop}}
  }
}

void localType() {
  struct L { double x; };
  std::vector<L> v(3);
  [[clang::soa_conversion]]
  for (auto &e : v) // expected-error {{cannot convert loop: element type 'L' is not defined at namespace scope before the function holding the loop}}
    e.x = 1;
  // expected-note@-5 {{defined here}}
}

