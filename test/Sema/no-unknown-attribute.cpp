// With the plugin loaded no attribute is unknown, whether or not the loop is
// converted (an uninstantiated template keeps its attributes).
// RUN: %soaview_verify -Werror=unknown-attributes %s
// expected-no-diagnostics
#include <vector>
struct P { double x; };

template <class T> void never(std::vector<T> &v) {
  [[clang::soa_conversion]] [[clang::soa_conversion_hoist(1)]]
  for (auto &e : v) e.x = 0;
  [[soa_conversion_offload_compute]] [[clang::soa_conversion_compute_offload]]
  for (auto &e : v) e.x = 1;
}

void used(std::vector<P> &v) {
  [[clang::soa_conversion]] [[clang::soa_conversion_offload_compute]]
  for (auto &e : v) e.x = 2;
}
