// A view region in which an element moves from the end of one cell's list
// to the start of the next cell's, through bytes soaview cannot see (memcpy
// through untyped pointers taken before the region): the elements in list order are
// the same, the cells are not. The next sweep stops the region
// (test/Offload/host-offload.test).
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>
struct P { double x, rho; };
struct List { // a range soaview copies: no data(), no size()
  P **first;
  std::size_t n;
  P **begin() const { return first; }
  P **end() const { return first + n; }
};
struct Cell { List local, near; };
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
/// Moves the last element of the first cell to the start of the second.
void move(std::size_t *n0, void *first1, std::size_t *n1) {
  std::size_t a = *n0 - 1, b = *n1 + 1;
  P **f = *static_cast<P ***>(first1) - 1;
  std::memcpy(n0, &a, sizeof a);
  std::memcpy(n1, &b, sizeof b);
  std::memcpy(first1, &f, sizeof f);
}
void steps(std::vector<Cell> &cells, std::size_t *n0, void *first1,
           std::size_t *n1, int n, bool moves) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < n; ++s) {
    sum(cells);
    if (moves && s == 0)
      move(n0, first1, n1);
  }
}
int main(int argc, char **) {
  P a{1, 0}, b{2, 0}, c{4, 0};
  P *all[3] = {&a, &b, &c};
  std::vector<Cell> cells{{{all, 2}, {all, 3}}, {{all + 2, 1}, {all + 1, 2}}};
  try {
    steps(cells, &cells[0].local.n, &cells[1].local.first, &cells[1].local.n,
          2, argc > 1);
  } catch (const std::logic_error &) {
    std::printf("stopped\n");
    return 1;
  }
  std::printf("rho: %g %g %g\n", a.rho, b.rho, c.rho);
  return 0;
}
