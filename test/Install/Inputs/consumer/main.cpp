// A pointer-list particle update, once through soaview (annotated) and once
// as written (the same loop without the attribute); prints whether the two
// agree bit for bit.
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

struct Particle {
  double x, v, a;
  char padding[40];
};

static void stepConverted(std::vector<Particle *> &ps, double dt) {
  [[clang::soa_conversion]]
  for (Particle *p : ps) {
    p->v += dt * p->a;
    p->x += dt * p->v;
  }
}

static void stepPlain(std::vector<Particle *> &ps, double dt) {
  for (Particle *p : ps) {
    p->v += dt * p->a;
    p->x += dt * p->v;
  }
}

int main() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::unique_ptr<Particle>> a, b;
  std::vector<Particle *> pa, pb;
  for (int i = 0; i < 1000; ++i) {
    Particle p{u(rng), u(rng), u(rng), {}};
    a.push_back(std::make_unique<Particle>(p));
    b.push_back(std::make_unique<Particle>(p));
    pa.push_back(a.back().get());
    pb.push_back(b.back().get());
  }
  for (int s = 0; s < 10; ++s) {
    stepConverted(pa, 0.01);
    stepPlain(pb, 0.01);
  }
  bool same = true;
  for (int i = 0; i < 1000; ++i)
    same &= std::memcmp(a[i].get(), b[i].get(), sizeof(Particle)) == 0;
  std::printf("converted and plain agree: %s\n", same ? "yes" : "no");
  return same ? 0 : 1;
}
