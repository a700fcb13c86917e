// A nest calling a virtual member function on a functor converts under a
// check of the functor's dynamic type, with a copy of the nest as written
// for other types. A nest that declares a static variable or a label
// cannot be copied (a second counter, a second label): it is refused, and
// the note says why.
// RUN: %soaview_verify %s
#include <vector>
struct P {
  double x, f;
};
struct K {
  virtual ~K() = default;
  virtual void apply(P &a) { a.f += a.x; } // expected-note 2 {{for other dynamic types soaview runs the nest as written, from a copy of it, and this nest declares a static variable or a label}}
};

void counted(std::vector<P *> &ps, K &k) {
  [[clang::soa_conversion("always")]]
  for (P *a : ps) { // expected-note {{in the loop annotated here}}
    static long calls = 0;
    ++calls;
    k.apply(*a); // expected-error {{cannot convert loop: the element is passed to virtual member function 'K::apply', which may run an override}}
  }
}

void labelled(std::vector<P *> &ps, K &k) {
  [[clang::soa_conversion("always")]]
  for (P *a : ps) { // expected-note {{in the loop annotated here}}
    if (a->x < 0)
      goto next;
    k.apply(*a); // expected-error {{cannot convert loop: the element is passed to virtual member function 'K::apply', which may run an override}}
  next:;
  }
}
