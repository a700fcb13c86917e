// A virtual call that receives the element, through a base-class pointer as
// a user writes a potential (issue #51, item 12). A pure virtual function
// always runs an override: the call is named and the note says to call it
// on the overriding class, declared 'final' (before, "definition is not
// visible ... define it in this translation unit"). With a non-pure base
// the nest converts under a check of the object's dynamic type; a class
// derived from the base, which would fail the check, is warned about
// (before, the nest ran as written with no message).
// RUN: %soaview_verify %s
#include <vector>
struct Atom {
  double x, f;
};

struct Potential {
  virtual ~Potential() = default;
  virtual double pair(Atom &a, Atom &b) = 0; // expected-note {{'Potential::pair' is pure virtual, so every call runs an override: call it on the class that overrides it, declared 'final'}}
};
struct LJ : Potential {
  double pair(Atom &a, Atom &b) override { return a.x - b.x; }
};

void pure(std::vector<Atom> &c1, std::vector<Atom> &c2, Potential *pot) {
  [[clang::soa_conversion("always")]]
  for (Atom &a : c1) // expected-note {{in the loop annotated here}}
    for (Atom &b : c2)
      a.f += pot->pair(a, b); // expected-error {{cannot convert loop: the element is passed to virtual member function 'Potential::pair', which may run an override}}
}

struct Soft {
  virtual ~Soft() = default;
  virtual double pair(Atom &a, Atom &b) { return a.x * b.x; }
};
struct Harder : Soft { // expected-note {{declare 'Harder' 'final' and call through a 'Harder'}}
  double pair(Atom &a, Atom &b) override { return a.x - b.x; }
};

void base(std::vector<Atom> &c1, std::vector<Atom> &c2, Soft *pot) {
  [[clang::soa_conversion("always")]]
  for (Atom &a : c1)
    for (Atom &b : c2)
      a.f += pot->pair(a, b); // expected-warning {{the nest converts only when 'pot' is exactly a 'Soft' (checked when the nest starts); with a 'Harder', which derives from it, the call to 'Soft::pair' runs the nest as written}}
}

// Called through the final class: no check, no warning.
struct Final final : Soft {
  double pair(Atom &a, Atom &b) override { return a.x + b.x; }
};
void known(std::vector<Atom> &c1, std::vector<Atom> &c2, Final &pot) {
  [[clang::soa_conversion("always")]]
  for (Atom &a : c1)
    for (Atom &b : c2)
      a.f += pot.pair(a, b);
}

// A base that nothing derives from in this file: checked, not warned.
struct Alone {
  virtual ~Alone() = default;
  virtual double pair(Atom &a, Atom &b) { return a.x * b.x; }
};
void alone(std::vector<Atom> &c1, std::vector<Atom> &c2, Alone &pot) {
  [[clang::soa_conversion("always")]]
  for (Atom &a : c1)
    for (Atom &b : c2)
      a.f += pot.pair(a, b);
}
