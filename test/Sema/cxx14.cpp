// soaview's generated code is C++17: an earlier standard gets one error, at
// the first annotated loop, and the file is not rewritten.
// RUN: %soaview_verify -std=c++14 %s -DSTD=14
// RUN: %soaview_verify -std=c++11 %s -DSTD=11
#include <vector>
struct P { double x, y; };
void f(std::vector<P> &v, std::vector<P *> &w) {
  [[clang::soa_conversion]]
#if STD == 14
  // expected-error@+4 {{cannot convert loops in C++14: soaview needs C++17 or later}}
#else
  // expected-error@+2 {{cannot convert loops in C++11: soaview needs C++17 or later}}
#endif
  for (auto &p : v) // expected-note {{the code it generates for annotated loops is C++17: compile with -std=c++17 or later, or turn soaview off for this file with -fplugin-arg-soaview-convert=never}}
    p.x += p.y;
  [[clang::soa_conversion]]
  for (P *p : w)
    [[clang::soa_conversion_hoist(1)]]
    for (auto &q : v)
      p->y += q.x;
}
