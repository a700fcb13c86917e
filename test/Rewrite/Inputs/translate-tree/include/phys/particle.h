// A user header found through -I, with an annotated loop of its own.
#pragma once
#include <vector>
struct Particle { double x, v, a; int id; };
inline void kick(std::vector<Particle *> &ps, double dt) {
  [[clang::soa_conversion]]
  for (Particle *p : ps)
    p->v += dt * p->a;
}
