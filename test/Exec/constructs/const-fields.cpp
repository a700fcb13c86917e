// Elements with const fields: a std::map's std::pair<const int, V> (ls1-mardyn's
// Leapfrog merges per-component counts that way) and a struct with a const
// id and a const array. The loop reads them through the view; the buffers
// that the gather fills hold them unqualified.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 2 --out %t \
// RUN:   --run "1 40" --run "5 3" %s | FileCheck %s
// CHECK: all runs identical
#include "common.h"
#include <map>
#include <vector>

struct Tagged {
  const int id;
  const double w[2];
  double acc;
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  int n = corpus::count(argc, argv, 20);
  std::map<int, unsigned long> local, global;
  for (int k = 0; k < n; ++k)
    local[int(corpus::uniform() * 16)] += 1 + k;
  unsigned long out[16] = {};
  [[clang::soa_conversion("always")]]
  for (auto &it : local)
    out[it.first] += it.second;
  std::vector<Tagged> ts;
  for (int k = 0; k < n; ++k)
    ts.push_back({k % 5, {corpus::uniform(), corpus::uniform()}, 0});
  [[clang::soa_conversion("always")]]
  for (Tagged &t : ts)
    t.acc += t.id * t.w[0] + t.w[1];
  for (unsigned long o : out)
    corpus::print("out", o);
  for (const Tagged &t : ts)
    corpus::print("acc", t.acc);
}
