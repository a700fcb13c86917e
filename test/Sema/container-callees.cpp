// The container rule follows the loop's calls: a function the loop reaches
// (a call, a method, a lambda, a constructor, an override of a virtual
// function it calls) may not change the container the view is built from.
// It counts a write of the container by name (a global, the member in any
// object of its class, a local a lambda captures) and, for a container that
// code outside its function can reach, a write of an object of its type
// through a pointer or reference. Before 2026-11-29 only the loop's own
// code was read: these loops converted and visited the elements the
// container held when they started. Loops that convert beside such calls:
// test/Exec/constructs/container-callees.cpp.
// RUN: %soaview_verify %s
#include <vector>

struct P {
  double x;
};
P a{1}, b{2};

std::vector<P *> g;
void swap0() { g[1] = &a; } // expected-note 3 {{'swap0', which the loop calls, changes it here}}
void globalInCallee() {
  [[clang::soa_conversion("always")]]
  for (P *p : g) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x += 1;
    swap0(); // expected-error {{cannot convert loop: the iterated container 'g' may be modified in the loop}}
  }
}

void deeper() { swap0(); }
void globalTwoCallsDown() {
  [[clang::soa_conversion("always")]]
  for (P *p : g) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x += 1;
    deeper(); // expected-error {{the iterated container 'g' may be modified in the loop}}
  }
}

void iteratorOverGlobal() {
  [[clang::soa_conversion("always")]]
  for (auto it = g.begin(); it != g.end(); ++it) { // expected-note {{the view is built from the container's elements before the loop starts}}
    (*it)->x += 1;
    swap0(); // expected-error {{the iterated container 'g' may be modified in the loop}}
  }
}

struct Sys {
  std::vector<P *> parts;
  void reset() { parts.push_back(&b); } // expected-note {{'Sys::reset', which the loop calls, changes it here}}
  void viaMethod() {
    [[clang::soa_conversion("always")]]
    for (P *p : parts) { // expected-note {{the view is built from the container's elements before the loop starts}}
      p->x += 1;
      reset(); // expected-error {{the iterated container 'parts' may be modified in the loop}}
    }
  }
  // A member written in the loop itself (not seen before 2026-11-29).
  void inBody() {
    [[clang::soa_conversion("always")]]
    for (P *p : parts) { // expected-note {{the view is built from the container's elements before the loop starts}}
      p->x += 1;
      parts[0] = &a; // expected-error {{the iterated container 'parts' may be modified in the loop}}
    }
  }
};

struct Cell {
  std::vector<P *> parts;
};
Cell *current;
void refill() { current->parts.push_back(&a); } // expected-note {{'refill', which the loop calls, changes it here}}
void sameMemberOfAnotherCell(Cell &c) {
  [[clang::soa_conversion("always")]]
  for (P *p : c.parts) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x += 1;
    refill(); // expected-error {{the iterated container 'parts' may be modified in the loop}}
  }
}

void capturedByLambda() {
  std::vector<P *> v = {&a, &b};
  auto f = [&] { v[1] = &a; }; // expected-note {{a lambda, which the loop calls, changes it here}}
  [[clang::soa_conversion("always")]]
  for (P *p : v) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x += 1;
    f(); // expected-error {{the iterated container 'v' may be modified in the loop}}
  }
}

std::vector<P *> *escaped;
void poke() { (*escaped)[1] = &a; } // expected-note {{'poke', which the loop calls, writes a 'std::vector<P *>' through a pointer or reference here, which may be the container}}
void addressTaken() {
  std::vector<P *> v = {&a, &b};
  escaped = &v;
  [[clang::soa_conversion("always")]]
  for (P *p : v) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x += 1;
    poke(); // expected-error {{the iterated container 'v' may be modified in the loop}}
  }
}

struct Step {
  virtual void after() {}
  virtual ~Step() = default;
};
struct Regrid : Step {
  void after() override { g.clear(); } // expected-note {{'Regrid::after', which the loop calls, changes it here}}
};
void throughOverride(Step &s) {
  [[clang::soa_conversion("always")]]
  for (P *p : g) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x += 1;
    s.after(); // expected-error {{the iterated container 'g' may be modified in the loop}}
  }
}

struct Hook {
  virtual void run() = 0;
  virtual ~Hook() = default;
};
struct Rebuild : Hook {
  void run() override { g.push_back(&b); } // expected-note {{'Rebuild::run', which the loop calls, changes it here}}
};
void throughPureVirtual(Hook &h) {
  [[clang::soa_conversion("always")]]
  for (P *p : g) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x += 1;
    h.run(); // expected-error {{the iterated container 'g' may be modified in the loop}}
  }
}

