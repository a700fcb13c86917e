// Virtual calls on members: a reference member of the nest's own object
// converts under the dynamic type check (test/Exec/constructs/
// functor-members.cpp); a pointer member can be reseated by any call, and a
// member of another object, or one reached from a lambda that does not run
// with the nest's `this`, is not the object the check would see: refused.
// RUN: %soaview_verify %s
#include <vector>
struct P {
  double x, f;
};
struct K {
  virtual ~K() = default;
  virtual void apply(P &a) { a.f += a.x; } // expected-note 3 {{declare the function or its class 'final', call it through a qualified name, or on an object whose type is known}}
};
struct Holder {
  K &k;
};

struct ByPointer {
  K *k;
  void run(std::vector<P *> &ps) {
    [[clang::soa_conversion("always")]]
    for (P *a : ps) // expected-note {{in the loop annotated here}}
      k->apply(*a); // expected-error {{cannot convert loop: the element is passed to virtual member function 'K::apply', which may run an override}}
  }
};

struct OtherObject {
  void run(std::vector<P *> &ps, Holder &h) {
    [[clang::soa_conversion("always")]]
    for (P *a : ps) // expected-note {{in the loop annotated here}}
      h.k.apply(*a); // expected-error {{cannot convert loop: the element is passed to virtual member function 'K::apply', which may run an override}}
  }
};

// The lambda captures a Holder's `this`, not the nest's.
struct Elsewhere {
  K &k;
  void run(std::vector<P *> &ps, Holder &h) {
    auto call = [&h](auto &p) { h.k.apply(p); }; // expected-error {{cannot convert loop: the element is passed to virtual member function 'K::apply', which may run an override}}
    [[clang::soa_conversion("always")]]
    for (P *a : ps) // expected-note {{in the loop annotated here}}
      call(*a);
  }
};

// Converts: the nest's own reference member.
struct Own {
  K &k;
  void run(std::vector<P *> &ps) {
    [[clang::soa_conversion("always")]]
    for (P *a : ps)
      k.apply(*a);
  }
};
