// A view region with a sweep whose loop variable is a copy that the body
// writes: the writes stay in the copy (the sweep runs apart from the
// region's shared buffers), so the next sweep of the region and the
// elements see the values as written by the other sweep only
// (test/Offload/host-offload.test, bit for bit against the plain build).
#include <cstdio>
#include <vector>
struct P { double x, rho; };
struct Cell { std::vector<P> own; };
void grow(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P &p : c.own)
      p.rho += p.x;
  }
}
double probe(std::vector<Cell> &cells) {
  double acc = 0;
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P p : c.own) {
      p.rho = -100; // the copy's
      p.x += p.rho;
    }
  }
  return acc;
}
int main() {
  std::vector<Cell> cells(3);
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 5; ++k)
      cells[c].own.push_back({c + 0.25 * k, 0});
  [[clang::soa_conversion_region]]
  for (int s = 0; s < 3; ++s) {
    grow(cells);
    probe(cells);
  }
  for (const Cell &c : cells)
    for (const P &p : c.own)
      std::printf("%a %a\n", p.x, p.rho);
}
