// More refusals: escapes, calls soaview cannot follow, OpenMP, and fields
// that cannot live in a view.
// RUN: %soaview_verify %offload_syntax -ferror-limit=0 %s

#include <cstdarg>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct P {
  double x, y, arr[2];
  std::string name; // expected-note {{'P::name' is a library class that is not trivially copyable}}
};

struct Solver {
  virtual void apply(P &p) { p.x = 0; } // expected-note 2 {{declare the function or its class 'final', call it through a qualified name, or on an object whose type is known}}
  void exact(P &p);
};
// A hidden friend, declared only in its class: no place for its clone.
struct Q {
  double y;
  friend void nudge(Q &q) { q.y += 1; } // expected-error {{this function is declared only as a friend or in a block scope}} expected-note {{declare the function at namespace or class scope}}
};

// Member functions of other classes are followed unless virtual calls may
// run an override; offloaded, they would run on a copy of their object.
struct Kernel {
  double scale;
  void apply(P &p) const { p.x *= scale; } // expected-error {{cannot offload loop: the element is passed to 'Kernel::apply', a member function of another class}}
};
void logf(const char *fmt, ...);

P *firstBig(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    if (p->x > 1)
      return p; // expected-error {{the element escapes through a return statement}} expected-note {{a view element exists only during its iteration}}
  }
  return nullptr;
}

void lambdaEscapes(std::vector<P *> &v, std::vector<double (*)(P *)> &) {
  std::vector<std::pair<int, int>> keep;
  [[clang::soa_conversion]]
  for (auto *p : v) {
    auto f = [p] { return p->x; }; // fine: a local, called below
    p->y = f();
    keep.emplace_back(0, [p] { return 1; }()); // fine: called at once
  }
  // expected-error@+4 {{a lambda capturing the element may outlive the iteration}}
  // expected-note@+3 {{call the lambda directly or keep it in a local variable}}
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    (void)std::make_pair(0, [p] { return p->x; });
}

// A virtual call on a variable the loop leaves alone converts under a check
// of the object's dynamic type (test/Exec/constructs/virtual-functors.cpp);
// on a pointer the loop changes it is refused.
void memberCallee(std::vector<P *> &v, Solver &s, Solver *t, Solver *u) {
  [[clang::soa_conversion]]
  for (auto *p : v)
    s.apply(*p); // converts, checked: s is exactly a Solver
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    t->apply(*p); // expected-error {{the element is passed to virtual member function 'Solver::apply', which may run an override}}
    t = u;
  }
  [[clang::soa_conversion]]
  for (auto *p : v)
    s.Solver::apply(*p); // a qualified call runs Solver::apply: converts
}
// In a template, only on parameters (one rewrite serves every
// instantiation): a local variable is refused.
template <class S> void memberCalleeTemplate(std::vector<P *> &v, S &given) {
  S &s = given;
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    s.apply(*p); // expected-error {{the element is passed to virtual member function 'Solver::apply', which may run an override}}
}
template void memberCalleeTemplate(std::vector<P *> &, Solver &);

void friendOnly(std::vector<Q *> &v) {
  [[clang::soa_conversion]]
  for (auto *q : v)
    nudge(*q);
}

void offloadedFunctor(std::vector<P> &v, const Kernel &k) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{on the device it would run on a copy of its object}}
  for (auto &p : v)
    k.apply(p);
}

void variadic(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    logf("%p", p); // expected-error {{the element is passed to a variadic function}} expected-note {{pass the fields the function needs instead of the element}}
}

void systemCallee(std::vector<P *> &v, P &other) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    p->x = 1;
    std::swap(*p, other); // expected-error {{the element is passed to 'std::swap' from a system header}} expected-note@* {{a function receiving the element must be user code}}
  }
}

// Library functions that are builtins (no body at all) are named as any
// other function from a system header.
void builtinCallees(std::vector<P *> &v, std::vector<P *> &kept) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    kept.push_back(std::addressof(*p)); // expected-error {{the element is passed to 'std::addressof' from a system header}} expected-note@* {{a function receiving the element must be user code}}
}
void builtinMove(std::vector<P *> &v, std::vector<P *> &kept) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    kept.push_back(std::move(p)); // expected-error {{the element is passed to 'std::move' from a system header}} expected-note@* {{a function receiving the element must be user code}}
}

