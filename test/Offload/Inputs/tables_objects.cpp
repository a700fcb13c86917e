// Constant tables that are objects of a class with a constexpr constructor,
// initialized each way C++ writes it (test/Offload/tables-cuda.test): the
// CUDA backend's device copy repeats the initializer after its own name.
#include <vector>

struct Coef {
  float a, b;
  constexpr Coef(float x, float y) : a(x), b(y) {}
};
struct Zero {
  float z = 0.25f;
};
const Coef kParens(1.5f, 2.5f);
const Coef kBraces{0.5f, 4.0f};
const Zero kDefault;
const Coef kAssigned = Coef(3.f, 1.f);

struct P {
  float q, w;
};

void evaluate(std::vector<P *> &ps) {
  [[clang::soa_conversion_offload_compute]]
  for (P *p : ps)
    p->w = kParens.a * p->q + kParens.b + kBraces.b + kDefault.z + kAssigned.a;
}
