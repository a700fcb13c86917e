// The off switch: with convert=never (or SOAVIEW_CONVERT=never) soaview
// converts no loop and reports nothing, not even for loops it would refuse
// or a standard before C++17; the attributes are accepted silently.
// RUN: %soaview_verify -fplugin-arg-soaview-convert=never %s
// RUN: env SOAVIEW_CONVERT=never %soaview_verify %s
// RUN: env SOAVIEW_CONVERT=never %soaview_verify -std=c++14 %s
// The argument wins over the environment.
// RUN: env SOAVIEW_CONVERT=always %soaview_verify -fplugin-arg-soaview-convert=never %s
// expected-no-diagnostics
#include <vector>
struct P { double x, y; };
void f(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (P *p : v)
    if (p) // refused when converting: the element pointer is tested for null
      p->x += p->y;
  [[clang::soa_conversion]]
  while (v.empty()) // refused when converting: not a for loop
    v.push_back(nullptr);
}
