// View regions and the function objects of std::ranges: an algorithm that
// may change a list (sort, reverse) is refused as the function of the same
// name is (test/Sema/regions.cpp); one that only reads it is not.
// RUN: %soaview_verify -std=c++20 -fopenmp %s
#include <algorithm>
#include <vector>

struct P {
  double x, rho;
};
struct Cell {
  std::vector<P *> local;
};

void sweep(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->rho += p->x;
  }
}

void sortsRange(std::vector<Cell> &cells) {
  [[clang::soa_conversion_region]] { // expected-note 2 {{in the region here}}
    sweep(cells);
    std::ranges::sort(cells[0].local); // expected-error {{cannot keep views in this region: 'sort' may change 'std::vector<P *>', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
    std::ranges::reverse(cells[1].local.begin(), cells[1].local.end()); // expected-error {{'reverse' may change 'std::vector<P *>', which holds elements of 'P'}} expected-note {{change containers before or after the region}}
  }
}

long findsInRange(std::vector<Cell> &cells, P *q) {
  long n = 0;
  [[clang::soa_conversion_region]] {
    sweep(cells);
    n += std::ranges::count(cells[0].local, q);
    n += std::ranges::find(cells[0].local, q) != cells[0].local.end();
    n += std::ranges::distance(cells[0].local.begin(), cells[0].local.end());
  }
  return n;
}
