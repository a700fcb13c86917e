// annotate=all on a program of our own that was not written for soaview:
// every loop over structs is tried; the ones that convert compute what the
// plain build computes, bit for bit, and the ones that cannot keep their
// code (a cell loop holding a container, elements that escape, a template
// also instantiated with a bit-field element, a constexpr function).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --soaview-flags="-fplugin-arg-soaview-annotate=all" \
// RUN:   --run "1 300" --run "7 1000" %s | FileCheck %s
// CHECK: all runs identical
#include <cstdio>
#include <cstdlib>
#include <list>
#include <vector>

struct P {
  double x[2], v[2], m;
  int id;
  char admin[24];
};
struct R {
  int id : 6;
  int y;
};
struct Cell {
  std::vector<P *> parts;
  double mass = 0;
};

static P *last;

template <class T> void bump(std::vector<T *> &v) {
  for (T *p : v) // left as written: R's id is a bit-field
    p->id += 1;
}

constexpr int ids(const P (&a)[2]) {
  int n = 0;
  for (const P &p : a)
    n += p.id;
  return n;
}

static double rnd() { return std::rand() / (double)RAND_MAX; }

int main(int argc, char **argv) {
  std::srand(argc > 1 ? std::atoi(argv[1]) : 1);
  int n = argc > 2 ? std::atoi(argv[2]) : 100;
  std::vector<P> ps(n);
  std::vector<P *> ptrs;
  for (P &p : ps) { // converts: writes every field it reads
    p.x[0] = rnd(), p.x[1] = rnd(), p.v[0] = rnd() - 0.5,
    p.v[1] = rnd() - 0.5, p.m = 1 + rnd();
  }
  for (int i = 0; i < n; ++i)
    ptrs.push_back(&ps[(i * 7) % n]);
  std::vector<Cell> cells(8);
  for (P *p : ptrs) // left as written: the element is stored in a list
    cells[(int)(p->x[0] * 8) % 8].parts.push_back(p);
  for (Cell &c : cells) // left as written: holds a container
    for (P *p : c.parts) // converts on its own
      p->v[0] += 0.01 * p->m;
  std::list<P *> few(ptrs.begin(), ptrs.begin() + n / 3);
  for (P *p : few) // converts
    for (int k = 0; k < 2; ++k)
      p->x[k] += 0.1 * p->v[k];
  for (P *p : ptrs) // left as written: the element escapes
    if (p->m > 1.9)
      last = p;
  std::vector<R> rs(5);
  std::vector<R *> rp;
  for (R &r : rs) { // left as written: the element's address is taken
    r.y = 3;
    rp.push_back(&r);
  }
  bump(ptrs);
  bump(rp);
  double e = 0;
  for (const P &p : ps) // converts (a reduction into a local)
    e += p.m * (p.v[0] * p.v[0] + p.v[1] * p.v[1]);
  P two[2] = {ps[0], ps[1]};
  std::printf("%a %a %a %d %d %d\n", e, ps[n / 2].x[0], ps[n - 1].v[0],
              last ? last->id : -1, ids(two), rs[0].id + rs[4].y);
}
