// Iterator loops soaview does not convert: each refusal names the form it
// found, at the place it found it.
// RUN: %soaview_verify %s

#include <vector>
struct P { double x, y; };

void escapes(std::vector<P> &v, std::vector<std::vector<P>::iterator> &out) {
  [[clang::soa_conversion]]
  for (auto it = v.begin(); it != v.end(); ++it) { // expected-note {{expected 'for (auto it = c.begin(); it != c.end(); ++it)' (or 'it++'; or a condition asking the iterator, 'it.isValid()'), with the element used only as '*it' or 'it->'}}
    it->x = 1;
    out.push_back(it); // expected-error {{unsupported iterator loop: the iterator 'it' is used in 'out.push_back(it)'}}
  }
}

void nextElement(std::vector<P> &v) {
  [[clang::soa_conversion]]
  for (auto it = v.begin(); it != v.end(); ++it) // expected-note {{expected 'for (auto it = c.begin()}}
    it->x = (it + 1)->y; // expected-error {{unsupported iterator loop: the iterator 'it' is used in 'it + 1'}}
}

void copied(P *a, int n) {
  [[clang::soa_conversion]]
  for (P *p = a; p != a + n; ++p) { // expected-note {{expected 'for (auto it = c.begin()}}
    P *q = p; // expected-error {{unsupported iterator loop: the iterator 'p' is used in 'P *q = p;'}}
    q->x = 0;
  }
}

void condition(std::vector<P> &v) {
  [[clang::soa_conversion]]
  for (auto it = v.begin(); it < v.end(); ++it) // expected-error {{unsupported iterator loop: the loop's condition is 'it < v.end()'}} expected-note {{expected 'for (auto it = c.begin()}}
    it->x = 0;
}

void stepTwo(std::vector<P> &v) {
  [[clang::soa_conversion]]
  for (auto it = v.begin(); it != v.end(); it += 2) // expected-error {{unsupported iterator loop: the loop's increment is 'it += 2'}} expected-note {{expected 'for (auto it = c.begin()}}
    it->x = 0;
}

void declaredBefore(std::vector<P> &v) {
  std::vector<P>::iterator it;
  [[clang::soa_conversion]]
  for (it = v.begin(); it != v.end(); ++it) // expected-error {{unsupported iterator loop: the loop's init is 'it = v.begin()'; it must declare the one iterator}} expected-note {{expected 'for (auto it = c.begin()}}
    it->x = 0;
}

void notStructs(std::vector<double> &v) {
  [[clang::soa_conversion]]
  for (auto it = v.begin(); it != v.end(); ++it) // expected-error {{unsupported iterator loop: '*it' has type 'double', not a struct or a pointer to one}} expected-note {{expected 'for (auto it = c.begin()}}
    *it = 0;
}

void pointerWritten(std::vector<P *> &v, P *q) {
  [[clang::soa_conversion]]
  for (auto it = v.begin(); it != v.end(); ++it) // expected-note {{expected 'for (auto it = c.begin()}}
    *it = q; // expected-error {{unsupported iterator loop: the iterator 'it' is used in '*it = q'}}
}

void target(std::vector<P> &v) {
  [[clang::soa_conversion_target("v")]] // expected-error {{unsupported iterator loop: soa_conversion_target names the array of an index loop, and this loop steps an iterator}}
  for (auto it = v.begin(); it != v.end(); ++it) // expected-note {{expected 'for (auto it = c.begin()}}
    it->x = 0;
}

void grows(std::vector<P> &v) {
  [[clang::soa_conversion]]
  for (auto it = v.begin(); it != v.end(); ++it) { // expected-note {{the view is built from the container's elements before the loop starts}}
    it->x = 0;
    v.push_back(P{}); // expected-error {{cannot convert loop: the iterated container 'v' may be modified in the loop}}
  }
}

