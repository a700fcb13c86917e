// Remaining refusals: field references to unseen functions, constructors
// taking the element, callees soaview cannot clone, loop-form corner cases.
// RUN: %soaview_verify %s
#include <vector>

struct P {
  double x, y;
};
void update(double &v); // expected-note {{soaview must see what the callee does with its address}}
struct Holder {
  explicit Holder(P &p) : p(p) {} // expected-note {{an object built from the element could keep it}}
  P &p;
};
#define DEFINE_SCALE void scale(P &p) { p.x *= 2; }
DEFINE_SCALE

void fieldToUnseen(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    update(p->x); // expected-error {{a reference to field 'x' is passed to 'update' whose definition is not visible}}
}

// By pointer, directly or through a local pointer, and through a function
// pointer: the same rule as a reference.
void scaleBy(double *v, double k); // expected-note 2 {{soaview must see what the callee does with its address}}
void fieldAddressToUnseen(std::vector<P *> &v, void (*hook)(double *)) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    scaleBy(&p->x, 2); // expected-error {{the address of field 'x' is passed to 'scaleBy' whose definition is not visible}}
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    double *y = &p->y; // expected-error {{the address of field 'y' is passed to 'scaleBy' whose definition is not visible}}
    scaleBy(y, 2);
  }
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    hook(&p->x); // expected-error {{the address of field 'x' is passed to an indirect call whose definition is not visible}} expected-note {{soaview must see}}
}

// A field whose class has no name: its members convert one by one; used
// whole, the view would have to name its type.
struct Anon {
  double f;
  struct { // expected-note 2 {{a view holds the field in a buffer of its type, which generated code must name}}
    double a, b;
  } pair, arr[2];
};
void unnamedClass(std::vector<Anon *> &v, double &s) {
  [[clang::soa_conversion("always")]]
  for (auto *p : v)
    p->f += p->pair.a;
  [[clang::soa_conversion("always")]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    auto q = p->pair; // expected-error {{field 'pair' is used whole and its class has no name}}
    s += q.b;
  }
  [[clang::soa_conversion("always")]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    s += p->arr[1].a; // expected-error {{field 'arr' is used whole and its class has no name}}
}

void intoConstructor(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    Holder h(*p); // expected-error {{the element is passed to a constructor of 'Holder'}}
    h.p.y = 1;
  }
}

void macroCallee(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    scale(*p); // expected-error {{'scale' is defined by a macro and cannot be cloned}} expected-note {{define the function without a macro}}
}

// A reference to the container's pointer converts where the body only
// reads it (test/Exec/constructs/pointer-references.cpp); reseating it would
// change the container, which the converted loop read before it started.
void refToPointer(std::vector<P *> &v, P *other) {
  [[clang::soa_conversion]]
  for (P *&p : v) {
    p->x = 0;
    if (p->y > 1)
      p = other; // expected-error {{cannot convert a loop that may change the pointers its container holds: the loop variable 'p', a reference to one, is used in 'p = other'}} expected-note {{a converted loop reads the container's pointers before it starts; use 'p' only as a pointer it reads ('p->x', '*p', a copy), or keep this loop as written}}
  }
}
void refToPointerStepped(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto &p : v)
    (++p)->x = 0; // expected-error {{the loop variable 'p', a reference to one, is used in '++p'}} expected-note {{use 'p' only as a pointer it reads}}
}
void keep(P **);
void refToPointerAddress(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto &p : v) {
    p->x = 1;
    keep(&p); // expected-error {{the loop variable 'p', a reference to one, is used in '&p'}} expected-note {{use 'p' only as a pointer it reads}}
  }
}
void refToPointerInLambda(std::vector<P *> &v, P *other) {
  [[clang::soa_conversion]]
  for (auto &p : v)
    [&] {
      p->x = 2;
      p = other; // expected-error {{is used in 'p = other'}} expected-note {{use 'p' only as a pointer it reads}}
    }();
}

int next();
void sideEffects(P *buf) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = 0; i < next(); ++i) // expected-error {{the loop bounds must not have side effects}} expected-note {{expected 'for (i = lo; i < n; ++i)'}}
    buf[i].x = 0;
}

struct Grid {
  P cells[16];
  void clear() {
    [[clang::soa_conversion_target("cells")]]
    for (int i = 0; i < 16; ++i)
      this->cells[i].x = 0; // expected-error {{the target must be named unqualified}} expected-note {{write 'cells[i]' instead of an explicit member access}}
  }
};

void lambdaMixed(std::vector<P *> &v, P &other) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    auto reset = [](P &q) { q.y = 0; }; // expected-note {{call it only with elements of this loop, or make it a function}}
    reset(*p); // expected-error {{a lambda receiving the element is also called with other objects}}
    reset(other);
  }
}

// A member named with its class: the view knows members by name alone, so
// a name two classes of the element declare, or a qualifier written in a
// macro, is refused (test/Exec/constructs/qualified-members.cpp converts
// the others).
struct Shape {
  double x, w; // expected-note {{the element's view knows its members by their names alone; rename one of the members, or leave the loop as written}}
};
struct Hides : Shape {
  double x;
};
#define WIDTH(s) (s)->Shape::w
void qualifiedHidden(std::vector<Hides *> &v) {
  [[clang::soa_conversion]]
  for (Hides *h : v) // expected-note {{in the loop annotated here}}
    h->Shape::x += h->x; // expected-error {{'Shape::x' names its member by its class, and more than one class of 'Hides' declares a member of that name}}
}
void qualifiedInMacro(std::vector<Hides *> &v) {
  [[clang::soa_conversion]]
  for (Hides *h : v) // expected-note {{in the loop annotated here}}
    h->x += WIDTH(h); // expected-error {{'Shape::w' names a member of the element by its class in a macro}} expected-note {{write it outside the macro}}
}
