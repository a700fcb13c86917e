//===- soaview/detail/sweep_region.h - a sweep's views in a view region --===//
//
// Internals of sweeps (soaview/sweep.h), not an interface: how a sweep's
// two views use a view region's buffers (soaview/region.h). Functions
// without state: sweep_host binds its views with them when it joins a
// region, and hands the region bind_region, gather_region and
// scatter_region (resident::learn, resident::on_exit) for the region's own
// gathers and its write-back at the end.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_DETAIL_SWEEP_REGION_H
#define SOAVIEW_DETAIL_SWEEP_REGION_H

#include "soaview/detail/sweep_layout.h"
#include "soaview/region.h"

#include <cstddef>
#include <type_traits>

namespace soaview::rt {

template <class LSpec, class ISpec> struct sweep_region {
  using views = sweep_views<LSpec, ISpec>;
  using lelem = typename views::lelem;
  using ispec = typename views::ispec;

  /// Points a view's buffers (host soa h, device soa d) at the region's.
  template <class Spec>
  static void bind_spec(resident &r, typename Spec::soa &h,
                        typename Spec::soa &d) {
    auto at = [&](auto &p, const char *name, bool device) {
      using P = std::remove_reference_t<decltype(p)>;
      void *hb = nullptr, *db = nullptr;
      r.bind(name, sizeof(*p), hb, db);
      p = static_cast<P>(device ? db : hb);
    };
    Spec::fields(h, [&](auto &p, const char *name) { at(p, name, false); });
    Spec::fields(d, [&](auto &p, const char *name) { at(p, name, true); });
    h.soaview_address = nullptr;
    d.soaview_address = nullptr;
  }
  /// Gathers both views' fields of every region slot into the host buffers
  /// (those of fields already on the device are not copied again).
  static void gather_slots(const resident &r, typename LSpec::soa &ls,
                           typename ispec::soa &is) {
    void *const *e = r.elements();
    const std::size_t m = r.slots();
    SOAVIEW_PARALLEL_FOR
    for (std::size_t j = 0; j < m; ++j) {
      prefetch_ahead<lelem>(e, j, m);
      const lelem &x = *static_cast<const lelem *>(e[j]);
      LSpec::gather(ls, j, x);
      if constexpr (views::kInner)
        ISpec::gather(is, j, x);
    }
  }
  /// The region's gather of this sweep's views (resident::learn): binding
  /// their buffers, and slots [b, e) of them.
  static void bind_region(resident &r) {
    typename LSpec::soa hl{}, dl{};
    bind_spec<LSpec>(r, hl, dl);
    if constexpr (views::kInner) {
      typename ispec::soa hi{}, di{};
      bind_spec<ISpec>(r, hi, di);
    }
  }
  static void gather_region(resident &r, std::size_t b, std::size_t e) {
    typename LSpec::soa hl{};
    host_buffers<LSpec>(r, hl);
    typename ispec::soa hi{};
    if constexpr (views::kInner)
      host_buffers<ISpec>(r, hi);
    void *const *el = r.elements();
    for (std::size_t j = b; j < e; ++j) {
      prefetch_ahead<lelem>(el, j, e);
      const lelem &x = *static_cast<const lelem *>(el[j]);
      LSpec::gather(hl, j, x);
      if constexpr (views::kInner)
        ISpec::gather(hi, j, x);
    }
  }
  /// At the region's end: the local view's written fields of slots [b, e),
  /// from the region's host buffers into the elements.
  static void scatter_region(resident &r, std::size_t b, std::size_t e) {
    typename LSpec::soa hs{};
    host_buffers<LSpec>(r, hs);
    void *const *el = r.elements();
    for (std::size_t t = b; t < e; ++t) {
      prefetch_ahead<lelem, true>(el, t, e);
      LSpec::scatter(hs, t, *static_cast<lelem *>(el[t]));
    }
  }

private:
  /// Points a view's host buffers at the region's (after bind_spec).
  template <class Spec>
  static void host_buffers(const resident &r, typename Spec::soa &h) {
    Spec::fields(h, [&](auto &p, const char *name) {
      p = static_cast<std::remove_reference_t<decltype(p)>>(r.host(name));
    });
    h.soaview_address = nullptr;
  }
};

} // namespace soaview::rt

#endif // SOAVIEW_DETAIL_SWEEP_REGION_H
