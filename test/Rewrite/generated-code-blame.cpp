// An error in the code generated before a function goes to the loop whose
// view holds it, not to the first converted loop after it (found on
// AutoPas: two correct loops were named). The test hook
// debug-break-view=LINE plants a line that does not compile in the view of
// the loop on line LINE.
// RUN: %soaview_verify -fplugin-arg-soaview-debug-break-view=25 %s

#include <vector>

namespace ns {
struct P {
  double x, m;
};
struct Q {
  double y;
};
} // namespace ns

double twoLoops(std::vector<ns::P> &ps, std::vector<ns::Q> &qs) {
  double s = 0;
  [[clang::soa_conversion("always")]]
  for (const ns::P &p : ps)
    s += p.x * p.m;
  [[clang::soa_conversion("always")]]
  for (const ns::Q &q : qs) // expected-error {{soaview: internal error: the code generated for this loop over 'ns::Q' does not compile; this is a soaview bug}} expected-note {{in code soaview generated before generated-code-blame.cpp:19:1}} expected-note {{please report it}}
    s += q.y;
  return s;
}
