// A pair nest over pointers: the outer loop's frame gathers both loops'
// fields; when it finds an object the range holds twice, it writes nothing
// back and the nest runs as written (its attributes commented out), else
// the inner loop walks the outer frame from the next slot.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <iterator>
#include <vector>
struct Body {
  double x, f;
};

void forces(std::vector<Body *> &ps) {
  [[clang::soa_conversion("always")]]
  for (auto it = ps.begin(); it != ps.end(); ++it)
    [[clang::soa_conversion("always")]]
    for (auto jt = std::next(it); jt != ps.end(); ++jt) {
      (*it)->f += (*jt)->x;
      (*jt)->f -= (*it)->x;
    }
}
// CHECK-LABEL: void forces(
// CHECK: ::soaview::frame<{{.*}}> [[P:sv[0-9_]+]]frame([[P]]site, [[P]]range);
// CHECK-NEXT: if ([[P]]frame.has_repeats()) { [[P]]frame.discard(); // soaview: an object the range holds twice: the nest as written
// CHECK-NEXT: #line 14
// CHECK-NEXT: for (auto it = ps.begin(); it != ps.end(); ++it)
// CHECK-NEXT: /*clang::soa_conversion("always")*/
// CHECK-NEXT: for (auto jt = std::next(it); jt != ps.end(); ++jt) {
// CHECK-NEXT: (*it)->f += (*jt)->x;
// CHECK: } else
// CHECK: for (std::size_t [[P]]i = 0; [[P]]i < [[P]]frame.size(); ++[[P]]i)
// CHECK: for (std::size_t [[Q:sv[0-9_]+]]i = [[P]]i + 1; [[Q]]i < [[P]]frame.size(); ++[[Q]]i) { auto [[Q]]view = [[P]]frame.at([[Q]]i);
