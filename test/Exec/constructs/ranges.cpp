// Ranges as a range-for statement takes them, through the runtime's own
// begin/end/size (soaview/frame.h parses neither <iterator> nor <memory>):
// a range with only free begin/end found by argument-dependent lookup and
// no size(), one whose members win over free functions of its namespace,
// a forward_list (no size()), and an array of pointers.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 40" --run "2 7" --run "3 1" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <forward_list>
#include <vector>

struct Body {
  double x, v, m;
};

namespace adl {
/// Only free begin/end: a range-for finds them by argument-dependent lookup.
struct Bodies {
  Body **first;
  int n;
};
Body **begin(const Bodies &b) { return b.first; }
Body **end(const Bodies &b) { return b.first + b.n; }

/// Members win over free functions: these would visit nothing.
struct Members {
  Body **first;
  int n;
  Body **begin() const { return first; }
  Body **end() const { return first + n; }
};
Body **begin(const Members &m) { return m.first; }
Body **end(const Members &m) { return m.first; }
} // namespace adl

void kick(adl::Bodies bs, double dt) {
  [[clang::soa_conversion("always")]]
  for (Body *b : bs)
    b->v += dt * b->m;
}

void drift(const adl::Members &ms, double dt) {
  [[clang::soa_conversion("always")]]
  for (Body *b : ms)
    b->x += dt * b->v;
}

void damp(std::forward_list<Body *> &fl) {
  [[clang::soa_conversion("always")]]
  for (Body *b : fl)
    b->v *= 0.5 + b->m;
}

void shift(Body *(&arr)[5]) {
  [[clang::soa_conversion("always")]]
  for (Body *b : arr)
    b->x -= b->m;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 40);
  std::vector<Body> store(n + 5);
  for (Body &b : store)
    b = {corpus::uniform(), corpus::uniform(), corpus::uniform()};
  std::vector<Body *> ptrs;
  for (int i = 0; i < n; ++i)
    ptrs.push_back(&store[(i * 7) % n]);
  kick(adl::Bodies{ptrs.data(), n}, 0.25);
  drift(adl::Members{ptrs.data(), n}, 0.5);
  std::forward_list<Body *> fl(ptrs.rbegin(), ptrs.rend());
  damp(fl);
  Body *arr[5] = {&store[n], &store[n + 1], &store[n + 2], &store[n + 1],
                  &store[n + 4]};
  shift(arr);
  for (const Body &b : store) {
    corpus::print("x", b.x);
    corpus::print("v", b.v);
  }
}
