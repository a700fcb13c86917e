// Symmetric pair loops soaview refuses: each refusal says what keeps the
// inner loop from walking the outer loop's view, at the place it found it.
// RUN: %soaview_verify %s

#include <iterator>
#include <list>
#include <vector>
struct P { double x, f; };

void startsAtOuter(P *ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i; j < n; ++j) { // expected-error {{cannot convert symmetric pair loop: it starts at 'i', not after the element of the loop around it}} expected-note {{a pair loop walks the view of the loop around it}}
      ps[i].f += ps[j].x;
      ps[j].f -= ps[i].x;
    }
}

void otherEnd(P *ps, int n, int m) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 1; j < m; ++j) { // expected-error {{cannot convert symmetric pair loop: it tests 'j < m', the loop around it 'i < n': both must stop at one element ('<' or '!=' against one end, or '<=' in both)}} expected-note {{a pair loop walks}}
      ps[i].f += ps[j].x;
      ps[j].f -= ps[i].x;
    }
}

void otherBound(P *ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 1; j <= n; ++j) { // expected-error {{it tests 'j <= n', the loop around it 'i < n': both must stop at one element}} expected-note {{a pair loop walks}}
      ps[j - 1].f -= ps[i].x;
    }
}

void notConstant(P *ps, int n, int k) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i * k; j < n; ++j) // expected-error {{cannot convert symmetric pair loop: its start 'i * k' is not 'i + c' with c a constant}} expected-note {{a pair loop walks}}
      ps[j].f -= ps[i].x;
}

void untilSkips(P *ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i != n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 2; j != n; ++j) // expected-error {{cannot convert symmetric pair loop: it starts 2 elements on: only the next element ('i + 1') cannot pass the end}} expected-note {{a pair loop walks}}
      ps[j].f -= ps[i].x;
}

void otherOffset(P *ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 1; j < n; ++j) // expected-error {{cannot convert symmetric pair loop: it indexes 'ps' with another offset than the loop around it}} expected-note {{a pair loop walks}}
      ps[j - 1].f -= ps[i].x;
}

// A pair loop walks the outer view where it is: hoisting it is refused,
// since its start depends on the outer index.
void hoisted(P *ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i) // expected-note {{declared here}} expected-note {{the view would be built before this loop}}
    [[clang::soa_conversion_target("ps"), clang::soa_conversion_hoist(1)]] // expected-error {{cannot hoist the conversion: the loop's elements depend on 'i'}}
    for (int j = i + 1; j < n; ++j)
      ps[j].f -= ps[i].x;
}

void notHoisted(P *ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = 0; j < n; ++j) // expected-error {{cannot convert symmetric pair loop: it loops over 'ps', the target of the loop around it, from '0': hoist it out of that loop (soa_conversion_hoist) or start it after that loop's element ('i + 1')}} expected-note {{a pair loop walks}}
      ps[i].f += ps[j].x;
}

void triples(P *ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 1; j < n; ++j)
      [[clang::soa_conversion_target("ps")]]
      for (int k = j + 1; k < n; ++k) // expected-error {{cannot convert symmetric pair loop: the loop around it walks the view of another loop}} expected-note {{a pair loop walks}}
        ps[k].f += ps[i].x * ps[j].x;
}

// Over pointers a repeat runs the nest as written (test/Exec/constructs/
// pair-pointers.cpp), from where the outer loop stands: not for a view
// hoisted out of the loops around it.
void pointersHoisted(std::vector<P *> &c, int steps) {
  for (int s = 0; s < steps; ++s) {
    [[clang::soa_conversion, clang::soa_conversion_hoist(1)]]
    for (auto it = c.begin(); it != c.end(); ++it)
      [[clang::soa_conversion]]
      for (auto jt = std::next(it); jt != c.end(); ++jt) { // expected-error {{cannot convert symmetric pair loop: its elements are pointers and the loop around it is hoisted: a range holding an object twice runs the nest as written, which a view built before the loops around it cannot (remove soa_conversion_hoist)}} expected-note {{a pair loop walks}}
        (*it)->f += (*jt)->x;
        (*jt)->f -= (*it)->x;
      }
  }
}
