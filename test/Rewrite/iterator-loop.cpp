// An iterator loop converts as the range [begin, end) it walks: the frame
// gathers from ::soaview::iterators(begin, end), the header counts the
// frame's slots, and `it` in the body points at the view (over pointers, at
// a pointer to it), so `*it` and `it->` are the view.
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include <list>
#include <vector>
struct Data {
  double a, b, _unused;
};

void kernel(std::vector<Data> &v) {
  [[clang::soa_conversion]]
  for (auto it = v.begin(); it != v.end(); ++it) {
    it->a += (*it).b;
  }
}

void pointers(std::list<Data *> &l) {
  [[clang::soa_conversion]]
  for (auto it = l.cbegin(); l.cend() != it; it++)
    (*it)->b *= 2;
}

// CHECK-LABEL: void kernel(
// CHECK: auto &&[[P:sv14_3_]]range = ::soaview::iterators(v.begin(), v.end());
// CHECK-NEXT: static ::soaview::site [[P]]site("{{.*}}iterator-loop.cpp:14:3");
// CHECK-NEXT: ::soaview::frame<{{.*}}> [[P]]frame([[P]]site, [[P]]range);
// CHECK-NEXT: #line 14
// CHECK-NEXT: for (std::size_t [[P]]i = 0; [[P]]i < [[P]]frame.size(); ++[[P]]i) { auto [[P]]view = [[P]]frame.at([[P]]i); {{\[\[}}maybe_unused{{\]\]}} auto *it = &[[P]]view;
// CHECK-NEXT: it->a += (*it).b;
// CHECK-LABEL: void pointers(
// CHECK: auto &&[[Q:sv21_3_]]range = ::soaview::iterators(l.cbegin(), l.cend());
// CHECK: for (std::size_t [[Q]]i = 0; [[Q]]i < [[Q]]frame.size(); ++[[Q]]i) { auto [[Q]]view = [[Q]]frame.at([[Q]]i); auto *[[Q]]element = &[[Q]]view; {{\[\[}}maybe_unused{{\]\]}} auto *it = &[[Q]]element;
// CHECK-NEXT: (*it)->b *= 2;
