// annotate=all takes every loop form soaview converts, not only range-for
// loops: iterator loops (a std::list's, a raw pointer's), index loops whose
// body subscripts one array of structs with the index (`<`, `<=`, `!=`,
// an offset `i - first`, 1-based), a neighbour-list loop (`ps[list[k]]`),
// and symmetric pair nests (`j = i + 1`, `std::next(it)`), with no
// attribute written. Loops whose target cannot be inferred (two arrays of
// structs, none) are not annotated; a loop of another form (`i += 2`)
// keeps its code with a remark. Bit for bit against the plain build.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 13 --out %t \
// RUN:   --soaview-flags="-fplugin-arg-soaview-annotate=all" \
// RUN:   --run "1 300" --run "7 41" --run "3 2" %s | FileCheck %s
// CHECK: all runs identical
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <list>
#include <vector>

struct P {
  double x, v, f, m;
  int id;
};
struct Q {
  double a, b;
};

static double rnd() { return std::rand() / (double)RAND_MAX; }

static void init(P *ps, int n) {
  for (int i = 0; i < n; ++i) { // index loop, target ps
    ps[i].x = rnd();
    ps[i].v = rnd() - 0.5;
    ps[i].f = 0;
    ps[i].m = 1 + rnd();
    ps[i].id = i;
  }
}

static void kickList(std::list<P *> &ls, double dt) {
  for (auto it = ls.begin(); it != ls.end(); ++it) // iterator loop
    (*it)->v += dt * (*it)->f / (*it)->m;
}

static void driftRaw(P *begin, P *end, double dt) {
  for (P *p = begin; p != end; ++p) // a pointer stepped as an iterator
    p->x += dt * p->v;
}

static void inclusive(std::vector<P> &ps, int first, int last) {
  for (int i = first; i <= last; i++) // `<=` with an offset
    ps[i - first].m *= 1.0 + 1e-3 * ps[i - first].x;
}

static void oneBased(std::vector<P> &ps) {
  for (size_t i = 1; i != ps.size() + 1; i += 1) // 1-based, `!=`
    ps[i - 1].f -= 0.5 * ps[i - 1].v;
}

static void neighbours(std::vector<P> &ps, const std::vector<int> &list,
                       double xi) {
  for (size_t k = 0; k < list.size(); ++k) // through a neighbour list
    ps[list[k]].f += xi - ps[list[k]].x;
}

static void pairs(std::vector<P> &ps) {
  for (size_t i = 0; i < ps.size(); ++i) // symmetric index pair nest
    for (size_t j = i + 1; j < ps.size(); ++j) {
      double d = ps[i].x - ps[j].x + 0.125;
      double g = d / (d * d + 0.1);
      ps[i].f += g * ps[j].m;
      ps[j].f -= g * ps[i].m;
    }
}

static void pairIterators(std::vector<P> &ps) {
  for (auto it = ps.begin(); it != ps.end(); ++it) // symmetric iterator nest
    for (auto jt = std::next(it); jt != ps.end(); ++jt) {
      double d = it->v - jt->v;
      it->f += 0.01 * d;
      jt->f -= 0.01 * d;
    }
}

static void twoArrays(std::vector<P> &ps, std::vector<Q> &qs) {
  for (size_t i = 0; i < ps.size(); ++i) // two arrays: not annotated
    qs[i].a = ps[i].x + qs[i].b;
}

int main(int argc, char **argv) {
  std::srand(argc > 1 ? std::atoi(argv[1]) : 1);
  int n = argc > 2 ? std::atoi(argv[2]) : 100;
  std::vector<P> ps(n);
  init(ps.data(), n);
  std::list<P *> ls;
  for (int i = 0; i < n; i += 2) // left as written: steps by 2
    ls.push_back(&ps[(i * 5) % n]);
  std::vector<int> list;
  for (int k = 0; k < n / 3; ++k)
    list.push_back(std::rand() % n);
  std::vector<Q> qs(n);
  for (size_t i = 0; i < qs.size(); ++i) // index loop, target qs
    qs[i].b = rnd();
  for (int step = 0; step < 3; ++step) {
    pairs(ps);
    pairIterators(ps);
    neighbours(ps, list, 0.5);
    kickList(ls, 0.01);
    driftRaw(ps.data(), ps.data() + n, 0.01);
    inclusive(ps, 3, n + 2);
    oneBased(ps);
    twoArrays(ps, qs);
  }
  double e = 0, s = 0;
  for (const P &p : ps) // range-for, a reduction
    e += p.m * p.v * p.v + p.f;
  for (const Q &q : qs)
    s += q.a;
  std::printf("%a %a %a %a\n", e, s, ps[n / 2].x, ps[n - 1].f);
}