// A condition asking the iterator converts when the member function is
// const and takes nothing (test/Exec/constructs/valid-iterators.cpp).
struct Cursor {
  P *p, *e;
  bool isValid() { return p != e; } // not const: it could change the iterator
  bool valid(int k) const { return p + k < e; }
  P &operator*() const { return *p; }
  Cursor &operator++() { ++p; return *this; }
};
void notConst(P *a, int n) {
  [[clang::soa_conversion]]
  for (Cursor it{a, a + n}; it.isValid(); ++it) // expected-error {{unsupported iterator loop: the loop's condition is 'it.isValid()'}} expected-note {{expected 'for (auto it = c.begin()}}
    (*it).x = 0;
}
void withArgument(P *a, int n) {
  [[clang::soa_conversion]]
  for (Cursor it{a, a + n}; it.valid(1); ++it) // expected-error {{unsupported iterator loop: the loop's condition is 'it.valid(1)'}} expected-note {{expected 'for (auto it = c.begin()}}
    (*it).x = 0;
}
// A condition through a pointer iterator asks the element, which the body
// may change: evaluated for all elements before the loop, it could differ.
struct Node {
  double x;
  bool alive() const { return x > 0; }
};
void asksElement(Node *first) {
  [[clang::soa_conversion]]
  for (Node *p = first; p->alive(); ++p) // expected-error {{unsupported iterator loop: the loop's condition is 'p->alive()'}} expected-note {{expected 'for (auto it = c.begin()}}
    p[1].x -= 1;
}
struct Walker {
  P *p, *e;
  bool isValid() const { return p != e; }
  P &operator*() const { return *p; }
  Walker &operator++() { ++p; return *this; }
};
// A pair loop over such iterators has no end to share.
void pairs(P *a, int n) {
  [[clang::soa_conversion]]
  for (Walker it{a, a + n}; it.isValid(); ++it)
    [[clang::soa_conversion]]
    for (Walker jt = it; jt.isValid(); ++jt) // expected-error {{cannot convert symmetric pair loop}} expected-note {{a pair loop walks the view of the loop around it}}
      (*it).x += (*jt).y;
}

// A begin with side effects is evaluated once, as written; hoisted it would
// be evaluated before the loops around it.
struct Counting {
  std::vector<P> v;
  long calls = 0;
  std::vector<P>::iterator first() { ++calls; return v.begin(); }
};
void hoistedBegin(Counting &c, int k) {
  for (int r = 0; r < k; ++r)
    [[clang::soa_conversion, clang::soa_conversion_hoist(1)]]
    for (auto it = c.first(); it != c.v.end(); ++it) // expected-error {{unsupported iterator loop: the loop's begin 'c.first()' may have side effects, and soa_conversion_hoist evaluates it before the loops around it}} expected-note {{expected 'for (auto it = c.begin()}}
      it->x += r;
}

// Nor may the iterator's own answer read the elements (the frame asks it for
// every element before the body runs), and it must be visible.
struct UntilDead {
  Node *p;
  bool isValid() const { return p->alive(); }
  Node &operator*() const { return *p; }
  UntilDead &operator++() { ++p; return *this; }
};
struct Opaque {
  Node *p;
  bool isValid() const;
  Node &operator*() const { return *p; }
  Opaque &operator++() { ++p; return *this; }
};
void readsElement(Node *first) {
  [[clang::soa_conversion]]
  for (UntilDead it{first}; it.isValid(); ++it) // expected-error {{unsupported iterator loop: the loop's condition 'it.isValid()' reads 'alive' of an element, which the body may change}} expected-note {{expected 'for (auto it = c.begin()}}
    (*it).x -= 1;
  [[clang::soa_conversion]]
  for (Opaque it{first}; it.isValid(); ++it) // expected-error {{unsupported iterator loop: the loop's condition 'it.isValid()' calls a function whose definition is not visible}} expected-note {{expected 'for (auto it = c.begin()}}
    (*it).x -= 1;
}
