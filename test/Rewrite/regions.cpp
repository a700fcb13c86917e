// A view region opens on the attribute's line and closes after its
// statement. The annotated loops it reaches keep their rules; where one runs
// as written (the profitability rule, the size gate, another dynamic type)
// the region's views are written back first (::soaview::region_sync()), so
// that it sees the elements as the program would.
// RUN: env -u SOAVIEW_CONVERT %soaview_dump %offload_syntax %s | %nochecks | FileCheck %s
// Outside a region the loops are as before.
// RUN: env -u SOAVIEW_CONVERT %soaview_dump %offload_syntax -DNO_REGION %s | %nochecks | FileCheck %s --check-prefix=PLAIN
// A compile without an offload target sweeps the region's sweeps on the
// host, one loop over all cells (in parallel with -fopenmp), keeping their
// views in host buffers: the rest is as with a device.
// RUN: env -u SOAVIEW_CONVERT %soaview_dump %s | %nochecks | FileCheck %s --check-prefixes=CHECK,HOST
// RUN: env -u SOAVIEW_CONVERT %soaview_dump -fopenmp %s | %nochecks | FileCheck %s --check-prefixes=CHECK,HOST,HOSTOMP
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

// HOST-LABEL: void sweep(std::vector<Cell> &cells) {
// HOST: ::soaview::host_sweep<{{.*}}> [[S:sv[0-9]+_[0-9]+_]]sweep([[S]]site);
// HOST: [[S]]sweep.start();
// HOSTOMP-NEXT: using
// HOSTOMP: #pragma omp parallel for schedule(dynamic, 64) firstprivate({{.*}}_buffers)
// HOST: for (std::size_t [[L:sv[0-9]+_[0-9]+_]]i = 0; [[L]]i < [[L]]n; ++[[L]]i)
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
void kick(Cell &c) {
  [[clang::soa_conversion]]
  for (P *p : c.local)
    p->x += 1;
}

// CHECK-LABEL: void pairs(Cell &c) {
// CHECK-NEXT: ::soaview::trial [[P:sv[0-9_]+]]trial({{.*}}, ::soaview::range_size(c.local), ::soaview::range_size(c.active));
// CHECK-NEXT: if (!([[P]]trial.converted())) { // soaview: the loop as written, for ranges too small to pay for the views, or measured faster
// CHECK-NEXT: ::soaview::region_sync(); // soaview: a view region's views, written back
// PLAIN-LABEL: void pairs(Cell &c) {
// PLAIN-NEXT: ::soaview::trial
// PLAIN-NEXT: if (!(sv{{[0-9_]+}}trial.converted())) {
// PLAIN-NEXT: #line
void pairs(Cell &c) {
  [[clang::soa_conversion]]
  for (P *p : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *q : c.active)
      p->rho += q->x;
  }
}

// CHECK-LABEL: void functor(Cell &c, const Pairwise &f) {
// CHECK-NEXT: ::soaview::trial [[P:sv[0-9_]+]]trial(
// CHECK-NEXT: if (!(::soaview::exact_type(f) && [[P]]trial.converted())) { // soaview: the loop as written
// CHECK-NEXT: ::soaview::region_sync(); // soaview: a view region's views, written back
// PLAIN-LABEL: void functor(Cell &c, const Pairwise &f) {
// PLAIN-NEXT: ::soaview::trial
// PLAIN-NEXT: if (!(::soaview::exact_type(f) && sv{{[0-9_]+}}trial.converted())) {
// PLAIN-NEXT: #line
void functor(Cell &c, const Pairwise &f) {
  [[clang::soa_conversion]]
  for (P *p : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *q : c.active)
      f.apply(p, q);
  }
}

// An inner loop over the cell's runs: on the host, a loop over the runs
// around a loop over each run's slots (the compiler vectorises it) ...
// HOST-LABEL: void sweepPairs(
// HOST: ::soaview::host_sweep<{{.*}}, {{.*}}> [[S:sv[0-9]+_[0-9]+_]]sweep([[S]]site);
// HOST: const std::size_t [[S]]cell = [[S]]index.cell_of[{{.*}}];
// HOST: for (std::size_t [[I:sv[0-9]+_[0-9]+_]]r = [[S]]index.run_off{{.*}}; [[I]]r < [[I]]rend; ++[[I]]r) for (std::size_t [[I]]k = [[S]]index.run_start{{.*}}; [[I]]k < [[I]]kend; ++[[I]]k) { auto [[I]]view = [[I]]spec::at([[I]]buffers, [[I]]k);
void sweepPairs(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active)
        p->rho += q->x;
    }
  }
}

