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

// A condition that asks the iterator ends the range through
// ::soaview::while_valid, the condition as written in a generic lambda of
// the iterator; an iterator initialized with braces or parentheses is
// spelled with its type.
struct Cursor {
  Data *p, *e;
  bool isValid() const { return p != e; }
  Data &operator*() const { return *p; }
  Data *operator->() const { return p; }
  Cursor &operator++() { ++p; return *this; }
};
struct Box {
  std::vector<Data> v;
  Cursor begin() { return {v.data(), v.data() + v.size()}; }
};
// CHECK-LABEL: void valid(
// CHECK: auto &&{{sv[0-9]+_3_}}range = ::soaview::iterators(b.begin(), ::soaview::while_valid([](const auto &it) { return it.isValid(); }));
// CHECK: auto &&{{sv[0-9]+_3_}}range = ::soaview::iterators(::Cursor{d, d + n}, ::soaview::while_valid([](const auto &c) { return c.isValid(); }));
// CHECK: auto &&{{sv[0-9]+_3_}}range = ::soaview::iterators(::Cursor(b.begin()), ::soaview::while_valid([](const auto &c) { return c.isValid(); }));
void valid(Box &b, Data *d, int n) {
  [[clang::soa_conversion]]
  for (auto it = b.begin(); it.isValid(); ++it)
    it->a = 1;
  [[clang::soa_conversion]]
  for (Cursor c{d, d + n}; c.isValid(); ++c)
    c->b = 2;
  [[clang::soa_conversion]]
  for (Cursor c(b.begin()); c.isValid(); ++c)
    (*c).a += 3;
}
