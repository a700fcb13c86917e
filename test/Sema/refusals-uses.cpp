// Uses of the element soaview refuses, each with a located error, a note on
// what to write instead and the loop it concerns (analysis/Analysis.cpp).
// RUN: %soaview_verify %s

#include <vector>

struct P;
struct Inner {
  P *owner;
  P &get() { return *owner; }
};
struct Base {
  double b;
};
struct P : Base {
  double x, y;
  Inner in;
};
struct D {
  double x;
  ~D() {}
};

template <class T> struct Box {
  static void take(P &p) { p.x += 1; }
};

void base(Base &b) { b.b += 1; }
template <class T> void spec(T &t) { t.x += 1; }
template <> void spec<P>(P &p) { p.x += 2; }

void uses(std::vector<P *> &v, std::vector<D *> &d) {
  [[clang::soa_conversion]]
  for (auto *q : d) // expected-note {{in the loop annotated here}}
    q->~D(); // expected-error {{constructor or destructor called on the element}} expected-note {{use the element through its fields}}

  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    base(*p); // expected-error {{the element is passed as 'Base &' to 'base'}} expected-note@28 {{parameters receiving the element must have the element's own type}}

  // A clone of an explicit specialization would specialize nothing.
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    spec(*p); // expected-error {{explicit specializations are not supported}} expected-note {{make the specialization an overload}}

  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    (void)(p + 1); // expected-error {{unsupported operation on the element}} expected-note {{use the element through its fields}}

  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    (void)reinterpret_cast<char *>(p); // expected-error {{unsupported use of the element}} expected-note {{use the element through its fields}}

  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    (void)(void *)p; // expected-error {{the element is converted to 'void *'}} expected-note {{use the element through its fields}}

  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    p->in.get().x = 1; // expected-error {{member function returning a sub-object reference}} expected-note {{return the field's value}}

  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    static P *keep = p; // expected-error {{the element is copied into 'keep'}} expected-note {{bind it by reference ('auto &') or pointer}}
    (void)keep;
  }

  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    P *&q = p; // expected-error {{unsupported alias of the element}} expected-note {{bind it by reference ('auto &') or pointer}}
    (void)q;
  }

  // A member of a class template gets a clone: the loop converts.
  [[clang::soa_conversion]]
  for (auto *p : v)
    Box<int>::take(*p);

  // `(void)p;` discards the element: the loop converts.
  [[clang::soa_conversion]]
  for (auto *p : v) {
    (void)p;
    p->y = p->x;
  }
}

// sizeof and alignof of the element itself would measure its view in the
// converted loop (a silent difference before): refused. Of its type, of a
// pointer to it and of its fields they are the same in both builds.
struct Q {
  double x, y;
  char name[40];
};
void sizes(std::vector<Q *> &v, std::vector<Q> &w, double &s) {
  [[clang::soa_conversion]]
  for (Q *q : v) // expected-note {{in the loop annotated here}}
    s += sizeof(*q) * q->x; // expected-error {{'sizeof' of the element would give the size of its view in the converted loop}} expected-note {{write 'sizeof' of the element's type instead}}
  [[clang::soa_conversion]]
  for (Q &q : w) // expected-note {{in the loop annotated here}}
    q.y = __alignof__(q); // expected-error-re {{'{{.*}}alignof' of the element would give the size of its view}} expected-note-re {{write '{{.*}}alignof' of the element's type instead}}
  [[clang::soa_conversion_target("w")]]
  for (unsigned i = 0; i < w.size(); ++i) // expected-note {{in the loop annotated here}}
    w[i].y = sizeof w[i]; // expected-error {{'sizeof' of the element}} expected-note {{write 'sizeof' of the element's type}}
  [[clang::soa_conversion]]
  for (Q *q : v)
    q->y = sizeof(Q) + sizeof(q) + sizeof(q->name) + sizeof q->x;
}

// decltype and __typeof__ of the element, its pointer or a reference to it
// would name its view's type in the converted loop (a static_assert on it
// failed inside generated code, a size of it differed silently): refused.
// Of a field they are the same in both builds.
void types(std::vector<Q *> &v, std::vector<Q> &w) {
  [[clang::soa_conversion]]
  for (Q *q : v) { // expected-note {{in the loop annotated here}}
    using T = decltype(*q); // expected-error {{'decltype' of the element would give the type of its view in the converted loop}} expected-note {{name the element's type instead (the same in both builds); 'decltype' of a field is the same too}}
    q->y = sizeof(T);
  }
  [[clang::soa_conversion]]
  for (Q &q : w) // expected-note {{in the loop annotated here}}
    q.y = sizeof(__typeof__(q)); // expected-error {{'__typeof__' of the element would give the type of its view}} expected-note {{name the element's type instead}}
  [[clang::soa_conversion]]
  for (Q *q : v) { // expected-note {{in the loop annotated here}}
    Q &r = *q;
    static_assert(sizeof(decltype(r)) > 0, ""); // expected-error {{'decltype' of the element would give the type of its view}} expected-note {{name the element's type instead}}
    r.x += 1;
  }
  [[clang::soa_conversion]]
  for (Q *q : v) // expected-note {{in the loop annotated here}}
    q->y += sizeof(decltype(q)); // expected-error {{'decltype' of the element}} expected-note {{name the element's type}}
  [[clang::soa_conversion]]
  for (Q *q : v) {
    decltype(q->x) d = q->x;
    __typeof__(q->name[0]) c = q->name[0];
    q->y = d + c;
  }
}