struct Guard {
  Guard() { g.pop_back(); } // expected-note {{'Guard::Guard', which the loop calls, changes it here}}
};
void inConstructor() {
  [[clang::soa_conversion("always")]]
  for (P *p : g) { // expected-note {{the view is built from the container's elements before the loop starts}}
    Guard once; // expected-error {{the iterated container 'g' may be modified in the loop}}
    p->x += 1;
  }
}

std::vector<P> store;
void grow() { store.push_back(P{9}); } // expected-note {{'grow', which the loop calls, changes it here}}
void indexTargetMoves(int n) {
  [[clang::soa_conversion("always"), clang::soa_conversion_target("store")]]
  for (int i = 0; i < n; ++i) { // expected-note {{the view is built from the container's elements before the loop starts}}
    store[i].x += 1;
    grow(); // expected-error {{the iterated container 'store' may be modified in the loop}}
  }
}

std::vector<P> *other;
void growOther() { other->push_back(P{1}); } // expected-note {{'growOther', which the loop calls, writes a 'std::vector<P>' through a pointer or reference here, which may be the container}}
void indexTargetByReference(std::vector<P> &A, int n) {
  [[clang::soa_conversion("always"), clang::soa_conversion_target("A")]]
  for (int i = 0; i < n; ++i) { // expected-note {{the view is built from the container's elements before the loop starts}}
    A[i].x += 1;
    growOther(); // expected-error {{the iterated container 'A' may be modified in the loop}}
  }
}

void listChangedByLambda(P *A, int n) {
  std::vector<int> ngb(n, 0);
  auto shrink = [&] { ngb.pop_back(); }; // expected-note {{a lambda, which the loop calls, changes it here}}
  [[clang::soa_conversion("always"), clang::soa_conversion_target("A")]]
  for (int k = 0; k < 2; ++k) { // expected-note {{the view is built from the container's elements before the loop starts}}
    A[ngb[k]].x += 1;
    shrink(); // expected-error {{the iterated container 'ngb' may be modified in the loop}}
  }
}

// A user's accessor that writes nothing selects from the object it is
// called on: on the container, a write through it reseats a pointer the
// container holds; on an element (`buf[i].slot()`), it writes the element.
struct Holder {
  std::vector<P *> items;
  P *&slot(int k) { return items[k]; }
  std::vector<P *>::iterator begin() { return items.begin(); }
  std::vector<P *>::iterator end() { return items.end(); }
};
void reseat(Holder &h, P *q) {
  [[clang::soa_conversion]]
  for (P *p : h) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x = 0;
    h.slot(0) = q; // expected-error {{cannot convert loop: the iterated container 'h' may be modified in the loop}}
  }
}

// A container reached through a subscript (`hs[0].items`) is the variable
// subscripted: reseating one of its pointers is refused (before: converted,
// and the loop visited the pointer the container held when it started),
// while writing another member of the cell is not a change of it.
struct Bin {
  std::vector<P *> items;
  int count;
};
void reseatSubscripted(std::vector<Bin> &hs, P *q) {
  [[clang::soa_conversion]]
  for (P *p : hs[0].items) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x += 1;
    hs[0].items[1] = q; // expected-error {{cannot convert loop: the iterated container 'hs' may be modified in the loop}}
  }
}
// The element selected is the container itself (`for (P *p : hs[0])` over
// a user container): reseating through its accessor, assigning it, or a
// call that may change it writes the container (before: converted, and the
// loop visited the pointer the holder held when it started).
void holderSubscripted(std::vector<Holder> &hs, P *q) {
  [[clang::soa_conversion]]
  for (P *p : hs[0]) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x = 0;
    hs[0].slot(1) = q; // expected-error {{cannot convert loop: the iterated container 'hs' may be modified in the loop}}
  }
}
void holderAssigned(std::vector<Holder> &hs, const Holder &other) {
  [[clang::soa_conversion]]
  for (P *p : hs[1]) { // expected-note {{the view is built from the container's elements before the loop starts}}
    p->x = 0;
    hs[2] = other; // expected-error {{cannot convert loop: the iterated container 'hs' may be modified in the loop}}
  }
}
void countSubscripted(std::vector<Bin> &hs, int c) {
  [[clang::soa_conversion]]
  for (P *p : hs[c].items) {
    p->x += 1;
    hs[c].count += 1;
    hs[c + 1].count = 2;
  }
}
