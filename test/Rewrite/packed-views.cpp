// A read-only inner loop that reads many buffers (13 here: x[3], v[3] and
// seven scalars) and branches around its work builds its views once, when
// its frame gathers (packed_frame), and takes a reference to each; with
// fewer buffers, or no branch, it reads the buffers in each iteration.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <vector>
struct P {
  float x[3], v[3], h, m, rho, c, f, p, a;
  float acc;
};
static void force(P *pi, const P *pj) {
  float r2 = 0;
  for (int k = 0; k < 3; ++k)
    r2 += (pi->x[k] - pj->x[k]) * (pi->x[k] - pj->x[k]);
  if (r2 > pj->h * pj->h)
    return;
  pi->acc += pj->m * (pj->v[0] + pj->v[1] + pj->v[2]) * pj->rho * pj->c *
             pj->f * pj->p * pj->a;
}
void packed(std::vector<P *> &local, std::vector<P *> &active) {
  [[clang::soa_conversion]]
  for (P *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *pj : active)
      force(pi, pj);
  }
}
void fewBuffers(std::vector<P *> &local, std::vector<P *> &active) {
  [[clang::soa_conversion]]
  for (P *pi : local) {
    [[clang::soa_conversion_hoist(1)]]
    for (const P *pj : active)
      if (pi->x[0] < pj->x[0])
        pi->acc += pj->m;
  }
}
// CHECK-LABEL: void packed(
// CHECK: ::soaview::packed_frame<::soaview_gen::[[S:P_24_5_spec]]> [[I:sv24_5_]]frame([[I]]site, [[I]]range);
// CHECK: ::soaview::frame<::soaview_gen::P_22_3_spec> sv22_3_frame(
// CHECK: { auto &[[I]]view = [[I]]frame.at([[I]]i); const auto *pj = &[[I]]view;
// CHECK-LABEL: void fewBuffers(
// CHECK: ::soaview::frame<::soaview_gen::P_32_5_spec> [[J:sv32_5_]]frame(
// CHECK: { auto [[J]]view = [[J]]frame.at([[J]]i); const auto *pj = &[[J]]view;
