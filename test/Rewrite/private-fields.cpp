// Private fields behind getters and setters are gathered through member
// pointers named in explicit instantiations (no change to the class).
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <vector>

class Cell {
public:
  double density() const { return rho_; }
  void setPressure(double p) { p_ = p; }

private:
  double rho_ = 1, p_ = 0;
  int owner_ = 0;
};

void eos(std::vector<Cell> &cells, double k) {
  [[clang::soa_conversion]]
  for (Cell &c : cells)
    c.setPressure(k * c.density());
}

// CHECK-LABEL: template <auto M, class Tag> struct Cell_18_3_expose
// CHECK: struct [[TAG:Cell_18_3_tag_rho_]] { friend constexpr auto soaview_member([[TAG]]) noexcept; };
// CHECK-NEXT: template struct Cell_18_3_expose<&::Cell::rho_, [[TAG]]>;
// CHECK: struct Cell_18_3 {
// CHECK-NEXT: double rho_;
// CHECK-NEXT: double p_;
// CHECK: s.rho_[i] = (e.*soaview_member([[TAG]]{}));
// CHECK: for (std::size_t {{.*}}) { auto {{.*}}view = {{.*}}; auto &c = {{.*}}view;
// CHECK-NEXT: c.setPressure(k * c.density()); } }
