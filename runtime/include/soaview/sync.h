//===- soaview/sync.h - synchronisation points in view regions -*- C++ -*-===//
//
// soaview::sync (docs/offload.md, "Synchronisation points"): code that
// soaview cannot follow (an MPI exchange), inside a view region, with the
// elements it reads and writes written back before it and gathered again
// after it. Users include this header; generated code does not (it keeps
// to soaview/region.h and cheap standard headers). Implemented in
// runtime/src/region.cpp; tested by examples/small/region_exchange.cpp
// (test/Exec/regions.test, test/Offload/host-offload.test, test/GPU).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SYNC_H
#define SOAVIEW_SYNC_H

#include "soaview/region.h"

#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

namespace soaview {

namespace rt {
/// Whether T has begin() and end() (a list).
template <class T, class = void> struct is_range : std::false_type {};
template <class T>
struct is_range<T, std::void_t<decltype(std::begin(std::declval<T &>())),
                               decltype(std::end(std::declval<T &>()))>>
    : std::true_type {};
/// A list's element type: the pointee of a pointer, the value of a range
/// (a list of lists: the inner lists'), else the type itself.
template <class T, class = void> struct list_element {
  using type = std::remove_cv_t<T>;
};
template <class T> struct list_element<T *> {
  using type = std::remove_cv_t<T>;
};
template <class T>
struct list_element<T, std::enable_if_t<is_range<const T>::value>> {
  using type = typename list_element<std::remove_cv_t<std::remove_reference_t<
      decltype(*std::begin(std::declval<const T &>()))>>>::type;
};
/// The addresses of the elements a list holds (lists of lists: all of them).
template <class T> void list_elements(const T &x, std::vector<void *> &out) {
  if constexpr (std::is_pointer_v<T>) {
    if (x)
      out.push_back(const_cast<void *>(static_cast<const void *>(x)));
  } else if constexpr (is_range<const T>::value) {
    for (const auto &y : x)
      list_elements(y, out);
  } else {
    out.push_back(const_cast<void *>(static_cast<const void *>(&x)));
  }
}
template <class F> void call_it(void *f) { (*static_cast<F *>(f))(); }

} // namespace rt

/// soaview::sync(lists, f) (below) with what f reads and what it writes
/// apart (an exchange reads the rows it sends and writes the rows it
/// receives): the region's fields of the elements in `reads` are written
/// back before f, and the fields of those in `writes` gathered again after
/// it. The contract: f reads, and writes in part, only elements in
/// `reads`; it writes only elements in `writes`, and an element it writes
/// but does not read it writes whole (the region's own values of its fields
/// are dropped); it changes no list. Both lists hold one element type.
template <class Reads, class Writes, class F>
void sync(const Reads &reads, const Writes &writes, F &&f) {
  using fn = std::remove_reference_t<F>;
  using element = typename rt::list_element<Reads>::type;
  static_assert(
      std::is_same_v<element, typename rt::list_element<Writes>::type>,
      "soaview::sync(reads, writes, f): both lists must hold one element "
      "type; sync each type apart, or use soaview::sync(f)");
  if (!region::current()) {
    f();
    return;
  }
  std::vector<void *> r, w;
  rt::list_elements(reads, r);
  const bool same =
      static_cast<const void *>(&reads) == static_cast<const void *>(&writes);
  if (!same)
    rt::list_elements(writes, w);
  const std::vector<void *> &ws = same ? r : w;
  rt::region_sync_elements(rt::key_of<element>(), r.data(), r.size(), ws.data(),
                           ws.size(), &rt::call_it<fn>,
                           const_cast<void *>(static_cast<const void *>(&f)));
}
/// A synchronisation point in a view region, for code that soaview cannot
/// follow (an MPI exchange, a library of one's own): the region's fields of
/// the elements `lists` holds (a list of element pointers or elements, or a
/// list of such lists) are written back to the elements, `f()` runs as if
/// there were no region, and those elements' fields are gathered again, to
/// the device. The contract: f reads and writes no element the region holds
/// other than those in `lists`, and changes no list (the next sweep checks
/// the lists, and stops the region if they changed). What it writes to those
/// elements the region's sweeps see. Outside a region: f(). (docs/offload.md,
/// "Synchronisation points"; the plugin does not check f's body.)
template <class Lists, class F> void sync(const Lists &lists, F &&f) {
  sync(lists, lists, std::forward<F>(f));
}
/// The same for f that may touch any element: every view of the region is
/// written back before f and gathered again by the next sweep. Exact
/// whatever f does to the fields (it must not change the lists).
template <class F> void sync(F &&f) {
  using fn = std::remove_reference_t<F>;
  if (!region::current()) {
    f();
    return;
  }
  rt::region_sync_elements(nullptr, nullptr, 0, nullptr, 0, &rt::call_it<fn>,
                           const_cast<void *>(static_cast<const void *>(&f)));
}

} // namespace soaview

#endif // SOAVIEW_SYNC_H
