// A range-for over pointers: spec struct, proxy, gather/scatter of exactly
// the used fields, and the loop turned into an index loop over the frame.
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
// CHECK: struct [[VIEW:__soaview_Particle_range_pointers_cpp_15_3]] {
// The proxy holds the values of one element's fields; its destructor writes
// the written ones back to the slot.
// CHECK-NEXT:   double x;
// CHECK-NEXT:   double mass;
// CHECK-NEXT:   const void *__soaview_address;
// CHECK-NEXT:   ::soaview::out_slot<double> __soaview_out_x;
// CHECK-NEXT:   template <class S> [[VIEW]](const S &s, std::size_t i)
// CHECK-NEXT:       : x(s.x[i]),
// CHECK-NEXT:         mass(s.mass[i]),
// CHECK:              __soaview_out_x(&s.x[i]) {
// CHECK:        ~[[VIEW]]() {
// CHECK-NEXT:     if (__soaview_out_x.p) *__soaview_out_x.p = x;
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
// CHECK: auto &&[[R:__sv15_3_]]range = ps;
// CHECK: static ::soaview::site [[R]]site("range-pointers.cpp:15:3");
// CHECK: ::soaview::frame<::[[VIEW]]_spec> [[R]]frame([[R]]site, [[R]]range);
// CHECK: #line 15
// CHECK-NEXT: for (std::size_t [[R]]i = 0; [[R]]i < [[R]]frame.size(); ++[[R]]i) { auto [[R]]view = [[R]]frame.at([[R]]i); auto *p = &[[R]]view;
// CHECK-NEXT: p->x += p->getMass() * dt;
// CHECK-NEXT: } }
