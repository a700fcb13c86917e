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
  using fn = std::remove_reference_t<F>;
  if (!region::current()) {
    f();
    return;
  }
  std::vector<void *> elems;
  rt::list_elements(lists, elems);
  rt::region_sync_elements(rt::key_of<typename rt::list_element<Lists>::type>(),
                           elems.data(), elems.size(), &rt::call_it<fn>,
                           const_cast<void *>(static_cast<const void *>(&f)));
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
  rt::region_sync_elements(nullptr, nullptr, 0, &rt::call_it<fn>,
                           const_cast<void *>(static_cast<const void *>(&f)));
}

} // namespace soaview

#endif // SOAVIEW_SYNC_H
