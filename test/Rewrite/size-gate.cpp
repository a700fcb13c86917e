// The profitability rule at run time: a host nest whose inner view is built
// once for the whole outer loop (hoisted) runs converted only when its
// ranges give enough pairs per element gathered (::soaview::pays_off) and
// its first calls measured it faster (::soaview::gate, a static per nest, and
// a ::soaview::trial per run, in a block around both versions), and as
// written otherwise. The check evaluates each range expression once
// more, so only ranges that name their container get it (no call);
// soa_conversion("always") and convert=always convert every time.
// RUN: env -u SOAVIEW_CONVERT %soaview_dump %s | %nochecks | FileCheck %s
// RUN: env -u SOAVIEW_CONVERT %soaview_dump -fplugin-arg-soaview-convert=always %s | %nochecks | FileCheck %s --check-prefix=ALWAYS
// (-verify would see the directives of a gated nest twice, in its copy.)
// RUN: env -u SOAVIEW_CONVERT %soaview_dump -fplugin-arg-soaview-remarks -DREMARKS %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
#include <vector>
struct P {
  double x, m, f;
};
struct Cell {
  std::vector<P *> local, active;
  const std::vector<P *> &list() const { return active; }
};
struct K {
  virtual ~K() = default;
  virtual void apply(P &a, const P &b) { a.f += b.m * (a.x - b.x); }
};

#ifndef REMARKS
// CHECK-LABEL: {{^}}void gated(
// CHECK-NEXT: { static ::soaview::gate [[P:sv[0-9]+_3_]]gate("{{.*}}size-gate.cpp:[[#LINE:]]:3"); ::soaview::trial [[P]]trial([[P]]gate, ::soaview::range_size(c.local), ::soaview::range_size(c.active)); // soaview: the nest's version, measured
// CHECK-NEXT: {{^  }}if (!([[P]]trial.converted())) { // soaview: the loop as written, for ranges too small to pay for the views, or measured faster
// CHECK-NEXT: #line [[#LINE-1]]
// CHECK-NEXT: /*clang::soa_conversion*/
// CHECK-NEXT: for (P *a : c.local) {
// CHECK: } else
// CHECK-NEXT: #line [[#LINE-1]]
// CHECK: { // soaview: hoisted 1 level(s)
// The trial's block ends after the converted nest's blocks.
// CHECK: {{^}}  } } } }{{$}}
// ALWAYS-LABEL: {{^}}void gated(
// ALWAYS-NOT: soaview::trial
// ALWAYS: { // soaview: hoisted 1 level(s)
void gated(Cell &c) {
  [[clang::soa_conversion]]
  for (P *a : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *b : c.active)
      a->f += b->m * (a->x - b->x);
  }
}

// A subscript by a name is evaluated again as written.
// CHECK-LABEL: {{^}}void subscripted(
// CHECK-NEXT: ::soaview::trial [[P:sv[0-9_]+]]trial({{.*}}, ::soaview::range_size(cells[k].local), ::soaview::range_size(*active));
// CHECK-NEXT: if (!([[P]]trial.converted())) {
void subscripted(Cell (&cells)[4], int k, const std::vector<P *> *active) {
  [[clang::soa_conversion]]
  for (P *a : cells[k].local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *b : *active)
      a->f += b->m;
  }
}

// A range from a call is not evaluated twice: no gate.
// CHECK-LABEL: {{^}}void called(
// CHECK-NOT: soaview::trial
// CHECK: { // soaview: hoisted 1 level(s)
void called(Cell &c) {
  [[clang::soa_conversion]]
  for (P *a : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *b : c.list())
      a->f += b->m;
  }
}

// Reading a volatile pointer is a side effect: no gate.
// CHECK-LABEL: {{^}}void through_volatile(
// CHECK-NOT: soaview::trial
// CHECK: { // soaview: hoisted 1 level(s)
void through_volatile(Cell &c, const std::vector<P *> *volatile active) {
  [[clang::soa_conversion]]
  for (P *a : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *b : *active)
      a->f += b->m;
  }
}

// A static local or a label would be declared twice by the copy: no gate.
// CHECK-LABEL: {{^}}void counted(
// CHECK-NOT: soaview::trial
// CHECK: { // soaview: hoisted 1 level(s)
void counted(Cell &c) {
  [[clang::soa_conversion]]
  for (P *a : c.local) {
    static long pairs = 0;
    [[clang::soa_conversion_hoist(1)]]
    for (const P *b : c.active) {
      a->f += b->m;
      ++pairs;
    }
  }
}
// CHECK-LABEL: {{^}}void labelled(
// CHECK-NOT: soaview::trial
// CHECK: { // soaview: hoisted 1 level(s)
void labelled(Cell &c) {
  [[clang::soa_conversion]]
  for (P *a : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *b : c.active) {
      if (b->m < 0)
        goto skip;
      a->f += b->m;
    skip:;
    }
  }
}

