// A view region whose sweeps use the members of an anonymous union apart
// (SWIFT's particles: the density sums and the force terms share storage):
// init writes d.w, the ghost reads d.w and writes f.p (its view alone would
// hold the union whole), force reads f.p, and a pair sweep sums d.w of its
// neighbours before the ghost overwrites it, a second pair sweep writes f.a
// from its neighbours' f.p. In a region every sweep's view
// holds the union whole, so all of them use one buffer for its bytes
// (test/Exec/regions.test, test/Offload/host-offload.test: bit for bit
// against the plain build). Arguments: seed, particles, steps.
#include <cstdio>
#include <cstdlib>
#include <vector>
struct P {
  double x, out;
  union {
    struct {
      float w, n;
    } d;
    struct {
      float p, a;
    } f;
  };
  int tag;
};
using Lists = std::vector<std::vector<P *>>;
void init(Lists &l) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < l.size(); ++c) {
    [[clang::soa_conversion]]
    for (P *p : l[c]) {
      p->d.w = (float)p->x;
      p->d.n = 0;
    }
  }
}
void neighbours(Lists &l, Lists &near) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < l.size(); ++c) {
    [[clang::soa_conversion]]
    for (P *p : l[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : near[c])
        p->d.n += q->tag == p->tag ? 0.0f : (float)q->x;
    }
  }
}
void ghost(Lists &l) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < l.size(); ++c) {
    [[clang::soa_conversion]]
    for (P *p : l[c]) {
      float w = p->d.w, n = p->d.n;
      p->f.p = 2 * w + n;
    }
  }
}
// A pair sweep writing one member of the union (f.a) and reading another
// of its neighbours (f.p): both views hold the union whole, each writes
// back only what it writes.
void accel(Lists &l, Lists &near) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < l.size(); ++c) {
    [[clang::soa_conversion]]
    for (P *p : l[c]) {
      p->f.a = 0;
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : near[c])
        p->f.a += q->tag == p->tag ? 0.0f : 0.5f * q->f.p;
    }
  }
}
void force(Lists &l) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < l.size(); ++c) {
    [[clang::soa_conversion]]
    for (P *p : l[c]) {
      p->out += p->f.p + p->f.a;
      p->x += 0.25 * p->out;
    }
  }
}
void run(Lists &l, Lists &near, int steps) {
  [[clang::soa_conversion_region]]
  for (int s = 0; s < steps; ++s) {
    init(l);
    neighbours(l, near);
    ghost(l);
    accel(l, near);
    force(l);
  }
}
int main(int argc, char **argv) {
  unsigned seed = argc > 1 ? std::atoi(argv[1]) : 1;
  int n = argc > 2 ? std::atoi(argv[2]) : 64;
  int steps = argc > 3 ? std::atoi(argv[3]) : 2;
  std::srand(seed);
  std::vector<P> ps(n);
  const std::size_t cells = 5;
  Lists l(cells), near(cells);
  for (int i = 0; i < n; ++i) {
    ps[i].x = std::rand() % 1000 / 64.0;
    ps[i].out = 0;
    ps[i].tag = i;
    l[std::rand() % cells].push_back(&ps[i]);
  }
  for (std::size_t c = 0; c < cells; ++c)
    for (std::size_t k : {c, (c + 1) % cells})
      near[c].insert(near[c].end(), l[k].begin(), l[k].end());
  run(l, near, steps);
  std::printf("%d particles, %d steps\n", n, steps);
  for (const P &p : ps)
    std::printf("%a %a %a %a\n", p.x, p.out, (double)p.f.p, (double)p.f.a);
}
