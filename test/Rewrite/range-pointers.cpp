// A range-for over pointers: spec struct, proxy, gather/scatter of exactly
// the used fields; the written loop's body becomes a lambda the frame calls.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <vector>

struct Particle {
  double x;
  double mass;
  double unused[8];
  double getMass() const { return mass; }
};

void push(std::vector<Particle *> &ps, double dt) {
  [[clang::soa_conversion]]
  for (auto *p : ps) {
    p->x += p->getMass() * dt;
  }
}

// CHECK-LABEL: rewritten {{.*}}range-pointers.cpp
// CHECK: #include <soaview/soaview.h>
// CHECK: struct [[VIEW:Particle_15_3]] {
// The proxy holds the values of one element's fields; its destructor writes
// the written ones back to the slot.
// CHECK-NEXT:   double x;
// CHECK-NEXT:   double mass;
// CHECK-NEXT:   {{\[\[}}maybe_unused]] static constexpr bool soaview_is_view = true;
// CHECK-NEXT:   using soaview_element = ::Particle;
// CHECK-NEXT:   const void *soaview_address;
// CHECK-NEXT:   ::soaview::out_slot<double> soaview_out_x;
// CHECK-NEXT:   template <class S> [[VIEW]](::soaview::loop_tag<0>, const S &s, std::size_t i)
// CHECK-NEXT:       : x(s.x[i]),
// CHECK-NEXT:         mass(s.mass[i]),
// CHECK:              soaview_out_x(&s.x[i]) {
// CHECK:        ~[[VIEW]]() {
// CHECK-NEXT:     if (soaview_out_x.p) *soaview_out_x.p = x;
// CHECK-NEXT:   }
// CHECK-NOT: unused
// CHECK: double getMass() const { return mass; }
// CHECK: struct [[VIEW]]_spec {
// CHECK: using element = ::Particle;
// CHECK: static constexpr bool writes = true;
// CHECK: static void gather(soa &s, std::size_t i, const element &e) {
// CHECK-NEXT:   s.x[i] = e.x;
// CHECK-NEXT:   s.mass[i] = e.mass;
// CHECK-NEXT: }
// CHECK: static void scatter(const soa &s, std::size_t i, element &e) {
// CHECK-NEXT:   e.x = s.x[i];
// CHECK-NEXT: }
// CHECK-LABEL: void push(
// CHECK: /*clang::soa_conversion*/
// CHECK: auto &&[[R:sv15_3_]]range = ps;
// CHECK: static ::soaview::site [[R]]site("range-pointers.cpp:15:3");
// CHECK: ::soaview::frame<::soaview_gen::[[VIEW]]_spec> [[R]]frame([[R]]site, [[R]]range);
// CHECK-NEXT: const auto [[R]]slots = [[R]]frame.slots();
// CHECK: #line 15
// The body runs as a lambda that each() of the frame's slots calls with the
// element's slot
// (direct when the range holds no element twice: the loop can vectorise).
// CHECK-NEXT: [[R]]slots.each([&](std::size_t [[R]]slot) __attribute__((always_inline)) { auto [[R]]view = [[R]]slots.at([[R]]slot); auto *p = &[[R]]view;
// CHECK-NEXT: p->x += p->getMass() * dt;
// CHECK-NEXT: }); }

// `continue` of the loop ends the lambda's call; a nested loop's own
// `continue` stays.
void skip(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (auto *p : ps) {
    if (p->mass < 0)
      continue;
    for (int k = 0; k < 2; ++k)
      if (k)
        continue;
    p->x = 0;
  }
}
// CHECK-LABEL: void skip(
// CHECK: [[S:sv[0-9]+_3_]]slots.each([&](std::size_t [[S]]slot)
// CHECK-NEXT: if (p->mass < 0)
// CHECK-NEXT: return;
// CHECK: if (k)
// CHECK-NEXT: continue;
// CHECK: }); }

// Loops whose body a lambda would change keep the index loop over at(i):
// break, return, goto; __func__; nothing written back.
void stop(std::vector<Particle *> &ps) {
  [[clang::soa_conversion]]
  for (auto *p : ps) {
    if (p->mass < 0)
      break;
    p->x = 0;
  }
}
// CHECK-LABEL: void stop(
// CHECK: for (std::size_t [[B:sv[0-9]+_3_]]i = 0; [[B]]i < [[B]]frame.size(); ++[[B]]i) { auto [[B]]view = [[B]]frame.at([[B]]i);
// CHECK-NOT: each(
const char *named(std::vector<Particle *> &ps) {
  const char *f = nullptr;
  [[clang::soa_conversion]]
  for (auto *p : ps) {
    p->x = 1;
    f = __func__;
  }
  return f;
}
// CHECK-LABEL: const char *named(
// CHECK: for (std::size_t [[F:sv[0-9]+_3_]]i = 0; {{.*}} [[F]]frame.at([[F]]i);
// CHECK-NOT: each(
double sum(std::vector<Particle *> &ps) {
  double s = 0;
  [[clang::soa_conversion]]
  for (auto *p : ps)
    s += p->mass;
  return s;
}
// CHECK-LABEL: double sum(
// CHECK: for (std::size_t [[N:sv[0-9]+_3_]]i = 0; {{.*}} { auto [[N]]view = [[N]]frame.at([[N]]i);
// CHECK-NEXT: s += p->mass; } }
// CHECK-NOT: each(
