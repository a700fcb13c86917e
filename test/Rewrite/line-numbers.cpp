// Code after a converted loop keeps its line and column: diagnostics of the
// real compile point at the user's source.
// RUN: %soaview_verify -Wunused-variable %s
#include <vector>
struct P { double x; };

void f(std::vector<P *> &v) {
  [[clang::soa_conversion]]
  for (auto *p : v) {
    p->x += 1;
  }
  int unused = 0; // expected-warning {{unused variable 'unused'}}
}
// expected-warning@+1 {{still on line 15}}
#warning still on line 15
static_assert(__LINE__ == 16, "line numbers are kept");
