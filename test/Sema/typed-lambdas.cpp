// A lambda written outside the loop that takes the element by its own type
// becomes generic where it is written (`P &p` -> `auto &p`) only where that
// means what it did (analysis/TypedLambdas.cpp). Each refusal points at
// what stops it: a call that converts its argument (a derived class, a null
// pointer), a conversion to a function pointer, a default argument, a
// volatile reference, a type named through a macro, a body asking for the parameter's type.
// RUN: %soaview_verify %s
#include <vector>

struct P {
  double x, y;
};
struct D : P {
  double z;
};

template <class L> void each(std::vector<P> &v, L l) {
  [[clang::soa_conversion]]
  for (P &p : v) // expected-note 5 {{in the loop annotated here}}
    l(p); // expected-error {{the element is passed to a lambda written outside the loop that takes it by the element's own type ('P &'), which soaview cannot make 'auto'}} expected-error 3 {{by the element's own type ('P &')}} expected-error {{('volatile P &')}}
}
template <class L> void eachPointer(std::vector<P> &v, L l) {
  [[clang::soa_conversion]]
  for (P &p : v) // expected-note {{in the loop annotated here}}
    l(&p); // expected-error {{by the element's own type ('P *')}}
}

void derived(std::vector<P> &v, D &d) {
  auto l = [](P &p) { p.y = 0; };
  each(v, l);
  l(d); // expected-note {{here the lambda is called with an argument of type 'D', which a parameter of type 'P &' converts and an 'auto' one would not; pass exactly 'P &', or take the parameter as 'auto'}}
}

void nullPointer(std::vector<P> &v) {
  auto l = [](P *p) { p->y = 0; };
  eachPointer(v, l);
  l(nullptr); // expected-note {{called with an argument of type 'std::nullptr_t'}}
}

void functionPointer(std::vector<P> &v) {
  auto l = [](P &p) { p.y = 1; };
  each(v, l);
  void (*f)(P &) = l; // expected-note {{here the lambda is converted to a function pointer, or its call operator is named outside a call; call the lambda directly}}
  (void)f;
}

void defaultArgument(std::vector<P> &v) {
  auto l = [](P &p, const P &q = P{}) { p.y = q.x; }; // expected-note {{the parameter has a default argument, from which an 'auto' parameter deduces nothing}}
  [[clang::soa_conversion]]
  for (P &p : v) // expected-note {{in the loop annotated here}}
    l(p, p); // expected-error {{by the element's own type ('const P &')}}
}

void volatileReference(std::vector<P> &v) {
  each(v, [](volatile P &p) { p.y = 3; }); // expected-note {{only a parameter declared as an lvalue reference or a pointer to the element's class, named as written (not through a macro), becomes 'auto &' or 'auto *'}}
}

#define ELEMENT P
void macroType(std::vector<P> &v) {
  each(v, [](ELEMENT &p) { p.y = 4; }); // expected-note {{named as written (not through a macro)}}
}

void askedType(std::vector<P> &v) {
  each(v, [](P &p) { p.y = sizeof(decltype(p)); }); // expected-note {{the body asks for the parameter's type here (decltype, sizeof, alignof, noexcept or typeid), which would be the view's; name the element's type instead}}
}

// Converts: a field's type (`decltype(p.x)`), calls with exactly the
// element's type elsewhere, a const object to a const reference.
void converts(std::vector<P> &v, P &one, const P &two) {
  auto l = [](const P &p) { return decltype(p.x)(p.y); };
  double s = 0;
  [[clang::soa_conversion]]
  for (P &p : v)
    s += l(p);
  s += l(one) + l(two) + l(P{1, 2});
  (void)s;
}
