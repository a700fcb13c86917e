// Which host loops over pointers run their body through each() of the
// frame's slots (a lambda called on two paths: directly indexed when the range holds no
// element twice, so the compiler can vectorise it) and which index the frame
// with at(): a loop around a loop with a run-time trip count is not
// vectorised, and each() would only compile its body twice.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <list>
#include <vector>

struct P { double x[3], v[3], m; };

// CHECK-LABEL: void flat(
// CHECK: const auto [[F:sv[0-9_]+]]slots = [[F]]frame.slots();
// CHECK: [[F]]slots.each([&](std::size_t [[F]]slot)
void flat(std::vector<P *> &ps, double dt) {
  [[clang::soa_conversion]]
  for (P *p : ps)
    p->x[0] += dt * p->v[0];
}

// Constant trip counts unroll: the outer loop may still vectorise.
// CHECK-LABEL: void unrolled(
// CHECK: [[U:sv[0-9_]+]]slots.each([&](std::size_t [[U]]slot)
void unrolled(std::vector<P *> &ps, double dt) {
  [[clang::soa_conversion]]
  for (P *p : ps) {
    for (int c = 0; c < 3; ++c)
      p->x[c] += dt * p->v[c];
    for (double &v : p->v)
      v *= 0.5;
  }
}

// CHECK-LABEL: void counted(
// CHECK-NOT: each(
// CHECK: for (std::size_t [[C:sv[0-9_]+]]i = 0; [[C]]i < [[C]]frame.size(); ++[[C]]i) { auto [[C]]view = [[C]]frame.at([[C]]i);
void counted(std::vector<P *> &ps, int steps) {
  [[clang::soa_conversion]]
  for (P *p : ps)
    for (int s = 0; s < steps; ++s)
      p->x[0] += p->v[0];
}

// CHECK-LABEL: void waits(
// CHECK-NOT: each(
// CHECK: [[W:sv[0-9_]+]]frame.at([[W]]i)
void waits(std::vector<P *> &ps) {
  [[clang::soa_conversion]]
  for (P *p : ps)
    while (p->x[0] > 1)
      p->x[0] -= 1;
}

// The outer loop of a nest (see also hoisted.cpp).
// CHECK-LABEL: void nest(
// CHECK-NOT: each(
// CHECK: [[N:sv[0-9]+_3_]]frame.at([[N]]i)
// CHECK-LABEL: void end_of_checks(
void nest(std::list<P *> &local, std::list<P *> &active) {
  [[clang::soa_conversion]]
  for (P *l : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *a : active)
      l->v[0] += a->m * (l->x[0] - a->x[0]);
  }
}
void end_of_checks() {}

// A hoisted inner loop that writes (the active-local order): its slots are
// copied before the outer loop, so that the compiler checks its buffers for
// overlap once per call, not once per outer element.
// CHECK-LABEL: void activeLocal(
// CHECK: [[I:sv[0-9]+_5_]]frame([[I]]site, [[I]]range);
// CHECK-NEXT: const auto [[I]]slots = [[I]]frame.slots();
// CHECK: for (std::size_t [[O:sv[0-9]+_3_]]i = 0; [[O]]i < [[O]]frame.size(); ++[[O]]i)
// CHECK: [[I]]slots.each([&](std::size_t [[I]]slot) __attribute__((always_inline)) { auto [[I]]view = [[I]]slots.at([[I]]slot); auto *l = &[[I]]view;
void activeLocal(std::vector<P *> &local, std::vector<P *> &active) {
  [[clang::soa_conversion]]
  for (const P *a : active) {
    [[clang::soa_conversion_hoist(1)]]
    for (P *l : local)
      if (l->x[0] < a->x[0])
        l->v[0] += a->m;
  }
}
