// Symmetric pair loops run on the host: offloaded, they are refused at the
// inner loop; a sweep takes range loops only, so it refuses them itself.
// RUN: %soaview_verify %offload_syntax %s
#include <iterator>
#include <vector>
struct P { double x, f; };

void offloaded(P *ps, int n) {
  [[clang::soa_conversion_target("ps"), clang::soa_conversion_offload_compute]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 1; j < n; ++j) { // expected-error {{cannot convert symmetric pair loop: it would run on the device; pair loops run on the host, so remove soa_conversion_offload_compute}} expected-note {{a pair loop walks the view of the loop around it}}
      ps[i].f += ps[j].x;
      ps[j].f -= ps[i].x;
    }
}

void swept(std::vector<P *> &cells, std::vector<int> &sizes) {
  [[clang::soa_conversion_offload_compute]] // expected-note {{a sweep records every cell's lists}}
  for (std::size_t k = 0; k < cells.size(); ++k) {
    P *b = cells[k];
    int n = sizes[k];
    [[clang::soa_conversion_target("b")]]
    for (int i = 0; i < n; ++i) // expected-error {{cannot sweep the cells of this loop: the nest's loops must be range loops}}
      [[clang::soa_conversion_target("b")]]
      for (int j = i + 1; j < n; ++j) {
        b[i].f += b[j].x;
        b[j].f -= b[i].x;
      }
  }
}
