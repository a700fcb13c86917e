// The N-body shape: the same array is the target of both loops of a nest
// (`bodies[i]` outside, `bodies[j]` inside). The outer view writes the
// velocities, the inner one holds positions and masses only; a lambda in the
// inner loop uses both.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 2 --out %t \
// RUN:   --run "1 60" --run "8 5" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

struct Body {
  double x, y, vx, vy, m;
};

void step(Body *bodies, int n, double dt) {
  [[clang::soa_conversion_target("bodies")]]
  for (int i = 0; i < n; ++i) {
    double ax = 0, ay = 0;
    [[clang::soa_conversion_target("bodies"), clang::soa_conversion_hoist(1)]]
    for (int j = 0; j < n; ++j) {
      double dx = bodies[j].x - bodies[i].x, dy = bodies[j].y - bodies[i].y;
      double r2 = dx * dx + dy * dy + 1e-3;
      auto pull = [&](double d) { return bodies[j].m * d / r2 + 1e-9 * bodies[i].x; };
      ax += pull(dx);
      ay += pull(dy);
    }
    bodies[i].vx += ax * dt;
    bodies[i].vy += ay * dt;
  }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 60);
  std::vector<Body> b(n);
  for (Body &q : b)
    q = {corpus::uniform(), corpus::uniform(), 0, 0, corpus::uniform()};
  for (int s = 0; s < 3; ++s)
    step(b.data(), n, 0.01);
  for (const Body &q : b)
    corpus::print("vx", q.vx), corpus::print("vy", q.vy);
}