// ... and through one cursor where a `break` needs one loop.
// HOST-LABEL: void sweepUntil(
// HOST: for (::soaview::run_cursor [[I:sv[0-9]+_[0-9]+_]]k({{.*}}); [[I]]k.more(); [[I]]k.next()) { auto [[I]]view = [[I]]spec::at([[I]]buffers, [[I]]k.index());
void sweepUntil(std::vector<Cell> &cells) {
  [[clang::soa_conversion_offload_compute]]
  for (Cell &c : cells) {
    [[clang::soa_conversion]]
    for (P *p : c.local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : c.active) {
        if (q->x > p->x)
          break;
        p->rho += q->x;
      }
    }
  }
}

// CHECK-LABEL: void step(
// CHECK: { static ::soaview::site [[R:sv[0-9]+_[0-9]+_region]]_site("regions.cpp:[[#@LINE+8]]:3"); ::soaview::region [[R]]([[R]]_site); /* soaview: view region, 6 annotated loop(s) share their views */
// CHECK: for (int s = 0; s < n; ++s) {
// CHECK: } }
// CHECK-NEXT: }
void step(std::vector<Cell> &cells, const Pairwise &f, int n) {
#ifndef NO_REGION
  [[clang::soa_conversion_region]]
#endif
  for (int s = 0; s < n; ++s) {
    sweep(cells);
    sweepPairs(cells);
    sweepUntil(cells);
    for (Cell &c : cells) {
      kick(c);
      pairs(c);
      functor(c, f);
    }
  }
}

// A region whose code writes no list where soaview cannot see it tells the
// runtime so (region_lists::kept: a sweep's later runs over lists where they
// were skip the element-by-element check); step's does not (a virtual call
// in an annotated loop), nor does one that writes bytes through a pointer.
// CHECK-LABEL: void stepKept(
// CHECK: ::soaview::region [[K:sv[0-9]+_[0-9]+_region]]([[K]]_site, ::soaview::region_lists::kept);
void stepKept(std::vector<Cell> &cells, int n) {
#ifndef NO_REGION
  [[clang::soa_conversion_region]]
#endif
  for (int s = 0; s < n; ++s) {
    sweep(cells);
    sweepPairs(cells);
  }
}

// CHECK-LABEL: void stepBytes(
// CHECK: ::soaview::region [[B:sv[0-9]+_[0-9]+_region]]([[B]]_site);
void stepBytes(std::vector<Cell> &cells, void *to, const void *from, int n) {
#ifndef NO_REGION
  [[clang::soa_conversion_region]]
#endif
  for (int s = 0; s < n; ++s) {
    sweep(cells);
    __builtin_memcpy(to, from, sizeof(P *));
  }
}

// In a region that writes no list, a sweep whose loop over the cells reads
// nothing but lists asks the runtime whether the cells it recorded at its
// last run stand (the same lists, no code run as outside the region since),
// and then skips that loop (plan/KeptCells.h); a loop over the cells that
// reads anything else records them at every run.
// CHECK-LABEL: void sweepIndexed(
// CHECK: if (!{{sv[0-9]+_[0-9]+_}}sweep.cells_kept({__builtin_addressof(locals), __builtin_addressof(actives)})) for (std::size_t c = 0; c < locals.size(); ++c) {
// PLAIN-LABEL: void sweepIndexed(
// PLAIN-NOT: cells_kept
void sweepIndexed(std::vector<std::vector<P *>> &locals,
                  std::vector<std::vector<P *>> &actives) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < locals.size(); ++c) {
    [[clang::soa_conversion]]
    for (P *p : locals[c]) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *q : actives[c])
        p->rho += q->x;
    }
  }
}

// CHECK-LABEL: void sweepOrdered(
// CHECK-NOT: cells_kept
// CHECK: sweep.start();
void sweepOrdered(std::vector<std::vector<P *>> &locals,
                  const std::vector<std::size_t> &order) {
  [[clang::soa_conversion_offload_compute]]
  for (std::size_t c = 0; c < order.size(); ++c) {
    [[clang::soa_conversion]]
    for (P *p : locals[order[c]])
      p->rho += p->x;
  }
}

// CHECK-LABEL: void stepKeptCells(
// CHECK: ::soaview::region [[C:sv[0-9]+_[0-9]+_region]]([[C]]_site, ::soaview::region_lists::kept);
void stepKeptCells(std::vector<std::vector<P *>> &locals,
                   std::vector<std::vector<P *>> &actives,
                   const std::vector<std::size_t> &order, int n) {
#ifndef NO_REGION
  [[clang::soa_conversion_region]]
#endif
  for (int s = 0; s < n; ++s) {
    sweepIndexed(locals, actives);
    sweepOrdered(locals, order);
  }
}
