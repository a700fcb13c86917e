// One annotated loop in a header template, instantiated with two element
// types of different layout: two views.
#include "common.h"
#include "kernels.h"

#include <memory>

struct Star {
  double mass;
  double pos, vel;
  char name[16];
};
struct Dust {
  float grain;
  double vel, pos;
};

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv);
  std::mt19937 rng(a.seed);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<std::unique_ptr<Star>> so;
  std::vector<std::unique_ptr<Dust>> dust_owner;
  std::vector<Star *> stars;
  std::vector<Dust *> dust;
  for (long i = 0; i < a.n; ++i) {
    so.push_back(std::make_unique<Star>(Star{1, U(rng), U(rng), "s"}));
    stars.push_back(so.back().get());
    dust_owner.push_back(std::make_unique<Dust>(Dust{0.1f, U(rng), U(rng)}));
    dust.push_back(dust_owner.back().get());
  }
  double m1 = 0, m2 = 0;
  for (int r = 0; r < a.reps; ++r) {
    m1 += advance(stars, 0.1);
    m2 += advance(dust, 0.2);
  }
  double c1 = 0, c2 = 0;
  for (auto *s : stars) c1 += s->pos;
  for (auto *d : dust) c2 += d->pos;
  printValue("maxv", m1 + m2);
  printValue("stars", c1);
  printValue("dust", c2);
}
