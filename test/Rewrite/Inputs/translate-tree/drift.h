// A header next to the main file, with an annotated loop; it includes an
// untouched neighbour.
#pragma once
#include "units.h"
#include <phys/particle.h>
inline void drift(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (Particle *p : ps)
    p->x += kStep * p->v;
}
