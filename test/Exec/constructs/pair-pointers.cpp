// Symmetric pair loops over containers of pointers (issue #50): the inner
// iterator loop walks the outer loop's frame, as over objects, when the
// range holds every object once. An object held twice would have two live
// views in one pair, and a write through one would be lost to the other:
// the frame finds the repeat while it gathers, writes nothing back, and
// the nest runs as written. Runs with and without repeats (the third
// argument repeats that many objects), over a vector and a list; a pair
// nest that only reads converts without the check (its views agree). A
// user's container class whose begin() and end() only give access converts.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 8 --out %t \
// RUN:   --run "1 30 0" --run "2 30 4" --run "3 1 0" --run "4 0 0" \
// RUN:   --run "5 5 5" --run "6 2 1" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <iterator>
#include <list>
#include <vector>
#include <utility>

struct Body {
  double x, v, f, pot;
};

// Newton's third law: both objects of a pair written.
void forces(std::vector<Body *> &ps) {
  [[clang::soa_conversion]]
  for (auto it = ps.begin(); it != ps.end(); ++it)
    [[clang::soa_conversion]]
    for (auto jt = std::next(it); jt != ps.end(); ++jt) {
      double d = (*it)->x - (*jt)->x + 0.25;
      double g = d / (d * d + 0.1);
      (*it)->f += g;
      (*jt)->f -= 0.5 * g;
    }
}

void potentials(std::list<Body *> &ps) {
  [[clang::soa_conversion]]
  for (auto it = ps.begin(); it != ps.end(); ++it)
    [[clang::soa_conversion]]
    for (auto jt = std::next(it); jt != ps.end(); ++jt) {
      (*it)->pot += (*jt)->v * (*it)->v;
      (*jt)->pot += (*it)->v;
    }
}

// A container class whose non-const begin() and end() only give access
// (MercuryDPM's handlers): the inner loop's `h.end()` does not change it.
class Handler {
  std::vector<Body *> objects_;

public:
  explicit Handler(std::vector<Body *> v) : objects_(std::move(v)) {}
  std::vector<Body *>::iterator begin() { return objects_.begin(); }
  std::vector<Body *>::iterator end() { return this->objects_.end(); }
};

void springs(Handler &h) {
  [[clang::soa_conversion]]
  for (auto it = h.begin(); it != h.end(); ++it)
    [[clang::soa_conversion]]
    for (auto jt = std::next(it); jt != h.end(); ++jt) {
      double d = (*it)->x - (*jt)->x;
      (*it)->v -= 0.01 * d;
      (*jt)->v += 0.01 * d;
    }
}

// Read only: views of one object agree, so repeats need no check.
double energy(const std::vector<Body *> &ps) {
  double e = 0;
  [[clang::soa_conversion("always")]]
  for (auto it = ps.cbegin(); it != ps.cend(); ++it)
    [[clang::soa_conversion("always")]]
    for (auto jt = std::next(it); jt != ps.cend(); ++jt)
      e += (*it)->x * (*jt)->v - (*jt)->f;
  return e;
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 30);
  int repeats = argc > 3 ? std::atoi(argv[3]) : 0;
  std::vector<Body> bodies(n);
  for (Body &b : bodies)
    b = {corpus::uniform(), corpus::uniform(), 0, 0};
  std::vector<Body *> ps;
  for (int k = 0; k < n; ++k)
    ps.push_back(&bodies[(k * 7) % n]);
  for (int k = 0; k < repeats && n > 0; ++k)
    ps.insert(ps.begin() + (k * 3) % (int)ps.size(), &bodies[(k * 5) % n]);
  std::list<Body *> listed(ps.rbegin(), ps.rend());
  forces(ps);
  potentials(listed);
  Handler h(ps);
  springs(h);
  corpus::print("n", n);
  corpus::print("e", energy(ps));
  for (const Body &b : bodies)
    corpus::print("f", b.f), corpus::print("pot", b.pot);
}
