// Generated names are not reserved and hide no user name: a user name that
// starts like one (the locals' prefix sv<line>_<col>_, the view
// <Element>_<line>_<col> in the element's namespace, soaview_member) makes
// soaview pick the next free name (an 'x' appended). The converted program
// must compile and compute what the plain one does.
// RUN: %clangxx -O1 -Wno-unknown-attributes %s -o %t.plain
// RUN: %soaviewxx -O1 %s -o %t.sv
// RUN: %t.plain > %t.plain.out && %t.sv > %t.sv.out
// RUN: diff %t.plain.out %t.sv.out
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <cstdio>
#include <vector>
namespace phys {
struct P { double x, v; int id; };
struct P_33_3 { int taken; };  // the name the view of the loop at 33:3 takes
class Q {
  double m_ = 1;  // private: read through soaview_member
public:
  double x = 0;
  friend double massOf(const Q &q);
};
double massOf(const Q &q) { return q.m_; }
} // namespace phys
int soaview_member = 3;          // taken too
double sv33_3_view = 0.5;        // a local of the loop at 33:3 would hide it
double sv45_3_n = 2;             // so would the loop at 45:3's
double step(std::vector<phys::P> &ps) {
  phys::P_33_3 t{1};
  double dt = sv33_3_view * t.taken;
  double sum = 0;
// CHECK-LABEL: struct P_33_3x {
  [[clang::soa_conversion]]
  for (auto &p : ps) {
    p.v += dt;
    p.x += p.v * sv33_3_view;
    sum += p.x;
  }
  return sum;
}
// CHECK: auto &&sv33_3x_range = ps;
// CHECK: friend constexpr auto soaview_memberx(
double push(std::vector<phys::Q *> &qs) {
  double sum = 0;
  [[clang::soa_conversion]]
  for (auto *q : qs) {
    q->x += massOf(*q) * sv45_3_n * soaview_member;
    sum += q->x;
  }
  return sum;
}
// CHECK-LABEL: double push(
// CHECK: auto &&sv45_3x_range = qs;
int main() {
  std::vector<phys::P> ps(100);
  std::vector<phys::Q> qs(50);
  std::vector<phys::Q *> qp;
  for (int i = 0; i < 100; ++i)
    ps[i] = {i * 0.25, i * 0.5, i};
  for (auto &q : qs)
    qp.push_back(&q);
  double a = step(ps), b = push(qp);
  std::printf("%.17g %.17g\n", a, b);
}
