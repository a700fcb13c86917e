// A field both loops of a nest write (Newton's third law) stays in the
// element: the one view type of the nest has a reference member for it,
// which every loop's constructor binds to the element of its slot; no
// buffer, gather, scatter or write-back for it. The other fields go through
// buffers as usual.
// RUN: %soaview_dump -fplugin-arg-soaview-remarks %s 2>%t.remarks | %nochecks | FileCheck %s
// RUN: FileCheck --check-prefix=REMARK %s < %t.remarks
#include <vector>
struct P {
  double x, rho, f;
  double m;
};

void newton3(std::vector<P *> &local, std::vector<P *> &active) {
  [[clang::soa_conversion]]
  for (P *l : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (P *a : active) {
      double d = l->x - a->x;
      l->rho += a->m * d;
      a->rho += l->m * d;
    }
  }
}
// REMARK: in-place.cpp:16:3: remark: soaview: view of 'P' in {x, rho, m} out {rho} (gather 16 B, scatter 0 B per element); in the element: {rho} (another view of the nest may hold it)
// REMARK: in-place.cpp:18:5: remark: soaview: view of 'P' in {x, rho, m} out {rho} (gather 16 B, scatter 0 B per element); in the element: {rho} (another view of the nest may hold it); built 1 loop level(s) out

// CHECK-LABEL: struct P_16_3 {
// CHECK-NEXT:    double x;
// CHECK-NEXT:    double &rho; // in the element: another view may hold it
// CHECK-NEXT:    double m;
// CHECK-NOT:     soaview_out_rho
// CHECK:         P_16_3(::soaview::loop_tag<0>, const S &s, std::size_t i)
// CHECK-NEXT:      : x(s.x[i]),
// CHECK-NEXT:        rho(::soaview::element_at<soaview_element>(s, i).rho),
// CHECK:         P_16_3(::soaview::loop_tag<1>, const S &s, std::size_t i)
// CHECK-NEXT:      : x(s.x[i]),
// CHECK-NEXT:        rho(::soaview::element_at<soaview_element>(s, i).rho),
// CHECK-NOT:     ~P_16_3
// CHECK-LABEL: struct P_16_3_spec {
// CHECK:         static constexpr bool writes = false;
// CHECK-NEXT:    struct soa {
// CHECK-NEXT:      double *x;
// CHECK-NEXT:      double *m;
// CHECK-NEXT:      const void *const *soaview_address;
// CHECK:         static void scatter(const soa &, std::size_t, element &) {
// CHECK-NEXT:    }
