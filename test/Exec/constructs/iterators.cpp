// Iterator loops convert as the range [begin, end) they walk: `*it` and
// `it->` over std::vector<T>, std::vector<T*> (with repeated pointers),
// std::deque, std::list, const_iterator and cbegin, std::begin/std::end,
// `it++`, an end written first, a raw pointer, a user-written iterator, and
// in templates: a dependent range and one known in the pattern.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 10 --out %t \
// RUN:   --run "1 40" --run "2 7" --run "3 1" --run "4 0" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <deque>
#include <iterator>
#include <list>
#include <vector>

struct Body {
  double x, v, m;
  int id;
};

/// A user-written container and iterator over every other body.
struct Strided {
  Body *first;
  int n;
  struct iterator {
    Body *p;
    Body &operator*() const { return *p; }
    Body *operator->() const { return p; }
    iterator &operator++() {
      p += 2;
      return *this;
    }
    bool operator!=(const iterator &o) const { return p != o.p; }
  };
  iterator begin() const { return {first}; }
  iterator end() const { return {first + 2 * n}; }
};

void kick(std::vector<Body> &bs, double dt) {
  [[clang::soa_conversion]]
  for (auto it = bs.begin(); it != bs.end(); ++it)
    it->v += dt * (*it).m;
}

void drift(std::vector<Body *> &ps, double dt) {
  [[clang::soa_conversion]]
  for (std::vector<Body *>::iterator it = ps.begin(); it != ps.end(); it++) {
    Body *b = *it;
    b->x += dt * b->v; // repeated pointers: later iterations see the writes
    (*it)->m += 0.125;
  }
}

double total(const std::deque<Body> &d) {
  double s = 0;
  [[clang::soa_conversion]]
  for (std::deque<Body>::const_iterator it = d.begin(); it != d.end(); ++it)
    s += it->x * it->m;
  return s;
}

void damp(std::list<Body> &l) {
  [[clang::soa_conversion]]
  for (auto it = l.begin(); l.end() != it; ++it)
    if (it->id % 2)
      it->v *= 0.5;
}

double sumPointers(std::list<Body *> &l) {
  double s = 0;
  [[clang::soa_conversion]]
  for (auto it = l.cbegin(); it != l.cend(); ++it)
    s += (*it)->v;
  return s;
}

void shift(std::vector<Body> &bs) {
  [[clang::soa_conversion]]
  for (auto it = std::begin(bs); it != std::end(bs); ++it) {
    Body &b = *it;
    b.x -= b.m;
  }
}

void scale(Body *a, int n) {
  [[clang::soa_conversion]]
  for (Body *p = a; p != a + n; ++p)
    p->m *= 1.5;
}

void every(const Strided &s) {
  [[clang::soa_conversion]]
  for (auto it = s.begin(); it != s.end(); ++it)
    it->x += it->v * (*it).m;
}

template <class T> void push(std::vector<T> &v, double f) {
  [[clang::soa_conversion]]
  for (auto it = v.begin(); it != v.end(); ++it)
    it->v += f * it->x;
}

template <class Tag> struct Holder {
  std::vector<Body> bodies;
  double sum() {
    double s = 0;
    [[clang::soa_conversion]]
    for (auto it = bodies.cbegin(); it != bodies.cend(); ++it)
      s += it->m;
    return s;
  }
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<Body> store(n + 1);
  for (Body &b : store)
    b = {corpus::uniform(), corpus::uniform(), corpus::uniform(),
         (int)(corpus::uniform() * 100)};
  kick(store, 0.25);
  std::vector<Body *> ptrs;
  for (int i = 0; i < n; ++i)
    ptrs.push_back(&store[(i * 7) % (n + 1)]);
  if (n > 2)
    ptrs.push_back(ptrs[1]);
  drift(ptrs, 0.5);
  std::deque<Body> d(store.begin(), store.end());
  corpus::print("total", total(d));
  std::list<Body> l(store.begin(), store.end());
  damp(l);
  std::list<Body *> lp(ptrs.begin(), ptrs.end());
  corpus::print("sum", sumPointers(lp));
  shift(store);
  scale(store.data(), n);
  every(Strided{store.data(), n / 2});
  push(store, 0.75);
  Holder<int> h{store};
  corpus::print("held", h.sum());
  for (const Body &b : store) {
    corpus::print("x", b.x);
    corpus::print("v", b.v);
    corpus::print("m", b.m);
  }
  for (const Body &b : l)
    corpus::print("lv", b.v);
}
