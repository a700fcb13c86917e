// The size gate of symmetric pair nests: the inner loop walks the outer
// loop's view, so a call gathers the n elements once for about n * n / 2
// pairs. Under the default rule such a nest runs converted only from 96
// elements (::soaview::pays_off(n, n)) and, of the calls that pass, once its
// first calls measured it faster (::soaview::gate); as written otherwise.
// An iterator pair nest over pointers (its container's size) and an index
// pair nest `j = i + 1; j < n` over structs (its trip count). Before, both
// always ran converted, slower than written below a few thousand elements
// (docs/benchmarks.md, "Symmetric pair nests over pointers"). Every
// version gives the plain build's bits. Arguments: seed, n, calls.
// RUN: env -u SOAVIEW_CONVERT %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 7" --run "2 95" --run "3 96" --run "4 200 9" %s | FileCheck %s
// CHECK: all runs identical
// The size rule alone (SOAVIEW_TRIALS=0): 95 elements as written, 96
// converted.
// RUN: env SOAVIEW_TRIALS=0 SOAVIEW_STATS=1 %t/size-gate-pairs.soaview 2 95 2>&1 >/dev/null | FileCheck %s --check-prefix=WRITTEN
// WRITTEN-NOT: size-gate-pairs.cpp:{{[0-9]+}}:{{[0-9]+}} host
// WRITTEN-DAG: size-gate-pairs.cpp:{{[0-9]+}}:3: gated nest, 2 call(s): 0 converted, 2 as written (2 below the size rule
// WRITTEN-DAG: size-gate-pairs.cpp:{{[0-9]+}}:3: gated nest, 2 call(s): 0 converted, 2 as written (2 below the size rule
// RUN: env SOAVIEW_TRIALS=0 SOAVIEW_STATS=1 %t/size-gate-pairs.soaview 3 96 2>&1 >/dev/null | FileCheck %s --check-prefix=CONVERTED
// CONVERTED-DAG: size-gate-pairs.cpp:{{[0-9]+}}:3: gated nest, 2 call(s): 2 converted, 0 as written (0 below the size rule
// CONVERTED-DAG: size-gate-pairs.cpp:[[@LINE+17]]:3 host 2{{ }}
// CONVERTED-DAG: size-gate-pairs.cpp:[[@LINE+30]]:3 host 2{{ }}
// Measured: of nine calls six are trials, then the faster version runs.
// RUN: env SOAVIEW_STATS=1 %t/size-gate-pairs.soaview 4 200 9 2>&1 >/dev/null | FileCheck %s --check-prefix=NINE
// NINE-DAG: size-gate-pairs.cpp:[[@LINE+13]]:3: ns per pair, fastest of 3 calls: converted {{[0-9.]+}}, as written {{[0-9.]+}}: runs {{converted|as written}}
// NINE-DAG: size-gate-pairs.cpp:[[@LINE+26]]:3: ns per pair, fastest of 3 calls: converted {{[0-9.]+}}, as written {{[0-9.]+}}: runs {{converted|as written}}
#include "common.h"
#include <cstdlib>
#include <iterator>
#include <vector>

struct Atom {
  double x, y, fx, fy, admin[6];
};

void pointers(std::vector<Atom *> &atoms) {
  [[clang::soa_conversion]]
  for (auto it = atoms.begin(); it != atoms.end(); ++it)
    [[clang::soa_conversion]]
    for (auto jt = std::next(it); jt != atoms.end(); ++jt) {
      const double dx = (*it)->x - (*jt)->x, dy = (*it)->y - (*jt)->y;
      const double r2 = dx * dx + dy * dy + 0.01;
      if (r2 < 0.25) {
        (*it)->fx += dx / r2, (*it)->fy += dy / r2;
        (*jt)->fx -= dx / r2, (*jt)->fy -= dy / r2;
      }
    }
}

void index(Atom *as, int n) {
  [[clang::soa_conversion, clang::soa_conversion_target("as")]]
  for (int i = 0; i < n; ++i)
    [[clang::soa_conversion, clang::soa_conversion_target("as")]]
    for (int j = i + 1; j < n; ++j) {
      const double d = as[i].x - as[j].x;
      as[i].fy += d * as[j].y;
      as[j].fy -= d * as[i].y;
    }
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  const int n = corpus::count(argc, argv, 7);
  std::vector<Atom> as(n);
  for (Atom &a : as)
    a = {corpus::uniform(), corpus::uniform(), 0, 0, {0, 0, 0, 0, 0, 0}};
  std::vector<Atom *> ptrs;
  for (int k = 0; k < n; ++k)
    ptrs.push_back(&as[(k * 5) % n]); // shuffled; repeats if 5 | n
  const int calls = argc > 3 ? std::atoi(argv[3]) : 2;
  for (int k = 0; k < calls; ++k) {
    pointers(ptrs);
    index(as.data(), n);
  }
  for (const Atom &a : as) {
    corpus::print("fx", a.fx);
    corpus::print("fy", a.fy);
  }
}
