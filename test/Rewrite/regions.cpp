// A view region opens on the attribute's line and closes after its
// statement. The annotated loops it reaches keep their rules; where one runs
// as written (the profitability rule, the size gate, another dynamic type)
// the region's views are written back first (::soaview::region_sync()), so
// that it sees the elements as the program would.
// RUN: env -u SOAVIEW_CONVERT %soaview_dump -fopenmp %s | %nochecks | FileCheck %s
// Outside a region the loops are as before.
// RUN: env -u SOAVIEW_CONVERT %soaview_dump -fopenmp -DNO_REGION %s | %nochecks | FileCheck %s --check-prefix=PLAIN
// A host compile has no sweeps on a device: nothing to write back.
// RUN: env -u SOAVIEW_CONVERT %soaview_dump %s | %nochecks | FileCheck %s --check-prefix=HOST
#include <vector>
struct P {
  double x, rho;
};
struct Cell {
  std::vector<P *> local, active;
};
struct Pairwise {
  virtual void apply(P *p, const P *q) const { p->rho += q->x; }
};

void sweep(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local)
      p->rho += p->x;
  }
}

// CHECK-LABEL: void kick(Cell &c) {
// CHECK-NEXT: { ::soaview::region_sync(); /* soaview: the loop runs as written: a view region's views, written back first */ {{\[\[clang::soa_conversion\]\]}}
// CHECK-NEXT: for (P *p : c.local)
// CHECK-NEXT: p->x += 1; }
// PLAIN-LABEL: void kick(Cell &c) {
// PLAIN-NEXT: {{^ *\[\[clang::soa_conversion\]\]}}
// HOST-LABEL: void kick(Cell &c) {
// HOST-NEXT: {{^ *\[\[clang::soa_conversion\]\]}}
void kick(Cell &c) {
  [[clang::soa_conversion]]
  for (P *p : c.local)
    p->x += 1;
}

// CHECK-LABEL: void pairs(Cell &c) {
// CHECK-NEXT: if (!(::soaview::pays_off(::soaview::range_size(c.local), ::soaview::range_size(c.active)))) { // soaview: the loop as written, for ranges too small to pay for the views
// CHECK-NEXT: ::soaview::region_sync(); // soaview: a view region's views, written back
// PLAIN-LABEL: void pairs(Cell &c) {
// PLAIN-NEXT: if (!(::soaview::pays_off(
// PLAIN-NEXT: #line
// HOST-LABEL: void pairs(Cell &c) {
// HOST-NEXT: if (!(::soaview::pays_off(
// HOST-NEXT: #line
void pairs(Cell &c) {
  [[clang::soa_conversion]]
  for (P *p : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *q : c.active)
      p->rho += q->x;
  }
}

// CHECK-LABEL: void functor(Cell &c, const Pairwise &f) {
// CHECK-NEXT: if (!(::soaview::exact_type(f) && ::soaview::pays_off({{.*}}))) { // soaview: the loop as written
// CHECK-NEXT: ::soaview::region_sync(); // soaview: a view region's views, written back
// PLAIN-LABEL: void functor(Cell &c, const Pairwise &f) {
// PLAIN-NEXT: if (!(::soaview::exact_type(f) && ::soaview::pays_off(
// PLAIN-NEXT: #line
void functor(Cell &c, const Pairwise &f) {
  [[clang::soa_conversion]]
  for (P *p : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *q : c.active)
      f.apply(p, q);
  }
}

// CHECK-LABEL: void step(
// CHECK: { static ::soaview::site [[R:sv[0-9]+_[0-9]+_region]]_site("regions.cpp:[[#@LINE+10]]:3"); ::soaview::region [[R]]([[R]]_site); /* soaview: view region, 4 annotated loop(s) share their views */
// CHECK: for (int s = 0; s < n; ++s) {
// CHECK: } }
// CHECK-NEXT: }
// HOST-LABEL: void step(
// HOST: ::soaview::region
void step(std::vector<Cell> &cells, const Pairwise &f, int n) {
#ifndef NO_REGION
  [[clang::soa_conversion_region]]
#endif
  for (int s = 0; s < n; ++s) {
    sweep(cells);
    for (Cell &c : cells) {
      kick(c);
      pairs(c);
      functor(c, f);
    }
  }
}
