//===- soaview/spec.h - what generated code provides, and view helpers -*- C++
//-*-===//
//
// The contract between the plugin and the runtime: for each loop site and
// element type the plugin generates a spec (a struct) and a view (the
// proxy). A frame checks its spec with is_spec_v at compile time, so a
// mismatch is one readable error, not a page of template errors.
//
// A view (the proxy) stands in for the element wherever the element stood:
// one view type per element type and nest, shared by the nest's loops over
// that type, each loop building it from its own spec (a constructor per
// loop, told apart by loop_tag<K>; the fields another loop uses stay
// unset). A view declares `static constexpr bool soaview_is_view = true`
// and `using soaview_element = <element type>`; clones of the user's
// functions accept it through if_views<stands_for<...>...>.
//
// A spec S provides:
//   S::element, S::view              the element type and its proxy
//   S::soa                           the buffers: one pointer per field
//                                    (per component of a split array),
//                                    plus `const void *const *soaview_address`
//   S::writes                        constexpr bool: the loop writes fields
//   S::bytes_for(n)                  bytes of the buffers for n elements
//   S::carve(soa &, arena &, n)      points the buffers into an arena
//   S::gather(soa &, i, const element &)   element -> slot i
//   S::scatter(const soa &, i, element &)  slot i -> element (written fields)
//   S::pairs(const soa &h, const soa &d, f) calls f(host, device, elem bytes,
//                                    written) per buffer (device copies)
//   S::at(const soa &, i)            the view of slot i
// and optionally (the plugin emits it for the views of sweeps):
//   S::fields(soa &, f)              calls f(buffer, "field") per buffer,
//                                    the buffer by reference and the
//                                    element's field it holds (`x[1]` for
//                                    a component), so that a sweep's inner
//                                    view can use the local view's buffers
//                                    (soaview/sweep.h)
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SPEC_H
#define SOAVIEW_SPEC_H

#include "soaview/pool.h"

#include <cstddef>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace soaview {

namespace rt {
template <class S, class = void> struct is_spec : std::false_type {};
template <class S>
struct is_spec<
    S, std::void_t<typename S::element, typename S::view, typename S::soa,
                   decltype(bool(S::writes)),
                   decltype(std::size_t(S::bytes_for(std::size_t()))),
                   decltype(S::carve(std::declval<typename S::soa &>(),
                                     std::declval<arena &>(), std::size_t())),
                   decltype(S::gather(
                       std::declval<typename S::soa &>(), std::size_t(),
                       std::declval<const typename S::element &>())),
                   decltype(S::scatter(std::declval<const typename S::soa &>(),
                                       std::size_t(),
                                       std::declval<typename S::element &>())),
                   decltype(S::at(std::declval<const typename S::soa &>(),
                                  std::size_t()))>>
    : std::is_same<decltype(S::at(std::declval<const typename S::soa &>(),
                                  std::size_t())),
                   typename S::view> {};
/// Gathers and scatters over lists of pointers wait on memory one element
/// after the other: the elements lie anywhere on the heap, so no hardware
/// prefetcher sees the next one coming. The loops that gather or scatter
/// slot by slot (soaview/frame.h, soaview/sweep.h) therefore request the
/// cache lines of the element kPrefetchAhead slots ahead: at most
/// kPrefetchBytes of it from its address (all of a smaller element, whose
/// fields lie anywhere in it). A prefetch is a hint: it faults on nothing
/// and changes no value.
inline constexpr std::size_t kPrefetchAhead = 8;
inline constexpr std::size_t kPrefetchBytes = 512;
template <class E, bool Write = false>
inline void prefetch_element(const void *p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  constexpr std::size_t bytes =
      sizeof(E) < kPrefetchBytes ? sizeof(E) : kPrefetchBytes;
  const char *c = static_cast<const char *>(p);
  for (std::size_t o = 0; o < bytes; o += 64)
    __builtin_prefetch(c + o, Write ? 1 : 0, 3);
  // The last line, which the loop misses when p is not aligned to a line.
  __builtin_prefetch(c + bytes - 1, Write ? 1 : 0, 3);
#else
  (void)p;
#endif
}
/// Prefetches element t + kPrefetchAhead of the n at e, if there is one.
template <class E, bool Write = false>
inline void prefetch_ahead(void *const *e, std::size_t t,
                           std::size_t n) noexcept {
  if (t + kPrefetchAhead < n)
    prefetch_element<E, Write>(e[t + kPrefetchAhead]);
}
} // namespace rt

