// The size gate under the default rule: a pair nest whose inner view is
// hoisted runs converted when its ranges give at least 48 pairs per element
// gathered (::soaview::pays_off), as written otherwise; and of the calls
// that pass, the first six alternate between the two versions, timed, and
// the later ones run the faster (::soaview::gate). Every version gives the
// plain build's bits; SOAVIEW_STATS shows which ran (a converted nest's
// frames are sites in the statistics). Arguments: seed, local count, active
// count, calls of density (2).
// 96 x 96 gives 9216 pairs for 192 elements, exactly 48 each: converted;
// 95 x 96 gives 47.75: as written.
// RUN: env -u SOAVIEW_CONVERT %compare --plain %clangxx --soaview %soaviewxx --views 4 --out %t \
// RUN:   --run "1 4 9" --run "2 95 96" --run "3 96 96" --run "4 150 700" --run "5 100 300 9" %s | FileCheck %s
// CHECK: all runs identical
// The size rule alone (SOAVIEW_TRIALS=0: no measuring).
// RUN: env SOAVIEW_TRIALS=0 SOAVIEW_STATS=1 %t/size-gate.soaview 2 95 96 2>&1 >/dev/null | FileCheck %s --check-prefix=WRITTEN
// WRITTEN-NOT: size-gate.cpp:{{[0-9]+}}:{{[0-9]+}} host
// RUN: env SOAVIEW_TRIALS=0 SOAVIEW_STATS=1 %t/size-gate.soaview 3 96 96 2>&1 >/dev/null | FileCheck %s --check-prefix=CONVERTED --implicit-check-not="ns per pair"
// CONVERTED-DAG: size-gate.cpp:[[@LINE+27]]:3 host 2{{ }}
// CONVERTED-DAG: size-gate.cpp:[[@LINE+28]]:5 host 2{{ }}
// CONVERTED-DAG: size-gate.cpp:[[@LINE+40]]:5 host 1{{ }}
// CONVERTED-DAG: size-gate.cpp:[[@LINE+41]]:7 host 1{{ }}
// Measured: of two calls, the first runs converted and the second as
// written; of nine, six are trials (three converted) and the gate reports
// its choice, after which the three others run the version it chose.
// RUN: env SOAVIEW_STATS=1 %t/size-gate.soaview 3 96 96 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO --implicit-check-not="ns per pair"
// TWO: size-gate.cpp:[[@LINE+19]]:3 host 1{{ }}
// RUN: env SOAVIEW_STATS=1 %t/size-gate.soaview 5 100 300 9 2>&1 >/dev/null | FileCheck %s --check-prefix=NINE
// NINE-DAG: size-gate.cpp:[[@LINE+17]]:3 host {{3|6}}{{ }}
// NINE-DAG: size-gate.cpp:[[@LINE+16]]:3: ns per pair, fastest of 3 calls: converted {{[0-9.]+}}, as written {{[0-9.]+}}: runs {{converted|as written}}
#include "common.h"
#include <cstdlib>
#include <vector>

struct Part {
  double x[2], m, rho, f[2];
};

struct Cell {
  std::vector<Part *> local, active;
};

// SWIFT's shape: local x active, the active view built once.
void density(Cell &c, double h) {
  [[clang::soa_conversion]]
  for (Part *pi : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const Part *pj : c.active) {
      const double dx = pi->x[0] - pj->x[0], dy = pi->x[1] - pj->x[1];
      const double r2 = dx * dx + dy * dy;
      if (r2 < h * h)
        pi->rho += pj->m * (h * h - r2);
    }
  }
}

struct Sweep {
  std::vector<Part *> local, active;
  void force() {
    [[clang::soa_conversion]]
    for (Part *pi : local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const Part *pj : this->active) {
        if (pi == pj)
          continue;
        const double w = pj->m / (1.0 + pj->rho);
        pi->f[0] += w * (pi->x[0] - pj->x[0]);
        pi->f[1] += w * (pi->x[1] - pj->x[1]);
      }
    }
  }
};

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  const int nl = argc > 2 ? std::atoi(argv[2]) : 4;
  const int na = argc > 3 ? std::atoi(argv[3]) : 9;
  std::vector<Part> ps(na);
  for (Part &p : ps)
    p = {{corpus::uniform(), corpus::uniform()}, 0.5 + corpus::uniform(), 0, {0, 0}};
  Cell c;
  for (int k = 0; k < na; ++k) {
    c.active.push_back(&ps[(k * 7) % na]); // shuffled; repeats if 7 | na
    if (k < nl)
      c.local.push_back(&ps[k]);
  }
  const int calls = argc > 4 ? std::atoi(argv[4]) : 2;
  for (int k = 0; k < calls; ++k)
    density(c, k % 2 ? 0.2 : 0.3);
  Sweep s{c.local, c.active};
  s.force();
  for (const Part &p : ps) {
    corpus::print("rho", p.rho);
    corpus::print("f0", p.f[0]);
    corpus::print("f1", p.f[1]);
  }
}

// Every gated nest is listed with its calls, also when none ran converted
// (density at column 3, the sweep's force at column 5).
// WRITTEN-DAG: size-gate.cpp:{{[0-9]+}}:3: gated nest, 2 call(s): 0 converted, 2 as written (2 below the size rule: 48 pairs per element gathered, a square nest from 96 x 96); not measured (SOAVIEW_TRIALS=0)
// WRITTEN-DAG: size-gate.cpp:{{[0-9]+}}:5: gated nest, 1 call(s): 0 converted, 1 as written (1 below the size rule
// NINE-DAG: size-gate.cpp:{{[0-9]+}}:3: gated nest, 9 call(s): {{3|6}} converted, {{3|6}} as written (0 below the size rule
// NINE-DAG: size-gate.cpp:{{[0-9]+}}:5: gated nest, 1 call(s): 1 converted, 0 as written (0 below the size rule: 48 pairs per element gathered, a square nest from 96 x 96); still measuring
// After 256 measured calls a second round of trials chooses for good: of
// 300 calls, 12 are trials (six of each version) and the gate reports the
// second round's choice.
// RUN: env SOAVIEW_STATS=1 %t/size-gate.soaview 5 100 300 300 2>&1 >/dev/null | FileCheck %s --check-prefix=RECHECK
// RECHECK-DAG: size-gate.cpp:45:3: gated nest, 300 call(s): {{[0-9]+}} converted, {{[0-9]+}} as written (0 below the size rule
// RECHECK-DAG: size-gate.cpp:45:3: ns per pair, fastest of 3 calls after 256 calls: converted {{[0-9.]+}}, as written {{[0-9.]+}}: runs {{converted|as written}}
