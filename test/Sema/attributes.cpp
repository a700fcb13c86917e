// Misplaced and ill-formed soaview attributes are errors with a location.
// RUN: %soaview_verify %s

#include <vector>
struct P { double x; };

[[clang::soa_conversion]] int global; // expected-error {{'soa_conversion' attribute only applies to for loops}} expected-note {{place it directly before a 'for' statement}}

void misplaced(std::vector<P> &v) {
  int i = 0;
  [[clang::soa_conversion]] // expected-error {{'soa_conversion' attribute only applies to for loops}} expected-note {{place it directly before}}
  while (i < 3) ++i;
  [[clang::soa_conversion]] i++; // expected-error {{only applies to for loops}} expected-note {{place it}}
}

void arguments(P *buf, int n, std::vector<P> &v) {
  [[clang::soa_conversion_target(buf)]] // expected-error {{'soa_conversion_target' attribute requires a string literal argument}} expected-note {{write the variable's name in quotes}}
  for (int i = 0; i < n; ++i) buf[i].x = 0;

  [[clang::soa_conversion_target(3)]] // expected-error {{requires a string literal argument}} expected-note {{in quotes}}
  for (int i = 0; i < n; ++i) buf[i].x = 0;

  [[clang::soa_conversion_target]] // expected-error {{'soa_conversion_target' attribute takes one argument}} expected-note {{name the indexed array}}
  for (int i = 0; i < n; ++i) buf[i].x = 0;

  [[clang::soa_conversion(1)]] // expected-error {{'soa_conversion' attribute's only argument is "always"}} expected-note {{converts a loop the profitability rule would leave alone}}
  for (auto &p : v) p.x = 0;

  for (auto &q : v) {
    [[clang::soa_conversion_hoist(0)]] // expected-error {{'soa_conversion_hoist' level must be at least 1}} expected-note {{counts how many enclosing loops}}
    for (auto &p : v) p.x += q.x;
  }

  [[clang::soa_conversion_hoist(n)]] // expected-error {{'soa_conversion_hoist' attribute requires an integer constant argument}}
  for (auto &p : v) p.x = 0;
}

void hoistTooFar(std::vector<P> &v) {
  for (auto &q : v) {
    [[clang::soa_conversion_hoist(2)]] // expected-error {{cannot hoist the conversion 2 loop level(s) out: the loop has 1 enclosing loop(s)}}
    for (auto &p : v) // expected-note {{hoisting moves the gather and scatter}}
      p.x += q.x;
  }
}

void targetOnRangeFor(std::vector<P> &v) {
  [[clang::soa_conversion_target("v")]] // expected-error {{'soa_conversion_target' names the array of an index loop}}
  for (auto &p : v) // expected-note {{remove the target}}
    p.x = 1;
}

void unknownTarget(P *buf, int n) {
  [[clang::soa_conversion_target("bfu")]] // expected-error {{unknown target 'bfu': the loop body never uses it}}
  for (int i = 0; i < n; ++i) // expected-note {{names the array the loop indexes}}
    buf[i].x = 0;
}
