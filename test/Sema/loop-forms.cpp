// Loop shapes soaview does not convert: each gets the expected form.
// RUN: %soaview_verify %s

#include <map>
#include <vector>
struct P { double x, y; };

void downwards(P *buf, int n) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = n; i > 0; --i) // expected-error {{unsupported loop form: the loop's condition is 'i > 0'}} expected-note {{expected 'for (i = lo; i < n; ++i)' (or 'i <= n', 'i != n'; 'i++', 'i += 1')}}
    buf[i - 1].x = 0;
}

void decrement(P *buf, int n) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = 0; i < n; i += 2) // expected-error {{unsupported loop form: the loop's increment is 'i += 2'}} expected-note {{expected 'for (i = lo; i < n; ++i)'}}
    buf[i].x = 0;
}

// The target is inferred only where the body subscripts one array of
// structs with the index (test/Rewrite/inferred-targets.cpp).
void noTarget(P *buf, P *other, int n) {
  [[clang::soa_conversion]]
  for (int i = 0; i < n; ++i) // expected-error {{unsupported loop form: an index loop needs soa_conversion_target when its body subscripts no array of structs with the index, or several}} expected-note {{expected 'for (i = lo; i < n; ++i)'}}
    buf[i].x = other[i].x;
}

void notStructs(std::vector<double> &v) {
  [[clang::soa_conversion]]
  for (double &d : v) // expected-error {{cannot convert a loop whose elements are not structs}} expected-note {{the loop variable has type 'double &'}}
    d = 0;
}

void indexModified(P *buf, int n) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = 0; i < n; ++i) { // expected-note {{a converted index loop must run exactly}}
    buf[i].x = 0;
    i++; // expected-error {{the loop index or bound is modified in the loop body}}
  }
}

void boundModified(P *buf, int n) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = 0; i < n; ++i) { // expected-note {{a converted index loop must run exactly}}
    buf[i].x = 0;
    n -= 1; // expected-error {{the loop index or bound is modified in the loop body}}
  }
}

void otherIndex(P *buf, int n) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = 0; i < n - 1; ++i) // expected-note {{a view holds exactly the element of the current iteration}}
    buf[i].x = buf[i + 1].x; // expected-error {{target 'buf' is indexed as 'buf[i]' and as 'buf[i + 1]': two elements in one iteration}}
}

void notAffine(P *buf, int n) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = 0; i < n; ++i) // expected-note {{a view holds exactly the element of the current iteration}}
    buf[2 * i].x = 0; // expected-error {{target 'buf' is used as 'buf[2 * i]', not as 'buf[i]' or 'buf[i + c]' with c loop-invariant, or 'buf[list[i]]' with a local list}}
}

void offsetInBody(P *buf, int n) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = 1; i <= n; ++i) { // expected-note {{a view holds exactly the element of the current iteration}}
    int k = 1;
    buf[i - k].x = 0; // expected-error {{target 'buf' is used as 'buf[i - k]', not as 'buf[i]' or 'buf[i + c]'}}
  }
}

struct Cell {
  P *parts;
  int first;
  void kick(int last) {
    [[clang::soa_conversion_target("parts")]]
    for (int i = first; i <= last; ++i) // expected-note {{a view holds exactly the element of the current iteration}}
      parts[i - first].x = 0; // expected-error {{target 'parts' is used as 'parts[i - first]', not as 'parts[i]' or 'parts[i + c]' with c loop-invariant, or 'parts[list[i]]' with a local list}}
  }
};

void offsetModified(P *buf, int first, int last) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = first; i <= last; i++) { // expected-note {{a converted index loop must run exactly}}
    buf[i - first].x = 0;
    first++; // expected-error {{the loop index or bound is modified in the loop body}}
  }
}

void notArray(P &one, int n) {
  [[clang::soa_conversion_target("one")]] // expected-error {{target 'one' is not an array of structs}}
  for (int i = 0; i < n; ++i)
    one.x += i;
  // expected-note@-4 {{expected T*, T[N] or std::vector<T>}}
}

