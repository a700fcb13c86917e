// Known broken under annotate=all (issue #29, found on real code): soaview converts
// the loop and its generated code does not compile. XFAIL until fixed; then make
// it a test/Exec/constructs program compared bit for bit with the plain build.
// XFAIL: *
// RUN: %soaview_cc1 -fplugin-arg-soaview-annotate=all %s
// Shape: range-for over a std::map (element std::pair<const int, unsigned long>) reading it.first and
// it.second: soaview converts it and its generated gather assigns the const key field ("read-only variable is not
// assignable"). From ls1-mardyn: src/integrators/Leapfrog.cpp:104 (for (auto &it : N_l) N[it.first] += it.second;),
// same shape at :105-107.
#include <map>
void merge(std::map<int, unsigned long> &N, std::map<int, unsigned long> &N_l, unsigned long *out) {
  for (auto &it : N_l) out[it.first] += it.second;
}
