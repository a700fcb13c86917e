// Leaves of nested structs by dotted path; an array field (a buffer a component);
// a member function of the nested struct copied into the nested proxy.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
// RUN: %soaview_verify -fplugin-arg-soaview-remarks %s
#include <list>

struct Vec3 {
  double c[3];
  double norm2() const { return c[0] * c[0] + c[1] * c[1] + c[2] * c[2]; }
};
struct Body {
  int id;
  struct {
    double v;
    double e;
  } kin;
  Vec3 pos;
  Vec3 acc;
};

double energy(std::list<Body *> &bs) {
  double s = 0;
  [[clang::soa_conversion]]
  for (Body *b : bs) { // expected-remark {{soaview: view of 'Body' in {kin.v, pos.c} out {kin.e} (gather 40 B, scatter 8 B per element)}}
    b->kin.e = 0.5 * b->kin.v * b->kin.v;
    s += b->pos.norm2();
  }
  return s;
}

// CHECK-LABEL: struct Body_24_3 {
// CHECK-NEXT: struct soaview_kin_proxy {
// CHECK-NEXT:   double v;
// CHECK-NEXT:   double e;
// CHECK-NEXT:   soaview_kin_proxy() = default;
// CHECK-NEXT:   template <class S> soaview_kin_proxy(::soaview::loop_tag<0>, const S &s, std::size_t i)
// CHECK-NEXT:       : v(s.kin_v[i]),
// CHECK-NEXT:         e(s.kin_e[i]) {
// CHECK:      } kin;
// CHECK-NEXT: struct soaview_pos_proxy {
// CHECK-NEXT:   double c[3];
// CHECK-NEXT:   soaview_pos_proxy() = default;
// CHECK-NEXT:   template <class S> soaview_pos_proxy(::soaview::loop_tag<0>, const S &s, std::size_t i)
// CHECK-NEXT:       : c{s.pos_c[0][i], s.pos_c[1][i], s.pos_c[2][i]} {
// CHECK: double norm2() const { return c[0] * c[0] + c[1] * c[1] + c[2] * c[2]; }
// CHECK: } pos;
// Only the written leaf is written back, through its nested path.
// CHECK:      ::soaview::out_slot<double> soaview_out_kin_e;
// CHECK-NOT:  out_slot
// CHECK:      ~Body_24_3() {
// CHECK-NEXT:   if (soaview_out_kin_e.p) *soaview_out_kin_e.p = kin.e;
// CHECK-NEXT: }
// CHECK-NOT: acc
// CHECK:      s.pos_c[0][i] = e.pos.c[0];
// CHECK-NEXT: s.pos_c[1][i] = e.pos.c[1];
// CHECK-NEXT: s.pos_c[2][i] = e.pos.c[2];
