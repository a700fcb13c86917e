// Uses of an index loop's target that reach no element of the loop
// (`A[target]`, `A.size()`) name the array through an alias declared before
// the target's shadow; `A[j]` stays the view.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <vector>
struct Body {
  double x, m, a;
};

void pull(std::vector<Body> &A, int target, int n) {
  [[clang::soa_conversion_target("A")]]
  for (int j = 0; j < n; ++j)
    A[j].a -= A[target].m * (A[j].x - A[target].x) / (double)A.size();
}

// CHECK-LABEL: void pull(
// CHECK: for (int j = 0; j < n; ++j) { auto [[P:sv12_3_]]view = [[P]]frame.at({{.*}}); auto &[[P]]elements = A; _Pragma("GCC diagnostic push") {{.*}} ::soaview::index_shadow<decltype([[P]]view)> A{[[P]]view}; _Pragma("GCC diagnostic pop")
// CHECK-NEXT: A[j].a -= [[P]]elements[target].m * (A[j].x - [[P]]elements[target].x) / (double)[[P]]elements.size();
