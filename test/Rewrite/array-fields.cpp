// Array fields in views. A small array of numbers (1-4 components) gets one
// buffer per component, so a loop reading x[0] of consecutive elements loads
// consecutive slots (hand-written SoA); larger, multi-dimensional and
// non-numeric arrays stay whole, copied with memcpy. Written components go
// back through one slot each; an offloaded loop copies each component buffer.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
// RUN: %soaview_dump %offload_syntax %s | %nochecks | FileCheck %s --check-prefix=OFFLOAD
// RUN: %soaview_verify %s
// expected-no-diagnostics
#include <vector>

struct Cell { int id; };
struct Part {
  double x[2];       // split, read
  float v[3];        // split, written
  double hist[6];    // whole: more than 4 components
  double t[2][2];    // whole: two dimensions
  Cell c[2];         // whole: not numbers
  const int tag[1];  // split, const element
};

double step(std::vector<Part *> &ps) {
  double s = 0;
  [[clang::soa_conversion]]
  for (Part *p : ps) {
    p->v[1] += float(p->x[0] * p->tag[0]);
    s += p->hist[5] + p->t[1][0] + p->c[1].id;
  }
  return s;
}

// CHECK: struct [[V:Part_[0-9]+_3]] {
// CHECK-NEXT:   double x[2];
// CHECK-NEXT:   float v[3];
// CHECK-NEXT:   double hist[6];
// CHECK-NEXT:   double t[2][2];
// CHECK-NEXT:   Cell c[2];
// CHECK-NEXT:   int tag[1];
// CHECK:        ::soaview::out_slot<float> soaview_out_v_0;
// CHECK-NEXT:   ::soaview::out_slot<float> soaview_out_v_1;
// CHECK-NEXT:   ::soaview::out_slot<float> soaview_out_v_2;
// CHECK-NEXT:   template <class S> [[V]](::soaview::loop_tag<0>, const S &s, std::size_t i)
// CHECK-NEXT:       : x{s.x[0][i], s.x[1][i]},
// CHECK-NEXT:         v{s.v[0][i], s.v[1][i], s.v[2][i]},
// CHECK-NEXT:         tag{s.tag[0][i]},
// CHECK:              soaview_out_v_2(&s.v[2][i]) {
// CHECK-NEXT:     std::memcpy(&hist, &s.hist[i], sizeof hist);
// CHECK-NEXT:     std::memcpy(&t, &s.t[i], sizeof t);
// CHECK-NEXT:     std::memcpy(&c, &s.c[i], sizeof c);
// CHECK:        ~[[V]]() {
// CHECK-NEXT:     if (soaview_out_v_0.p) *soaview_out_v_0.p = v[0];
// CHECK-NEXT:     if (soaview_out_v_1.p) *soaview_out_v_1.p = v[1];
// CHECK-NEXT:     if (soaview_out_v_2.p) *soaview_out_v_2.p = v[2];
// CHECK-NEXT:   }
// CHECK: struct [[V]]_spec {
// CHECK:        struct soa {
// CHECK-NEXT:     double *x[2]; // one buffer per component
// CHECK-NEXT:     float *v[3]; // one buffer per component
// CHECK-NEXT:     double (*hist)[6];
// CHECK-NEXT:     double (*t)[2][2];
// CHECK-NEXT:     Cell (*c)[2];
// CHECK-NEXT:     int *tag[1]; // one buffer per component
// CHECK:        static void carve(
// CHECK-NEXT:     s.x[0] = a.take<double>(n);
// CHECK-NEXT:     s.x[1] = a.take<double>(n);
// CHECK-NEXT:     s.v[0] = a.take<float>(n);
// CHECK:          s.hist = a.take<double[6]>(n);
// CHECK:        static void gather(
// CHECK-NEXT:     s.x[0][i] = e.x[0];
// CHECK-NEXT:     s.x[1][i] = e.x[1];
// CHECK:          std::memcpy(&s.hist[i], &e.hist, sizeof s.hist[i]);
// CHECK:          s.tag[0][i] = e.tag[0];
// CHECK:        static void scatter(
// CHECK-NEXT:     e.v[0] = s.v[0][i];
// CHECK-NEXT:     e.v[1] = s.v[1][i];
// CHECK-NEXT:     e.v[2] = s.v[2][i];
// CHECK-NEXT:   }

// The device copies: one pair per component buffer, written ones marked.
struct Q { double x[2]; double m; };
void drift(std::vector<Q> &qs) {
  [[clang::soa_conversion_offload_compute]]
  for (Q &q : qs)
    q.x[0] += q.m * q.x[1];
}
// OFFLOAD-LABEL: struct {{Q_[0-9]+_3}}_spec {
// OFFLOAD:       static void pairs(const soa &h, const soa &d, F &&f) {
// OFFLOAD-NEXT:    f(h.x[0], d.x[0], sizeof(double), true);
// OFFLOAD-NEXT:    f(h.x[1], d.x[1], sizeof(double), true);
// OFFLOAD-NEXT:    f(h.m, d.m, sizeof(double), false);
