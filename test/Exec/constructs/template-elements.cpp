// The element is a specialization of a class template whose argument lives
// in another namespace (`lib::Cluster<app::Part>`), its methods name the
// class by its injected name (`std::vector<Cluster *> *`), and the loop is in a member of
// another class template: the view spells every type from its own scope.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 1 --out %t \
// RUN:   --run "1 30" --run "4 9" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <vector>

namespace app {
struct Part {
  double r;
};
} // namespace app
namespace lib {
template <class T> struct Cluster {
  T first;
  double load;
  std::vector<Cluster *> *nb;
  std::vector<Cluster *> *neighbours() const { return nb; }
};
template <class T> struct Container {
  std::vector<Cluster<T> *> clusters;
  double step() {
    double sum = 0;
    [[clang::soa_conversion("always")]]
    for (Cluster<T> *c : clusters) {
      if (c->neighbours())
        c->load += 0.5 * c->first.r * double(c->neighbours()->size());
      sum += c->load;
    }
    return sum;
  }
};
} // namespace lib

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 30);
  std::vector<lib::Cluster<app::Part>> store(n);
  std::vector<lib::Cluster<app::Part> *> some;
  lib::Container<app::Part> box;
  for (int k = 0; k < n; ++k) {
    store[k] = {{corpus::uniform()}, corpus::uniform(), nullptr};
    store[k].nb = k % 3 ? &some : nullptr;
    box.clusters.push_back(&store[k]);
    if (k % 2)
      some.push_back(&store[k]);
  }
  corpus::print("sum", box.step());
  for (const auto &c : store)
    corpus::print("load", c.load);
}
