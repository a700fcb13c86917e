// An `i != n` index loop that starts past n runs, as written, until its
// index wraps around (out of its array long before): the converted program
// stops at the loop with a message instead (soaview::index_trips). The same
// loop starting at or before n runs n - lo iterations, as written.
// RUN: %soaviewxx -O1 %s -o %t
// RUN: %t 2 | FileCheck %s --check-prefix=RUNS
// RUN: not --crash %t 9 2>&1 | FileCheck %s
// RUNS: sum 5
// CHECK: soaview: the index loop at {{.*}}index-past-bound.cpp:20:3 starts past its bound: as written it would run until its index wraps around
#include <cstdio>
#include <cstdlib>

struct Body {
  double x, v;
};

double sum(Body *b, unsigned lo, unsigned n) {
  double s = 0;
  [[clang::soa_conversion_target("b")]]
  for (unsigned i = lo; i != n; ++i)
    s += b[i].x;
  return s;
}

int main(int argc, char **argv) {
  Body b[8];
  for (int k = 0; k < 8; ++k)
    b[k] = {(double)k, 0};
  std::printf("sum %g\n", sum(b, (unsigned)std::atoi(argv[1]), 4));
}
