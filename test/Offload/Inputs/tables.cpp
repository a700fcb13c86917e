// Offloaded code reading constant tables (a kernel's coefficients, at
// namespace scope and in a namespace, as SWIFT keeps them): soaview declares
// them for the device, which gets its own copy (test/Offload/tables.test;
// the CUDA backend on the GPU: test/GPU/cuda.test). They are read in the
// loop, in a function it calls, in a function given the element (cloned
// for the view) and in a member function of the element (copied into the
// view); kBig does not fit the device's constant memory beside the others.
#include <cstdio>
#include <cstdlib>
#include <vector>

static const float kTable[6] = {1.f, 0.75f, 0.5f, 0.25f, 0.125f, 0.f};
namespace kernel {
const double kSlope[2] = {-0.5, 0.25};
const double kBig[7000] = {0.5, -0.25, 0.125, 3.0, -1.5};
} // namespace kernel

struct P {
  float q, w, dw;
  float tail() const { return kTable[5] + q * kTable[3]; }
};

static void smooth(P &p) {
  p.w += (float)kernel::kBig[int(p.q * 1000.f + 1000.f) % 5] * p.q;
}

static float lookup(float q) {
  const int i = q < 0.f ? 0 : q >= 4.f ? 4 : int(q);
  return kTable[i] + (q - i) * (kTable[i + 1] - kTable[i]);
}

void evaluate(std::vector<P *> &ps) {
  [[clang::soa_conversion_offload_compute]]
  for (P *p : ps) {
    p->w = lookup(p->q);
    p->dw = (float)(kernel::kSlope[p->q > 2.f] * p->q) + p->tail();
    smooth(*p);
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
