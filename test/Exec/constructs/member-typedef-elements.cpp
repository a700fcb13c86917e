// Ranges found by annotate=all on AutoPas's tests. Elements whose type the
// loop reaches through a typedef of a class: `auto` over a std::array of
// structs is the array's `value_type`, over a container class the
// `ParticleType` its iterator returns, and pointers to elements a class
// lists as `Pointer`. Generated code names the element from outside those
// classes, so as the struct itself (it named `lib::value_type`: the
// converted code did not compile, an internal error). And a range without
// size() whose end() is a sentinel of another type (soaview's runtime
// counted it with one `auto` for both: an internal error too).
// RUN: %compare --plain %clangxx --soaview %soaviewxx --views 5 --out %t \
// RUN:   --flags "-O1 -std=c++20" --run "1 40" --run "7 3" %s | FileCheck %s
// CHECK: all runs identical
// RUN: %soaview_dump -std=c++20 %s | FileCheck %s --check-prefix=DUMP
// DUMP: view of 'lib::Mol' for the loop at member-typedef-elements.cpp:[[@LINE+69]]:3
// DUMP-NEXT: struct Mol_[[@LINE+68]]_3 {
// DUMP: using soaview_element = ::lib::Mol;
// DUMP: view of 'lib::Mol' for the loop at member-typedef-elements.cpp:[[@LINE+73]]:3
// DUMP: using soaview_element = ::lib::Mol;
// DUMP: view of 'lib::Mol' for the loop at member-typedef-elements.cpp:[[@LINE+75]]:3
// DUMP: using soaview_element = ::lib::Mol;
// DUMP: view of 'lib::Mol' for the loop at member-typedef-elements.cpp:[[@LINE+83]]:3
// DUMP: using soaview_element = ::lib::Mol;
#include "common.h"
#include <array>
#include <vector>

namespace lib {
struct Mol {
  double x, f;
  long id;
};

/// A container that names its particles through its own typedef.
template <class P> class Box {
public:
  using ParticleType = P;
  using Pointer = ParticleType *;
  explicit Box(int n) : ps_(n) {}
  typename std::vector<ParticleType>::iterator begin() { return ps_.begin(); }
  typename std::vector<ParticleType>::iterator end() { return ps_.end(); }
  std::vector<Pointer> pointers() {
    std::vector<Pointer> v;
    for (ParticleType &p : ps_)
      v.push_back(&p);
    return v;
  }

private:
  std::vector<ParticleType> ps_;
};

/// A range without size() whose end() is a sentinel of another type (an
/// AutoPas container: its iterator compares with a bool).
template <class P> class Walk {
public:
  using ParticleType = P;
  struct iterator {
    P *at, *last;
    P &operator*() const { return *at; }
    iterator &operator++() {
      ++at;
      return *this;
    }
    bool operator!=(bool) const { return at != last; }
  };
  explicit Walk(std::vector<P> &v) : v_(v) {}
  iterator begin() { return {v_.data(), v_.data() + v_.size()}; }
  bool end() { return false; }

private:
  std::vector<P> &v_;
};
} // namespace lib

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  const int n = corpus::count(argc, argv, 20);
  std::array<lib::Mol, 5> mols{};
  for (auto &m : mols)
    m = {corpus::uniform(), 0, 1};
  double sum = 0;
  [[clang::soa_conversion("always")]]
  for (const auto &m : mols)
    sum += m.x * 0.5;
  lib::Box<lib::Mol> box(n);
  long k = 0;
  for (auto &p : box)
    p = {corpus::uniform(), corpus::uniform(), k++};
  [[clang::soa_conversion("always")]]
  for (auto &p : box)
    p.f += p.x * 0.25 + double(p.id);
  std::vector<lib::Box<lib::Mol>::Pointer> ptrs = box.pointers();
  [[clang::soa_conversion("always")]]
  for (auto *p : ptrs)
    p->x -= p->f * 0.125;
  [[clang::soa_conversion("always")]]
  for (lib::Box<lib::Mol>::ParticleType *p : ptrs)
    sum += p->x;
  std::vector<lib::Mol> more(n);
  for (auto &p : more)
    p = {corpus::uniform(), corpus::uniform(), k++};
  lib::Walk<lib::Mol> walk(more);
  [[clang::soa_conversion("always")]]
  for (auto &p : walk)
    p.f = p.x * p.f + 1;
  for (auto &p : more)
    sum += p.f;
  corpus::print("sum", sum);
  for (auto &p : box) {
    corpus::print("x", p.x);
    corpus::print("f", p.f);
  }
}
