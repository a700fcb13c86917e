// Operators: member operators of a nested vector type, a free operator taking
// a field, a member operator of the element itself, and a C array of values.
#include "common.h"

struct Vec {
  double x, y;
  Vec &operator+=(const Vec &o) {
    x += o.x;
    y += o.y;
    return *this;
  }
};
inline Vec operator*(const Vec &v, double s) { return {v.x * s, v.y * s}; }

struct Body {
  Vec pos, vel, acc;
  double mass;
  long steps;
  Body &operator++() { // one step counted
    ++steps;
    return *this;
  }
  bool operator<(double m) const { return mass < m; }
};

void leapfrog(Body (&bodies)[128], int n, double dt) {
  (void)n;
  [[clang::soa_conversion]]
  for (Body &b : bodies) {
    b.vel += b.acc * (0.5 * dt);
    if (b < 0.1)
      continue;
    b.pos += b.vel * dt;
    ++b;
  }
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv);
  std::mt19937 rng(a.seed);
  std::uniform_real_distribution<double> U(-1, 1);
  static Body bodies[128];
  for (Body &b : bodies)
    b = {{U(rng), U(rng)}, {U(rng), U(rng)}, {U(rng), U(rng)}, U(rng) + 1, 0};
  for (int r = 0; r < a.reps; ++r)
    leapfrog(bodies, 128, 0.01);
  double s = 0;
  long steps = 0;
  for (const Body &b : bodies) {
    s += b.pos.x + 3 * b.pos.y + 5 * b.vel.x + 7 * b.vel.y;
    steps += b.steps;
  }
  printValue("state", s);
  std::printf("steps %ld\n", steps);
}
