// Static members reached through the element or its type in a function
// template that receives the view: a static function, static constexpr
// data (an array keeps its type), a nested alias, a nested struct's
// constant and an unscoped enum.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 1 --out %t \
// RUN:   --run "1 40" --run "2 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct Gas {
  static constexpr double Gamma = 5.0 / 3.0;
  static constexpr double Weights[3] = {0.25, 0.5, 0.25};
  enum Kind { Hot, Cold };
  using Real = double;
  struct Limits {
    static constexpr int Order = 3;
  };
  static double pressure(double u) { return (Gamma - 1) * u; }
  double u, p;
  Kind kind;
};

template <class T> void eos(T *q) {
  typename T::Real r = T::pressure(q->u) + q->Gamma + T::Limits::Order +
                       q->Weights[1] * (sizeof(T::Weights) / sizeof(double));
  if (q->kind == T::Hot)
    q->p = r;
}

void update(std::vector<Gas *> &all) {
  [[clang::soa_conversion("always")]]
  for (Gas *q : all)
    eos(q);
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  std::vector<Gas> gs(corpus::count(argc, argv, 40));
  std::vector<Gas *> all;
  for (Gas &g : gs) {
    g = {corpus::uniform(), 0, corpus::uniform() < 0.5 ? Gas::Hot : Gas::Cold};
    all.push_back(&g);
  }
  update(all);
  for (const Gas &g : gs)
    corpus::print("p", g.p);
}