/// True when S meets the spec contract above.
template <class S> inline constexpr bool is_spec_v = rt::is_spec<S>::value;

/// Tells a view's constructors apart: the view of the nest's loop K.
template <int K> struct loop_tag {};

/// True for soaview's views (the proxies generated code declares).
template <class T, class = void> struct is_view : std::false_type {};
template <class T>
struct is_view<T, std::enable_if_t<std::remove_cv_t<T>::soaview_is_view>>
    : std::true_type {};

/// An argument of type T where the user's function takes an Element: the
/// element itself or a view of it (a view names its element type
/// `soaview_element`).
template <class T, class Element, bool = is_view<T>::value> struct stands_for {
  static constexpr bool view = false;
  static constexpr bool value =
      std::is_same_v<std::remove_cv_t<T>, std::remove_cv_t<Element>>;
};
template <class T, class Element> struct stands_for<T, Element, true> {
  static constexpr bool view = true;
  static constexpr bool value =
      std::is_same_v<typename std::remove_cv_t<T>::soaview_element,
                     std::remove_cv_t<Element>>;
};

/// The default template argument of soaview's clones of functions that take
/// elements (`template <class E0, class E1,
/// if_views<stands_for<E0, P>, stands_for<E1, P>> = 0>`): viable only when
/// every element argument stands for the element the user's function takes
/// and one of them at least is a view, so that every call with the user's
/// own objects still calls the user's function, and each overload of the
/// user's keeps its own clone.
template <class... Args>
using if_views =
    std::enable_if_t<(Args::value && ...) && (Args::view || ...), int>;

/// Where a view writes one field back when its iteration ends. Moves with
/// the view it was made for; a copy of a view (`auto c = *p` in the loop
/// body) is a copy of the element and writes nothing back.
template <class T> struct out_slot {
  T *p;
  SOAVIEW_HD out_slot(T *slot) noexcept : p(slot) {}
  SOAVIEW_HD out_slot(const out_slot &) noexcept : p(nullptr) {}
  // Assignment keeps the slot's own target: self-assignment needs no guard.
  // NOLINTNEXTLINE(bugprone-unhandled-self-assignment)
  SOAVIEW_HD out_slot &operator=(const out_slot &) noexcept { return *this; }
};

/// The element slot i of a host frame's buffers s stands for: views reach
/// their fields in place through it (a field one view writes and another
/// holds). Host frames only: device buffers keep no addresses.
template <class E, class S> E &element_at(const S &s, std::size_t i) noexcept {
  return *const_cast<E *>(static_cast<const E *>(s.soaview_address[i]));
}

/// Element-wise copy of an array field between a view and its slot. Views
/// that run in CUDA kernels use it: memcpy in device code copies byte by
/// byte, this copies whole elements.
template <class T> SOAVIEW_HD void copy_array(T &dst, const T &src) noexcept {
  if constexpr (std::is_array_v<T>) {
    for (std::size_t k = 0; k < std::extent_v<T>; ++k)
      copy_array(dst[k], src[k]);
  } else {
    dst = src;
  }
}

/// The address of the original element behind a view: generated code
/// compares element addresses through it (`p != q` between two views). Any
/// other pointer is its own identity: the comparison may be in a template
/// that the user's own objects instantiate too.
template <class V> const void *identity(const V *v) noexcept {
  if constexpr (is_view<V>::value)
    return v->soaview_address;
  else
    return v;
}

#if defined(__cpp_rtti) || defined(__GXX_RTTI)
/// Whether the object's dynamic type is its static type T. A converted nest
/// that calls a virtual member function of T with an element runs T's
/// override, so it runs only when this holds when the nest starts (the nest
/// as written runs otherwise). Host code, with RTTI.
template <class T> bool exact_type(const T &object) noexcept {
  return typeid(object) == typeid(T);
}
/// The same for the object a pointer points to; false for a null pointer.
template <class T> bool exact_pointee(const T *object) noexcept {
  return object != nullptr && typeid(*object) == typeid(T);
}
#endif

} // namespace soaview

#endif // SOAVIEW_SPEC_H
