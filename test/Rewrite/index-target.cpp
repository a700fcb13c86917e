// An index loop over T* ([Radtke2025], Listing 5): the target is shadowed by
// the view of the current element; the header stays as written.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
struct Data {
  double a, b, _unused;
};

void kernel(Data *buf, int size) {
  [[clang::soa_conversion_target("buf")]]
  for (int i = 2; i < size; i++) {
    buf[i].a += buf[i].b;
  }
}

// CHECK-LABEL: struct Data_10_3_spec {
// CHECK: static void scatter(const soa &s, std::size_t i, element &e) {
// CHECK-NEXT: e.a = s.a[i];
// CHECK-NEXT: }
// CHECK-LABEL: void kernel(
// CHECK: const int [[P:sv10_3_]]lo = 2;
// CHECK: const std::size_t [[P]]trips = ::soaview::index_trips<::soaview::bound::below>([[P]]site, [[P]]lo, size);
// CHECK: [[P]]frame([[P]]site, ::soaview::index_span_at(buf, [[P]]trips, [[P]]lo));
// CHECK: for (int i = 2; i < size; i++) { auto [[P]]view = [[P]]frame.at(static_cast<std::size_t>(i - [[P]]lo)); _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wshadow\"") ::soaview::index_shadow<decltype([[P]]view)> buf{[[P]]view}; _Pragma("GCC diagnostic pop")
// CHECK-NEXT: buf[i].a += buf[i].b;