// The element's address kept by a container (issue #51, item 13), named as
// an escape rather than as a call into a system header.
std::vector<P *> touched;
void addressKept(std::vector<P> &v) {
  [[clang::soa_conversion]]
  for (P &p : v) { // expected-note {{in the loop annotated here}}
    p.x += 1;
    touched.push_back(&p); // expected-error {{cannot convert loop: the element's address escapes the loop: it is handed to 'std::vector<P *>::push_back', which keeps it}} expected-note {{keep an index, or collect the addresses in a loop that soaview leaves as written}}
  }
}
void pointerKept(std::vector<P *> &v, std::vector<P *> &kept) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    p->x += 1;
    kept.emplace_back(p); // expected-error {{the element's address escapes the loop: it is handed to 'std::vector<P *>::emplace_back', which keeps it}} expected-note {{keep an index}}
  }
}

void localCopy(std::vector<P *> &v, double &s) {
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    P copy = *p; // expected-error {{cannot convert loop: the element is copied}} expected-note {{bind the element by reference instead}}
    s += copy.x;
  }
}

void notTriviallyCopyable(std::vector<P *> &v, std::size_t &n) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{in the loop annotated here}}
    n += p->name.size(); // expected-error {{field 'name' is used as a whole but is not trivially copyable}}
}

void openmp(std::vector<P> &v) {
  #pragma omp parallel for
  [[clang::soa_conversion]]
  for (auto &p : v) // expected-error {{cannot convert loop: it is associated with an OpenMP directive}} expected-note {{put the OpenMP directive on a loop around it}}
    p.x = 0;
}

// The address of a field may not outlive the iteration (the field lives in
// the iteration's view); using it within the iteration is fine.
double *keptField;
void fieldAddresses(std::vector<P *> &v) {
  double *last = nullptr;
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    if (last)
      *last += p->x;
    last = &p->y; // expected-error {{the address of field 'y' may outlive the iteration}} expected-note {{use the address only within it}}
  }
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    double &r = p->y; // expected-error {{the address of field 'y' may outlive the iteration}} expected-note {{use the address only within it}}
    keptField = &r;
  }
  [[clang::soa_conversion]]
  for (auto *p : v) { // expected-note {{in the loop annotated here}}
    keptField = &p->arr[1]; // expected-error {{the address of field 'arr' may outlive the iteration}} expected-note {{use the address only within it}}
  }
  [[clang::soa_conversion]]
  for (auto *p : v) {
    double *q = &p->x; // local to the iteration: fine
    q[0] += p->arr[0] + *&p->arr[1];
    double &r = p->y;
    *q += r;
    r = q[0] > 1 ? 1 : 0;
  }
}

// Offloaded code and variables of the host: constant tables get a device
// copy; other variables, and tables soaview cannot declare where they are
// defined, are refused.
double gScale = 2;
static double scaled(double x) { return x * gScale; } // expected-error {{cannot offload loop: 'scaled', called in the loop, uses the variable 'gScale', which lives in host memory}}
struct Coeffs {
  static const double table[2];
};
const double Coeffs::table[2] = {0.5, 0.25}; // expected-error {{the constant table 'table' cannot be declared for the device where it is defined}}
void offloadedGlobals(std::vector<P> &v) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{device code has its own copies only of constants and constant tables}}
  for (auto &p : v)
    p.x *= gScale; // expected-error {{cannot offload loop: it uses the variable 'gScale', which lives in host memory}}
  [[clang::soa_conversion_offload_compute]] // expected-note {{device code has its own copies only of constants and constant tables}}
  for (auto &p : v)
    p.x = scaled(p.x);
  [[clang::soa_conversion_offload_compute]] // expected-note {{soaview declares constant tables for the device right after their definition}}
  for (auto &p : v)
    p.x *= Coeffs::table[1];
}
