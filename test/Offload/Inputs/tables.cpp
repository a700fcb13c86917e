// Offloaded code reading constant tables (a kernel's coefficients, at
// namespace scope and in a namespace, as SWIFT keeps them): soaview declares
// them for the device, which gets its own copy (test/Offload/tables.test).
#include <cstdio>
#include <cstdlib>
#include <vector>

struct P {
  float q, w, dw;
};
static const float kTable[6] = {1.f, 0.75f, 0.5f, 0.25f, 0.125f, 0.f};
namespace kernel {
const double kSlope[2] = {-0.5, 0.25};
}

static float lookup(float q) {
  const int i = q < 0.f ? 0 : q >= 4.f ? 4 : int(q);
  return kTable[i] + (q - i) * (kTable[i + 1] - kTable[i]);
}

void evaluate(std::vector<P *> &ps) {
  [[clang::soa_conversion_offload_compute]]
  for (P *p : ps) {
    p->w = lookup(p->q);
    p->dw = (float)(kernel::kSlope[p->q > 2.f] * p->q);
  }
}

int main(int argc, char **argv) {
  int n = argc > 2 ? std::atoi(argv[2]) : 100;
  unsigned s = argc > 1 ? (unsigned)std::atoi(argv[1]) : 1;
  std::vector<P> store(n);
  std::vector<P *> ps;
  for (P &p : store) {
    s = s * 1103515245u + 12345u;
    p = {(float)(s % 6000u) / 1000.f - 0.5f, 0, 0};
    ps.push_back(&p);
  }
  evaluate(ps);
  for (const P &p : store)
    std::printf("%a %a\n", p.w, p.dw);
}
