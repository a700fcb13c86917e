// Errors that the real compile finds in generated code become one soaview
// error at the user's loop, saying it is a soaview bug; errors that are the
// user's own (a warning made an error) pass through unchanged. The test hook
// debug-break-generated-code plants an undeclared call before each converted
// loop's rewrite.
// RUN: %soaview_verify -fplugin-arg-soaview-debug-break-generated-code \
// RUN:   -Werror=unused-variable %s
// Without the hook the same file converts and only the user's error remains.
// RUN: not %soaview_cc1 -Werror=unused-variable %s 2>&1 | FileCheck --check-prefix=PLAIN %s
// PLAIN-NOT: internal error
// PLAIN: error: unused variable 'unused'
// PLAIN-NOT: internal error

#include <vector>

namespace ns {
struct P {
  double x, m, rho;
};
} // namespace ns

void pairs(std::vector<ns::P *> &loc, std::vector<ns::P *> &act) {
  [[clang::soa_conversion]]
  for (ns::P *pi : loc) { // expected-error {{soaview: internal error: the code generated for this loop over 'ns::P' does not compile; this is a soaview bug}} expected-note {{the compiler reports 'use of undeclared identifier 'soaview_broken_generated_code'' in code soaview generated before generated-code-guard.cpp:24:3}} expected-note {{please report it with this source file (-fplugin-arg-soaview-dump=FILE writes the generated code); remove the loop's soa_conversion attributes to build it as written, or build the file with -fplugin-arg-soaview-convert=never}}
    [[clang::soa_conversion_hoist(1)]]
    for (const ns::P *pj : act) // expected-error {{the code generated for this loop over 'ns::P' does not compile}} expected-note {{the compiler reports}} expected-note {{please report it}}
      pi->rho += pj->m * (pi->x - pj->x);
  }
}

void user() {
  int unused = 1; // expected-error {{unused variable 'unused'}}
}
