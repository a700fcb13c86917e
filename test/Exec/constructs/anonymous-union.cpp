// A gas particle whose per-loop scratch lives in an anonymous union of two
// named structs, plus an anonymous struct (the shape of SWIFT's particles):
// the density pair loop uses one member of the union, the force loop the
// other; members of anonymous structs are plain fields. The ghost between
// them (SWIFT's hydro_end_density and hydro_prepare_force) finishes the
// density and writes the force member over it: its view holds the union
// whole, so the bytes end as the element's would.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 60" --run "7 5" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <cmath>
#include <vector>

struct Gas {
  double x[3];
  float v[3];
  float h, mass, rho;
  union {
    struct {
      float wcount, wcount_dh, div_v;
      float rot_v[3];
    } density;
    struct {
      float balsara, f, v_sig;
    } force;
  };
  struct {
    float flag_a, flag_b;
  };
  long id;
};

static void densityPair(float r2, Gas *pi, const Gas *pj) {
  float u = r2 / (pi->h * pi->h + 1.f);
  float w = 1.f / (1.f + u);
  pi->rho += pj->mass * w;
  pi->density.wcount += w;
  pi->density.wcount_dh -= u * w;
  pi->density.div_v += (pi->v[0] - pj->v[0]) * w;
  for (int k = 0; k < 3; ++k)
    pi->density.rot_v[k] += pj->v[k] * w;
  pi->flag_a += 1.f;
}

void densityLoop(std::vector<Gas *> &local, std::vector<Gas *> &active) {
  [[clang::soa_conversion]]
  for (Gas *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Gas *pj : active) {
      double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
      densityPair((float)(dx * dx + dy * dy), pi, pj);
    }
  }
}

void ghostLoop(std::vector<Gas *> &parts) {
  [[clang::soa_conversion("always")]]
  for (Gas *p : parts) {
    p->density.wcount += 1.f;
    float div = p->density.div_v, wc = p->density.wcount;
    float dh = p->density.wcount_dh, curl = p->density.rot_v[0];
    p->force.balsara = std::fabs(div) / (std::fabs(div) + std::fabs(curl) + 1e-4f);
    p->force.f = 1.f / (1.f + dh * wc);
    p->force.v_sig = p->h * wc;
  }
}

void forceLoop(std::vector<Gas *> &parts) {
  [[clang::soa_conversion("always")]]
  for (Gas *p : parts) {
    p->force.v_sig = p->rho * 0.5f + p->flag_b;
    p->force.balsara = p->force.v_sig / (1.f + p->h);
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 60);
  std::vector<Gas> gas(n);
  std::vector<Gas *> all;
  for (Gas &g : gas) {
    std::memset(&g, 0, sizeof g);
    for (int k = 0; k < 3; ++k)
      g.x[k] = corpus::uniform(), g.v[k] = (float)corpus::uniform();
    g.h = (float)corpus::uniform();
    g.mass = (float)corpus::uniform();
    g.flag_b = (float)corpus::uniform();
    all.push_back(&g);
  }
  densityLoop(all, all);
  for (const Gas &g : gas) {
    corpus::print("rho", g.rho);
    corpus::print("density", g.density);
    corpus::print("flag_a", g.flag_a);
  }
  ghostLoop(all);
  for (const Gas &g : gas)
    corpus::print("ghost", g.force);
  forceLoop(all);
  for (const Gas &g : gas)
    corpus::print("force", g.force);
}
