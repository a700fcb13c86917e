// A neighbour-list loop's frame gathers through the list, from the list's
// first subscript (`ngb[k - 1]` from k = 1: `lo - 1`); the body keeps
// `A[ngb[k - 1]]`, whose `A` is the view's shadow.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <vector>
struct Body {
  double x, m, a;
};

void kick(std::vector<Body> &A, const std::vector<int> &ngb, int n) {
  [[clang::soa_conversion_target("A")]]
  for (int k = 1; k <= n; ++k)
    A[ngb[k - 1]].a += A[ngb[k - 1]].m * A[ngb[k - 1]].x;
}

// CHECK-LABEL: void kick(
// CHECK: const int [[P:sv12_3_]]lo = 1;
// CHECK: const std::size_t [[P]]trips = ::soaview::index_trips<::soaview::bound::up_to>([[P]]site, [[P]]lo, n);
// CHECK-NEXT: ::soaview::frame<{{.*}}> [[P]]frame([[P]]site, ::soaview::index_list_at(A, ngb, [[P]]trips, [[P]]trips ? ([[P]]lo - 1) : 0));
// CHECK: for (int k = 1; k <= n; ++k) { auto [[P]]view = [[P]]frame.at(static_cast<std::size_t>(k - [[P]]lo)); {{.*}} ::soaview::index_shadow<decltype([[P]]view)> A{[[P]]view};
// CHECK-NEXT: A[ngb[k - 1]].a += A[ngb[k - 1]].m * A[ngb[k - 1]].x;
