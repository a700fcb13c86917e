// annotate=all: every range-for over structs or pointers to structs is
// treated as annotated soa_conversion("always"). A loop that cannot convert
// keeps its code, with a remark carrying the reason and its notes; the
// loops around and inside are tried on their own; a loop in a template
// converts only if every instantiation of it does. No remark for loops
// that convert (no -fplugin-arg-soaview-remarks) or that are not over
// structs. Attribute misuse is still an error.
// RUN: %soaview_verify -fplugin-arg-soaview-annotate=all %s
#include <map>
#include <string>
#include <utility>
#include <vector>

struct P { double x, v; int id; };
struct R { int x : 4; };
struct Cell { std::vector<P *> parts; };
P *keep;

void kick(std::vector<P> &ps, double dt) {
  for (P &p : ps)
    p.x += dt * p.v;
}

void escape(std::vector<P *> &ps) {
  for (P *p : ps) // expected-remark {{loop left as written (annotate=all): cannot convert loop: the element or its address is assigned}} expected-note {{in the loop annotated here}}
    keep = p; // expected-note {{soaview stopped here}} expected-note {{a view element exists only during its iteration}}
}

void cells(std::vector<Cell> &cs, double dt) {
  for (Cell &c : cs) // expected-remark {{field 'parts' is used as a whole but is not trivially copyable}} expected-note {{in the loop annotated here}}
    for (P *p : c.parts) // expected-note {{soaview stopped here}}
      p->x += dt * p->v;
}

// Structured bindings: a loop whose bindings hold a struct of the user's
// converts (the pair's pointer stands for the element); one over numbers,
// or over structs of system headers only, is no loop over structs.
void bindings(std::vector<std::pair<int, P *>> &byId,
              std::map<int, std::string> &names,
              std::vector<std::pair<P *, P *>> &pairs) {
  for (auto &[id, p] : byId)
    p->x += id;
  for (auto &[id, name] : names)
    name += "!";
  for (auto &[p, q] : pairs) // expected-remark {{cannot convert a loop whose structured bindings name 2 structs}} expected-note {{'p' and 'q' are both structs}} expected-note {{soaview stopped here}}
    p->x += q->v;
}

template <class T> void bump(std::vector<T *> &v) {
  for (T *p : v) // expected-remark {{cannot convert loop: field 'x' is a bit-field}} expected-note {{in the loop annotated here}} expected-remark {{another instantiation of its template cannot be converted, and the instantiations share the loop's text}}
    p->x += 1; // expected-note {{soaview stopped here}}
}
void bumpBoth(std::vector<P *> &a, std::vector<R *> &b) {
  bump(a);
  bump(b);
}

constexpr int count(const P (&a)[3]) { // expected-note {{move the loop into a function that is not constexpr}}
  int n = 0;
  for (const P &p : a) // expected-remark {{it is in a constexpr function}} expected-note {{soaview stopped here}}
    n += p.id;
  return n;
}

// A loop left as written for a reason that is a warning, not an error: the
// remark names it.
int countAll(std::vector<P *> &ps) {
  int n = 0;
  for (P *p : ps) // expected-remark {{loop left as written (annotate=all): loop uses no field of 'P'}} expected-note {{there is nothing to gather into a view}} expected-note {{soaview stopped here}}
    n += p != nullptr;
  return n;
}

int sum(std::vector<int> &v) {
  int s = 0;
  for (int x : v)
    s += x;
  return s;
}

void misplaced(std::vector<P> &ps) {
  [[clang::soa_conversion]] int unused = 0; // expected-error {{'soa_conversion' attribute only applies to for loops}} expected-note {{}}
  (void)unused;
}
// expected-note@15 {{a view stores each field in an array}}
// expected-note@16 {{}}

// Iterator and index loops are tried too. An index loop's target is the one
// array of structs its body subscripts with the index; a body subscripting
// two such arrays is not annotated (nor one subscripting none).
void forms(std::vector<P *> &ps, P *arr, P *brr, int n, std::vector<int> &ids) {
  for (auto it = ps.begin(); it != ps.end(); ++it) // expected-remark {{loop left as written (annotate=all): cannot convert loop: the element or its address is assigned}} expected-note {{in the loop annotated here}}
    keep = *it; // expected-note {{soaview stopped here}} expected-note {{a view element exists only during its iteration}}
  for (int i = 0; i < n; ++i) // expected-remark {{loop left as written (annotate=all): cannot convert loop: the element or its address is assigned}} expected-note {{in the loop annotated here}}
    keep = &arr[i]; // expected-note {{soaview stopped here}} expected-note {{a view element exists only during its iteration}}
  for (int i = 0; i < n; ++i)
    ids[i] += arr[i].id;
  for (int i = 0; i < n; ++i)
    arr[i].x += brr[i].x;
  for (int i = 0; i < n; ++i)
    ids[i] *= 2;
}
