// A sweep whose local lists share an element: refused at run time before
// anything is written (test/Offload/host-offload.test).
#include <cstdio>
#include <stdexcept>
#include <vector>
struct P { double x, rho; };
struct Cell { std::vector<P *> local; };
void zero(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->rho = p->x;
  }
}
int main() {
  P a{1, 5}, b{2, 5};
  std::vector<Cell> cells{{{&a, &b}}, {{&b}}};
  try {
    zero(cells);
  } catch (const std::logic_error &) {
    std::printf("refused; particle unchanged: %d\n", a.rho == 5 && b.rho == 5);
    return 1;
  }
  return 0;
}
