// Kernels as function templates in a user header: soaview rewrites the
// header in memory and builds one view per instantiation.
#pragma once
#include <vector>

template <class P> void integrate(P &p, double dt) { p.pos += p.vel * dt; }

template <class P> double advance(std::vector<P *> &ps, double dt) {
  double maxv = 0;
  [[clang::soa_conversion]]
  for (auto *p : ps) {
    integrate(*p, dt);
    if (p->vel > maxv)
      maxv = p->vel;
  }
  return maxv;
}
