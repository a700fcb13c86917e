// Symmetric pair loops (Newton's third law): an inner loop that starts
// after the outer element, over the same target or range, walks the outer
// loop's view; writes through either element land in one slot. Index
// loops (`<`, `<=` from i + 2, `!=`, `!=` around `<` and back, 1-based
// offsets) and iterator loops
// (std::next(it) over a vector and a list, it + 1 over a deque), on runs
// of 0, 1, 2 and more elements; bounds that ask the container (`j <
// ps.size()`).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 18 --out %t \
// RUN:   --run "1 40" --run "2 2" --run "3 1" --run "4 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <deque>
#include <iterator>
#include <list>
#include <vector>

struct Atom {
  double x, y, fx, fy, m, pot;
};

static double pairForce(const Atom &a, const Atom &b, double &dx, double &dy) {
  dx = a.x - b.x;
  dy = a.y - b.y;
  double r2 = dx * dx + dy * dy + 1e-3;
  return a.m * b.m / (r2 * r2);
}

void forcesBelow(std::vector<Atom> &ps) {
  const std::size_t n = ps.size();
  [[clang::soa_conversion_target("ps")]]
  for (std::size_t i = 0; i < n; ++i) {
    ps[i].pot *= 0.5;
    [[clang::soa_conversion_target("ps")]]
    for (std::size_t j = i + 1; j < n; ++j) {
      double dx, dy;
      double f = pairForce(ps[i], ps[j], dx, dy);
      ps[i].fx += f * dx;
      ps[i].fy += f * dy;
      ps[j].fx -= f * dx;
      ps[j].fy -= f * dy;
      if (f > 1.0)
        ps[j].pot += f, ps[i].pot -= 0.25 * f;
    }
  }
}

// The MD idiom: both bounds ask the container (the inner one in the outer
// body, where it names the array through the alias of other uses).
void forcesSized(std::vector<Atom> &ps) {
  [[clang::soa_conversion_target("ps")]]
  for (std::size_t i = 0; i < ps.size(); ++i)
    [[clang::soa_conversion_target("ps")]]
    for (std::size_t j = i + 1; j < ps.size(); ++j) {
      double dx, dy;
      double f = pairForce(ps[i], ps[j], dx, dy);
      ps[i].fy += f * dx;
      ps[j].fy -= f * dy;
    }
}

void forcesUpToSkipOne(Atom *ps, int last) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i <= last; i++)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 2; j <= last; j++) {
      double d = ps[j].x - ps[i].x;
      ps[i].fx += d * ps[j].m;
      ps[j].fx -= d * ps[i].m;
    }
}

void oneBasedUntil(Atom *A, unsigned n) {
  [[clang::soa_conversion_target("A")]]
  for (unsigned i = 1; i != n + 1; i += 1)
    [[clang::soa_conversion_target("A")]]
    for (unsigned j = i + 1; j != n + 1; ++j) {
      double d = A[i - 1].y - A[j - 1].y;
      A[i - 1].fy += d;
      A[j - 1].fy = A[j - 1].fy * 0.5 - d;
    }
}

// `!=` outside and `<` inside (and the other way round) stop at one
// element: the outer range is counted from lo <= n.
void forcesMixed(std::vector<Atom> &ps, int n) {
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i != n; ++i)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 3; j < n; ++j) {
      double d = ps[i].x - ps[j].x;
      ps[i].pot += d * ps[j].m;
      ps[j].pot -= d * ps[i].m;
    }
  [[clang::soa_conversion_target("ps")]]
  for (int i = 0; i < n; i++)
    [[clang::soa_conversion_target("ps")]]
    for (int j = i + 1; j != n; j++)
      ps[j].fx += ps[i].y * 1e-2;
}

void iteratorVector(std::vector<Atom> &c) {
  [[clang::soa_conversion]]
  for (auto it = c.begin(); it != c.end(); ++it)
    [[clang::soa_conversion]]
    for (auto jt = std::next(it); jt != c.end(); ++jt) {
      double dx, dy;
      double f = pairForce(*it, *jt, dx, dy);
      it->fx += f * dx;
      jt->fx -= f * dx;
      (*jt).pot += it->pot * 1e-3;
    }
}

void iteratorList(std::list<Atom> &c) {
  [[clang::soa_conversion]]
  for (auto it = c.begin(); it != c.end(); it++)
    [[clang::soa_conversion]]
    for (auto jt = std::next(it); jt != c.end(); jt++) {
      double d = jt->y - it->y;
      it->fy += d * jt->m;
      jt->fy -= d * it->m;
    }
}

void iteratorDeque(std::deque<Atom> &c) {
  [[clang::soa_conversion]]
  for (auto it = c.begin(); it != c.end(); ++it)
    [[clang::soa_conversion]]
    for (auto jt = it + 1; jt != c.end(); ++jt) {
      it->pot += jt->m;
      jt->pot += it->m;
    }
}

static Atom randomAtom() {
  return {corpus::uniform(), corpus::uniform(), 0, 0, corpus::uniform(), 1};
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<Atom> v(n);
  for (Atom &a : v)
    a = randomAtom();
  for (int s = 0; s < 2; ++s)
    forcesBelow(v);
  forcesSized(v);
  forcesUpToSkipOne(v.data(), n - 1);
  forcesMixed(v, n);
  oneBasedUntil(v.data(), (unsigned)n);
  iteratorVector(v);
  std::list<Atom> l;
  std::deque<Atom> d;
  for (int k = 0; k < n; ++k)
    l.push_back(randomAtom()), d.push_back(randomAtom());
  iteratorList(l);
  iteratorDeque(d);
  corpus::print("n", n);
  for (const Atom &a : v)
    corpus::print("fx", a.fx), corpus::print("fy", a.fy),
        corpus::print("pot", a.pot);
  for (const Atom &a : l)
    corpus::print("lfy", a.fy);
  for (const Atom &a : d)
    corpus::print("dpot", a.pot);
}
