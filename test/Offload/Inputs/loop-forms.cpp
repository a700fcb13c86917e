// Offloaded iterator and index loops (docs/attributes.md, "Loop forms"):
// the iterator loop over [begin, end) and a 1-based index loop with an
// offset into its target, on the device.
#include "../../Exec/constructs/common.h"
#include <vector>

struct Body {
  double x, v, m;
};

void kick(std::vector<Body> &bs, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (auto it = bs.begin(); it != bs.end(); ++it)
    it->v += dt * (*it).m;
}

void drift(Body *A, int first, int last, double dt) {
  [[clang::soa_conversion_target("A"), clang::soa_conversion_offload_compute]]
  for (int i = first; i <= last; i++)
    A[i - first].x += dt * A[i - first].v;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<Body> bs(n);
  for (Body &b : bs)
    b = {corpus::uniform(), corpus::uniform(), corpus::uniform()};
  kick(bs, 0.25);
  drift(bs.data(), 3, 3 + n - 1, 0.5);
  corpus::print("n", n);
  for (const Body &b : bs) {
    corpus::print("x", b.x);
    corpus::print("v", b.v);
  }
}
