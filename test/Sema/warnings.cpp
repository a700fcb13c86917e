// soaview's warnings follow -w and -Werror, and each has a flag that
// silences it alone (plugin argument no-warn=FLAG; soaview-translate
// --no-warn=FLAG). Clang's -W options do not reach a plugin's diagnostics,
// so the replay applies them (diag/Diagnostics.cpp).
// RUN: %soaview_verify %s
// RUN: %soaview_verify -Werror %s -DWERROR
// RUN: %soaview_verify -w %s -DQUIET
// RUN: %soaview_verify -fplugin-arg-soaview-no-warn=empty-view %s -DQUIET
// RUN: %soaview-translate --no-warn=empty-view %s -o %t.cpp -- -std=c++17 2>&1 | count 0
#include <vector>
struct P { double x; };

void empty(std::vector<P *> &v) {
#if defined(QUIET)
  // expected-no-diagnostics
  for (auto *p : v) {}
#elif defined(WERROR)
  [[clang::soa_conversion]]
  for (auto *p : v) {} // expected-error {{loop uses no field of 'P'; it is left unconverted}} expected-note {{there is nothing to gather into a view}}
#else
  [[clang::soa_conversion]]
  for (auto *p : v) {} // expected-warning {{loop uses no field of 'P'; it is left unconverted}} expected-note {{there is nothing to gather into a view}}
#endif
}

#if !defined(QUIET) && !defined(WERROR)
// A nest converts whole or not at all: its other loops say so.
void nest(std::vector<P *> &v, std::vector<P *> &w) {
  [[clang::soa_conversion]]
  for (auto *p : v) // expected-note {{this annotated loop is in the same nest, which converts whole or not at all: it is left as written too}}
    [[clang::soa_conversion]]
    for (auto *q : w) // expected-warning {{loop uses no field of 'P'; it is left unconverted}} expected-note {{there is nothing to gather into a view}}
      p->x += 1;
}
#endif
