// Loops soaview refuses, each with the reason and the loop.
// RUN: %soaview_verify %s

#include <cmath>
#include <list>
#include <vector>

struct P {
  double x, y;
  unsigned flags : 3; // expected-note {{a view stores each field in an array}}
  virtual double energy() const { return x; } // expected-note {{mark the function or the class 'final'}}
  double opaque() const; // expected-note {{define it in this translation unit}}
};

void external(P &p); // expected-note {{soaview must see every function that receives the element}}
void byValue(P p) {}
P *stash;

void bitField(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    p->flags = 1; // expected-error {{cannot convert loop: field 'flags' is a bit-field}}
}

struct R {
  double &ref; // expected-note {{reference members cannot be copied}}
  explicit R(double &d) : ref(d) {}
};

void reference(std::vector<R *> &v) {
  [[clang::soa_conversion]]
  for (auto *r : v) // expected-note {{in the loop annotated here}}
    r->ref = 1; // expected-error {{field 'ref' is a reference}}
}

void virtualCall(std::vector<P *> &v, double &s) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    s += p->energy(); // expected-error {{cannot convert loop: virtual call to 'P::energy'}}
}

void undefinedMethod(std::vector<P *> &v, double &s) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    s += p->opaque(); // expected-error {{member function 'P::opaque' is called on the element but its definition is not visible}}
}

void undefinedCallee(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    external(*p); // expected-error {{the element is passed to 'external' whose definition is not visible}}
}

void copied(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    byValue(*p); // expected-error {{cannot convert loop: the element is copied}} expected-note {{bind the element by reference instead}}
}

void nullCheck(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{the view reads every element before the loop starts}} expected-note {{in the loop annotated here}}
    if (!p) // expected-error {{the element pointer is tested for null}}
      continue;
    p->x = 0;
  }
}

void escapes(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    p->x = 1;
    stash = p; // expected-error {{the element or its address is assigned}} expected-note {{exists only during its iteration}}
  }
}

void containerModified(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x = 1;
    v.push_back(p); // expected-error {{the iterated container 'v' may be modified in the loop}}
  }
}

void foreignWrite(std::vector<P *> &v, P *other) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    p->x += 1; // expected-note {{the view works on a copy of the field}}
    other->x = 0; // expected-error {{field 'x' is written through another object of the element type while the loop writes it through the view}}
  }
}

void foreignReadOfWritten(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    p->y = v.front()->y + 1; // expected-error {{field 'y' is read through another object of the element type while the loop writes it}} expected-note {{the view works on a copy}}
  }
}

void functionPointer(std::vector<P *> &v, void (*f)(P &)) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    f(*p); // expected-error {{the element is passed through a function pointer or other indirect call}} expected-note {{soaview must see which function receives it}}
}

void lambdaEscape(std::vector<P *> &v, std::vector<double (*)()> &out) {
  std::vector<P *> keep;
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    keep.push_back(p); // expected-error {{the element's address escapes the loop: it is handed to 'std::vector<P *>::push_back', which keeps it}} expected-note {{keep an index, or collect the addresses in a loop that soaview leaves as written}}
  }
}

void nothingToDo(std::vector<P *> &v, int &n) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-warning {{loop uses no field of 'P'; it is left unconverted}} expected-note {{there is nothing to gather into a view}}
    ++n;
}

// Members of a view named soaview_... are soaview's own; an element member
// named so is refused, field or method.
struct Reserved {
  double soaview_address; // expected-note {{the view of an element has members of its own named 'soaview_...'; rename the member}}
  double x;
  double soaview_norm() const { return x; } // expected-note {{rename the member}}
};

void reservedField(std::vector<Reserved *> &v) {
  [[clang::soa_conversion]]
  for (auto *r : v) // expected-note {{in the loop annotated here}}
    r->soaview_address = 1; // expected-error {{cannot convert loop: member 'soaview_address' of the element has a name reserved for soaview}}
}

void reservedMethod(std::vector<Reserved *> &v, double &s) {
  [[clang::soa_conversion]]
  for (auto *r : v) // expected-note {{in the loop annotated here}}
    s += r->soaview_norm(); // expected-error {{member 'soaview_norm' of the element has a name reserved for soaview}}
}
