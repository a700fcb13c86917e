// A view region in which a neighbour (inner) list changes where soaview
// cannot see it: one entry of cell 0's neighbour list becomes another
// element of the region, its length and every local list unchanged (memcpy
// through an untyped pointer taken before the region). The region checks a known
// sweep's neighbour lists against the slots its index was built from, so
// the next sweep stops it (test/Exec/regions.test,
// test/Offload/host-offload.test).
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>
struct P { double x, rho; };
struct Cell { std::vector<P *> local, near; };
void sum(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.near)
        p->rho += q->x;
    }
  }
}
void steps(std::vector<Cell> &cells, void *entry, P *other, int n) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < n; ++s) {
    sum(cells);
    if (entry && s == 0) // through bytes soaview cannot see
      std::memcpy(entry, &other, sizeof other);
  }
}
int main(int argc, char **) {
  P a{1, 0}, b{2, 0}, c{4, 0}, d{8, 0};
  // Cell 0: a, b near a, b, c; cell 1: c, d near c, d (and b).
  std::vector<Cell> cells{{{&a, &b}, {&a, &b, &c}}, {{&c, &d}, {&b, &c, &d}}};
  try {
    steps(cells, argc > 1 ? &cells[0].near[2] : nullptr, &d, 2);
  } catch (const std::logic_error &) {
    std::printf("stopped\n");
    return 1;
  }
  std::printf("rho: %g %g %g %g\n", a.rho, b.rho, c.rho, d.rho);
  return 0;
}
