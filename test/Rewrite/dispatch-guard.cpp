// A virtual member function called with the element on a reference and on
// a pointer the loop leaves alone, and on a reference member of the nest's
// object: the converted nest runs after a check of
// the object's dynamic type, the nest as written (its attributes commented
// out, at its own lines) otherwise.
// The clone of the member drops `virtual`: a member template.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <vector>
struct P {
  double x, f;
};
struct K {
  virtual ~K() = default;
  virtual void apply(P &a, const P &b) { a.f += b.x; }
};

void pairs(std::vector<P *> &ps, K &k) {
  [[clang::soa_conversion("always")]]
  for (P *a : ps)
    [[clang::soa_conversion_hoist(1)]]
    for (P *b : ps)
      k.apply(*a, *b);
}

void one(std::vector<P> &ps, K *k, const P &c) {
  [[clang::soa_conversion("always")]]
  for (P &a : ps)
    k->apply(a, c);
}

// A reference member of the nest's object, called from a lambda capturing
// `this`: the check names it through `this`.
struct Traversal {
  K &functor;
  void run(std::vector<P *> &ps) {
    auto interact = [this](auto &a, auto &b) { functor.apply(a, b); };
    [[clang::soa_conversion("always")]]
    for (P *a : ps)
      [[clang::soa_conversion_hoist(1)]]
      for (P *b : ps)
        interact(*a, *b);
  }
};
// CHECK: clone of 'K::apply'
// CHECK-NEXT: #line
// CHECK-NEXT: {{^}}  template <class soaview_E0, class soaview_E1, {{.*}}> __attribute__((always_inline)) void apply(soaview_E0 &a, const soaview_E1 &b)
// CHECK-LABEL: {{^}}void pairs(
// CHECK-NEXT: if (!(::soaview::exact_type(k))) { // soaview: the loop as written, for other dynamic types of 'k'
// CHECK-NEXT: #line [[LINE:[0-9]+]]
// CHECK-NEXT: /*clang::soa_conversion("always")*/
// CHECK-NEXT: for (P *a : ps)
// CHECK-NEXT: /*clang::soa_conversion_hoist(1)*/
// CHECK-NEXT: for (P *b : ps)
// CHECK-NEXT: k.apply(*a, *b);
// CHECK-NEXT: } else
// CHECK-NEXT: #line [[LINE]]
// CHECK-NEXT: /*clang::soa_conversion("always")*/
// CHECK-NEXT: { // soaview: hoisted 1 level(s)
// CHECK-LABEL: {{^}}void one(
// CHECK-NEXT: if (!(::soaview::exact_pointee(k))) {
// CHECK: } else
// CHECK: { // soaview: view of 'P' in {f} out {f}
// CHECK: k->apply(a, c);
// CHECK-LABEL: void run(
// CHECK: if (!(::soaview::exact_type(this->functor))) { // soaview: the loop as written, for other dynamic types of 'functor'
// CHECK: } else
// CHECK: { // soaview: hoisted 1 level(s)
