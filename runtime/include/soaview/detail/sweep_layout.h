//===- soaview/detail/sweep_layout.h - a sweep's views and its block -----===//
//
// Internals of sweeps (soaview/sweep.h), not an interface:
//  * sweep_views: what a sweep's two specs say about it (an inner loop or
//    not, the element types, which buffers the inner view may share);
//  * sweep_layout: the one block a sweep outside a view region gathers
//    into on the host and copies whole to the device: the local view's
//    buffers, the inner view's own ones, then the index. bytes() counts it
//    in the order carve() lays it out (host and device blocks alike).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_DETAIL_SWEEP_LAYOUT_H
#define SOAVIEW_DETAIL_SWEEP_LAYOUT_H

#include "soaview/detail/sweep_state.h"
#include "soaview/frame.h"
#include "soaview/sweep_index.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace soaview::rt {

/// LSpec: the view of the cells' local loop; ISpec: the view of its inner
/// loop, or void.
template <class LSpec, class ISpec> struct sweep_views {
  static constexpr bool kInner = !std::is_void_v<ISpec>;
  using lelem = typename LSpec::element;
  /// The inner loop's spec (LSpec where there is none: never used then).
  using ispec = std::conditional_t<kInner, ISpec, LSpec>;
  /// The inner view can use the local view's buffers of the fields both
  /// read: one element type (its slots start with the local slots) and
  /// buffers named by both specs.
  static constexpr bool kShares =
      kInner && std::is_same_v<typename ispec::element, lelem> &&
      has_fields<LSpec>::value && has_fields<ispec>::value;
};

template <class LSpec, class ISpec> struct sweep_layout {
  using views = sweep_views<LSpec, ISpec>;
  using ispec = typename views::ispec;

  std::size_t n = 0;     ///< local slots
  std::size_t m = 0;     ///< inner slots
  std::size_t cells = 0; ///< cells recorded
  std::size_t runs = 0;  ///< inner runs
  bool share = false;    ///< the inner view uses local buffers (kShares)

  /// Bytes of the block.
  std::size_t bytes() const {
    std::size_t b = LSpec::bytes_for(n) + index_bytes();
    if constexpr (views::kInner)
      b += inner_bytes();
    return b;
  }
  /// Points both views' buffers (ls, is) and the index x into the block
  /// arena a hands out, in the order bytes() counts.
  template <class LS, class IS>
  void carve(arena &a, LS &ls, IS &is, sweep_index &x) const {
    LSpec::carve(ls, a, n);
    ls.soaview_address = nullptr; // identities are not offloaded
    if constexpr (views::kInner) {
      carve_inner(a, ls, is);
      is.soaview_address = nullptr;
    }
    x.cell_of = a.take<std::uint32_t>(n);
    x.run_off = a.take<std::uint32_t>(cells + 1);
    x.run_start = a.take<std::uint32_t>(runs);
    x.run_len = a.take<std::uint32_t>(runs);
  }

  /// Bytes of the index: slots, cells, then the runs' starts and lengths.
  std::size_t index_bytes() const {
    return arena::round_up(kEntryBytes * n) +
           arena::round_up(kEntryBytes * (cells + 1)) +
           2 * arena::round_up(kEntryBytes * runs);
  }

private:
  /// The inner view's own buffers: all of them, or (shared) those of fields
  /// the local view does not read.
  std::size_t inner_bytes() const {
    if constexpr (views::kShares) {
      if (share) {
        typename LSpec::soa ls{};
        typename ISpec::soa is{};
        std::size_t b = 0;
        own_buffers(ls, is,
                    [&](auto &p) { b += arena::round_up(sizeof(*p) * m); });
        return b;
      }
    }
    return ispec::bytes_for(m);
  }
  /// The inner view's buffers after the local view's (ls): shared ones
  /// point into ls, the others are carved in the order inner_bytes() counts.
  template <class LS, class IS>
  void carve_inner(arena &a, LS &ls, IS &is) const {
    if constexpr (views::kShares) {
      if (share) {
        own_buffers(ls, is, [&](auto &p) {
          using T = std::remove_pointer_t<std::remove_reference_t<decltype(p)>>;
          p = a.take<T>(m);
        });
        return;
      }
    }
    ispec::carve(is, a, m);
  }
  /// The one place that decides sharing: points each buffer of `is` whose
  /// field the local view also has (same name and type) at ls's buffer, and
  /// calls own(buffer) for the others, in the inner spec's order.
  template <class LS, class IS, class F>
  static void own_buffers(LS &ls, IS &is, F &&own) {
    ISpec::fields(is, [&](auto &p, const char *id) {
      using P = std::remove_reference_t<decltype(p)>;
      bool found = false;
      LSpec::fields(ls, [&](auto &q, const char *lid) {
        if constexpr (std::is_same_v<std::remove_reference_t<decltype(q)>, P>) {
          if (!found && !std::strcmp(id, lid)) {
            p = q;
            found = true;
          }
        }
      });
      if (!found)
        own(p);
    });
  }
};

} // namespace soaview::rt

#endif // SOAVIEW_DETAIL_SWEEP_LAYOUT_H
