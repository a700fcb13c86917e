#include "drift.h"
#include <cstdio>
int main() {
  std::vector<Particle> store(64);
  std::vector<Particle *> ps;
  for (int i = 0; i < 64; ++i) {
    store[i] = Particle{0.5 * i, 1.0 / (i + 1), 0.125 * (i % 7), i};
    ps.push_back(&store[(i * 5) % 64]);
  }
  for (int s = 0; s < 3; ++s) {
    kick(ps, 0.5);
    drift(ps);
  }
  double sum = 0;
  for (const Particle &p : store)
    sum += p.x * 3 + p.v;
  std::printf("%.17g\n", sum);
}
