// Ranges of std::reference_wrapper<T> convert as ranges of pointers
// (test/Exec/constructs/reference-wrappers.cpp); what cannot is refused,
// naming the form: a wrapper used other than as 'r.get()' or converted to
// 'T &', a conversion other than a reference wrapper's, wrappers of
// pointers, and offloaded or swept loops.
// RUN: %soaview_verify %offload_syntax -fplugin-arg-soaview-remarks %s
#include <functional>
#include <vector>

struct P {
  double x, y;
};

void converts(std::vector<std::reference_wrapper<P>> &refs) {
  [[clang::soa_conversion("always")]]
  for (auto &r : refs) // expected-remark {{view of 'P' in {x, y} out {x}}}
    r.get().x += r.get().y;
}

void rebound(std::vector<std::reference_wrapper<P>> &refs, P &other) {
  [[clang::soa_conversion]]
  for (auto &r : refs) {
    r.get().x = 0;
    r = other; // expected-error {{cannot convert loop: the std::reference_wrapper 'r' is used in 'r = other'}} expected-note {{in a converted loop 'r' refers to the view of the element; use it only as 'r.get()' or converted to a reference to the element ('auto &e = r.get();'), or loop over the elements ('for (T &e : refs)')}}
  }
}

void keep(std::reference_wrapper<P>);
void passed(std::vector<std::reference_wrapper<P>> &refs) {
  [[clang::soa_conversion]]
  for (auto r : refs)
    keep(r); // expected-error {{the std::reference_wrapper 'r' is used in 'keep(r)'}} expected-note {{use it only as 'r.get()'}}
}

/// A handle with a conversion of its own: it could give any object.
struct Handle {
  P *p;
  operator P &() const { return *p; } // expected-note {{soaview gathers the elements a range holds, pointers to them, or the objects std::reference_wrapper refers to; a conversion function could give any object, so loop over the range's own elements, or keep this loop as written}}
};
void handles(std::vector<Handle> &hs) {
  [[clang::soa_conversion]]
  for (P &p : hs) // expected-error {{cannot convert a loop whose variable converts the range's elements: 'Handle' to 'P &'}}
    p.x = 1;
}

void wrappedPointers(std::vector<std::reference_wrapper<P *>> &refs) {
  [[clang::soa_conversion]]
  for (auto &r : refs) // expected-error {{cannot convert a loop whose elements are not structs}} expected-note {{the loop variable has type 'std::reference_wrapper<P *> &'}}
    r.get()->x = 1;
}

void offloaded(std::vector<std::reference_wrapper<P>> &refs) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded and swept loops take ranges of elements or of pointers to them ('std::vector<T *>'); remove the attribute to convert the loop on the host}}
  for (P &p : refs) // expected-error {{cannot offload loop: its range holds std::reference_wrapper elements}}
    p.x = 1;
}

struct Cell {
  std::vector<std::reference_wrapper<P>> local;
  std::vector<P *> active;
};
void swept(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{offloaded and swept loops take ranges}}
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P &p : c.local) { // expected-error {{cannot offload loop: its range holds std::reference_wrapper elements}}
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active)
        p.y += q->x;
    }
  }
}

// One rewrite serves every instantiation: `auto &e` over pointers and over
// the elements themselves (or over wrappers of them) would need two.
void bump(P &p) { p.x += 1; }
void bump(P *p) { p->x += 2; }
template <class C> void bumpAll(C &c) {
  [[clang::soa_conversion]]
  for (auto &e : c) // expected-remark {{view of 'P' in {x} out {x}}} expected-error {{its instantiations use different fields or member functions of 'P' (in {x} out {x} through a pointer here)}}
    bump(e);
}
void instances(std::vector<P> &v, std::vector<P *> &w) {
  bumpAll(v); // expected-note {{an instantiation using in {x} out {x} is here}}
  bumpAll(w);
}
