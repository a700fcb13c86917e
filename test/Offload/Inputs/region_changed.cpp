// A view region whose lists change inside it where soaview cannot see it
// (memcpy through an untyped pointer taken before the region): the next sweep stops
// the region, naming it; its results are never written back
// (test/Offload/host-offload.test).
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>
struct P { double x, rho; };
struct Cell { std::vector<P *> local; };
void bump(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->rho += p->x;
  }
}
void steps(std::vector<Cell> &cells, void *order, int n) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < n; ++s) {
    bump(cells);
    if (s == 1) { // reorders cell 0's list, through bytes soaview cannot see
      P *swapped[2] = {cells[0].local[1], cells[0].local[0]};
      std::memcpy(order, swapped, sizeof swapped);
    }
  }
}
int main() {
  P a{1, 0}, b{2, 0}, c{3, 0};
  std::vector<Cell> cells{{{&a, &b}}, {{&c}}};
  steps(cells, cells[0].local.data(), 2); // unchanged while it ran
  std::printf("two steps: %g %g %g\n", a.rho, b.rho, c.rho);
  std::fflush(stdout);
  try {
    steps(cells, cells[0].local.data(), 3);
  } catch (const std::logic_error &) {
    std::printf("stopped; particles as before the region: %g %g %g\n", a.rho,
                b.rho, c.rho);
    return 1;
  }
  return 0;
}