// soa_conversion("always"): no gate.
// CHECK-LABEL: {{^}}void always(
// CHECK-NOT: soaview::trial
// CHECK: { // soaview: hoisted 1 level(s)
void always(Cell &c) {
  [[clang::soa_conversion("always")]]
  for (P *a : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *b : c.active)
      a->f += b->m;
  }
}

// With a dynamic type check too: both must hold.
// CHECK-LABEL: {{^}}void both(
// CHECK-NEXT: ::soaview::trial [[P:sv[0-9_]+]]trial({{.*}}, ::soaview::range_size(c.local), ::soaview::range_size(c.active));
// CHECK-NEXT: if (!(::soaview::exact_type(k) && [[P]]trial.converted())) { // soaview: the loop as written, for other dynamic types of 'k' and ranges too small to pay for the views, or measured faster
void both(Cell &c, K &k) {
  [[clang::soa_conversion]]
  for (P *a : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (P *b : c.active)
      k.apply(*a, *b);
  }
}

// A member range of the enclosing class, through `this`.
struct Box {
  std::vector<P *> local, active;
  // CHECK-LABEL: {{^}}  void sum() {
  // CHECK-NEXT: ::soaview::trial [[P:sv[0-9_]+]]trial({{.*}}, ::soaview::range_size(local), ::soaview::range_size(this->active));
  // CHECK-NEXT: if (!([[P]]trial.converted())) {
  void sum() {
    [[clang::soa_conversion]]
    for (P *a : local) {
      [[clang::soa_conversion_hoist(1)]]
      for (const P *b : this->active)
        a->f += b->m;
    }
  }
};
void use(Box &b) { b.sum(); }

// Symmetric pair nests walk the outer loop's view: both extents are the
// outer loop's, its container's size or its trip count (a library
// container's size() is evaluated again; a user's function is not).
// CHECK-LABEL: {{^}}void pairs_over_iterators(
// CHECK: ::soaview::trial [[P:sv[0-9_]+]]trial({{.*}}, ::soaview::range_size(ps), ::soaview::range_size(ps));
// CHECK-NEXT: if (!([[P]]trial.converted())) {
void pairs_over_iterators(std::vector<P *> &ps) {
  [[clang::soa_conversion]]
  for (auto it = ps.begin(); it != ps.end(); ++it)
    [[clang::soa_conversion]]
    for (auto jt = it + 1; jt != ps.end(); ++jt)
      (*it)->f += (*jt)->m;
}
// CHECK-LABEL: {{^}}void pairs_over_indices(
// CHECK: ::soaview::trial [[P:sv[0-9_]+]]trial({{.*}}, ::soaview::trip_count(0, ps.size()), ::soaview::trip_count(0, ps.size()));
// CHECK-NEXT: if (!([[P]]trial.converted())) {
void pairs_over_indices(std::vector<P> &ps) {
  [[clang::soa_conversion, clang::soa_conversion_target("ps")]]
  for (std::size_t i = 0; i < ps.size(); ++i)
    [[clang::soa_conversion, clang::soa_conversion_target("ps")]]
    for (std::size_t j = i + 1; j < ps.size(); ++j)
      ps[i].f += ps[j].m;
}
struct Bodies {
  P *items;
  int n;
  int count() const { return n; }
};
// CHECK-LABEL: {{^}}void pairs_counted(
// CHECK-NOT: soaview::trial
// CHECK: { // soaview: view of 'P' in {m, f} out {f}
void pairs_counted(Bodies &b) {
  P *items = b.items;
  [[clang::soa_conversion, clang::soa_conversion_target("items")]]
  for (int i = 0; i < b.count(); ++i)
    [[clang::soa_conversion, clang::soa_conversion_target("items")]]
    for (int j = i + 1; j < b.count(); ++j)
      items[i].f += items[j].m;
}
#else
// REMARK: size-gate.cpp:[[@LINE+4]]:3: remark: soaview: view of 'P' in {f} out {f} (gather 8 B, scatter 8 B per element); runs when its ranges give at least 48 pairs per element gathered, a square nest from 96 x 96 (::soaview::pays_off, checked when the nest starts) and its first calls measured it faster (::soaview::gate), as written otherwise
// REMARK: size-gate.cpp:[[@LINE+5]]:5: remark: soaview: view of 'P' in {m} out {} (gather 8 B, scatter 0 B per element); built 1 loop level(s) out; runs when its ranges give at least 48 pairs per element gathered
void remarks(Cell &c) {
  [[clang::soa_conversion]]
  for (P *a : c.local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *b : c.active)
      a->f += b->m;
  }
}
#endif
