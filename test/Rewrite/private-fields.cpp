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

// CHECK-LABEL: template <auto M, class Tag> struct __soaview_Cell_private_fields_cpp_18_3_expose
// CHECK: struct [[TAG:__soaview_Cell_private_fields_cpp_18_3_rho__tag]] { friend constexpr auto __soaview_member([[TAG]]) noexcept; };
// CHECK-NEXT: template struct __soaview_Cell_private_fields_cpp_18_3_expose<&::Cell::rho_, [[TAG]]>;
// CHECK: struct __soaview_Cell_private_fields_cpp_18_3 {
// CHECK-NEXT: double rho_;
// CHECK-NEXT: double p_;
// CHECK: s.rho_[i] = (e.*__soaview_member([[TAG]]{}));
// CHECK: for (std::size_t {{.*}})
// CHECK-NEXT: { auto {{.*}}view = {{.*}}; auto &c = {{.*}}view; c.setPressure(k * c.density()); } }
