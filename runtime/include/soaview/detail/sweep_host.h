//===- soaview/detail/sweep_host.h - the host side of a sweep ------------===//
//
// Internals of sweeps (soaview/sweep.h, where the contracts are): the class
// every backend's sweep derives from. It records the cells' ranges, builds
// the slots and index (detail/sweep_state.h), gathers both views into host
// buffers, and scatters the written fields when it ends; or, in a view
// region, binds the region's buffers instead.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_DETAIL_SWEEP_HOST_H
#define SOAVIEW_DETAIL_SWEEP_HOST_H

#include "soaview/detail/sweep_state.h"
#include "soaview/frame.h"
#include "soaview/region.h"
#include "soaview/sweep_index.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

namespace soaview {

/// The host side of one sweep invocation. LSpec: the view of the cells'
/// local loop; ISpec: the view of its inner loop, or void.
template <class LSpec, class ISpec, bool Scatter, const rt::backend *HostMemory>
class sweep_host {
  static_assert(is_spec_v<LSpec>, "soaview: the local loop's spec does not "
                                  "meet the contract of soaview/spec.h");
  static constexpr bool kInner = !std::is_void_v<ISpec>;
  static constexpr bool kScatters = Scatter && LSpec::writes;
  using lelem = typename LSpec::element;
  using ispec = std::conditional_t<kInner, ISpec, LSpec>;
  /// The inner view can use the local view's buffers of the fields both
  /// read: one element type (its slots start with the local slots) and
  /// buffers named by both specs.
  static constexpr bool kShares =
      kInner && std::is_same_v<typename ispec::element, lelem> &&
      rt::has_fields<LSpec>::value && rt::has_fields<ispec>::value;

public:
  explicit sweep_host(const site &s) : site_(s), st_(state()) {
    if (st_.busy)
      rt::refuse_sweep_recursion(s);
    st_.busy = true;
    st_.local.clear();
    st_.inner.clear();
    st_.owned.clear();
  }
  /// The buffers and index the kernel reads (the region's, the device
  /// copies, or the host's), captured by value by the generated loop.
  const typename LSpec::soa &local_buffers() const noexcept { return dl_; }
  const typename ispec::soa &inner_buffers() const noexcept { return di_; }
  const sweep_index &index() const noexcept { return dx_; }

  ~sweep_host() {
    if constexpr (kScatters) {
      if (gathered_) {
        rt::phase_clock clock(site_);
        void *const *lp = st_.local_elems.data();
        const auto &soa = lsoa_;
        const std::size_t n = n_;
        SOAVIEW_PARALLEL_FOR
        for (std::size_t t = 0; t < n; ++t) {
          rt::prefetch_ahead<lelem, true>(lp, t, n);
          LSpec::scatter(soa, t, *static_cast<lelem *>(lp[t]));
        }
        clock.mark(rt::phase::scatter);
      }
    }
    st_.busy = false;
  }
  sweep_host(const sweep_host &) = delete;
  sweep_host &operator=(const sweep_host &) = delete;

  /// Records one cell: its local range and its inner range (evaluated in
  /// the order the unswept nest evaluates them: the hoisted inner first).
  template <class I, class L> void cell(I &&inner, L &&local) {
    static_assert(kInner,
                  "soaview: a sweep without an inner loop takes one range");
    add(st_.inner, std::forward<I>(inner));
    add(st_.local, std::forward<L>(local));
  }
  template <class L> void cell(L &&local) {
    static_assert(!kInner,
                  "soaview: a sweep with an inner loop takes two ranges");
    add(st_.local, std::forward<L>(local));
  }

  /// Slots, index, runs and the gather of both views into host buffers.
  void prepare() {
    rt::phase_clock clock(site_);
    rt::index_local(site_, st_, kScatters);
    n_ = st_.local_elems.size();
    if constexpr (kInner) {
      m_ = rt::index_inner(site_, st_,
                           std::is_same_v<typename ISpec::element, lelem>);
    } else { // no inner loop: no runs
      st_.run_off.assign(st_.local.size() + 1, 0);
      st_.run_start.clear();
      st_.run_len.clear();
    }
    cells_ = st_.local.size();
    runs_ = st_.run_start.size();
    clock.mark(rt::phase::index);
    // Every inner slot a local slot (no element outside the local lists):
    // the fields both views read are gathered and copied once.
    share_ = kShares && m_ == n_;
    host_.emplace(site_, block_bytes(), HostMemory);
    arena a(host_->data());
    carve(a, lsoa_, isoa_, hidx_);
    gather();
    gathered_ = true;
    clock.mark(rt::phase::gather);
  }

  /// Local slots (the kernel's iteration count).
  std::size_t size() const noexcept { return n_; }

protected:
  /// In a view region (soaview/region.h): points the device buffers dl, di
  /// and the index dx at the region's, gathering and copying only fields no
  /// sweep of the region used before. False when no region runs on this
  /// thread, or when this sweep's two views have different element types
  /// or it writes a copy (then the region writes those types back first,
  /// and the sweep runs as outside a region).
  template <class LS, class IS>
  bool join_region(const rt::device_ops &ops, int device, LS &dl, IS &di,
                   sweep_index &dx, bool check_later = false) {
    if (!region::current())
      return false;
    if constexpr (!kJoins) {
      rt::region_flush(rt::key_of<lelem>());
      rt::region_flush(rt::key_of<typename ispec::element>());
      return false;
    } else {
      region_ = rt::region_join(site_, rt::key_of<lelem>(), ops, device, st_,
                                kScatters, kInner, dx, check_later);
      rt::phase_clock clock(site_);
      region_->learn(&bind_region, &gather_region);
      n_ = st_.region_count;
      typename LSpec::soa hl{};
      bind_spec<LSpec>(*region_, hl, dl);
      typename ispec::soa hi{};
      if constexpr (kInner)
        bind_spec<ISpec>(*region_, hi, di);
      if (region_->fresh()) {
        gather_slots(*region_, hl, hi);
        region_->upload();
      }
      // Local slot i is the region's slot region_first + i (a sweep over
      // part of the region's cells); inner slots are the region's.
      const std::size_t first = st_.region_first;
      LSpec::fields(dl, [&](auto &p, const char *) { p += first; });
      clock.mark(rt::phase::gather);
      return true;
    }
  }
  /// After the launch in a region: the fields the local view writes stay on
  /// the device, written back when the region ends.
  template <class LS> void region_wrote(const LS &dl) {
    if constexpr (kScatters) {
      if (!region_)
        return;
      LSpec::pairs(dl, dl, [&](const void *, void *d, std::size_t, bool w) {
        if (w)
          region_->written(d);
      });
      region_->on_exit(&scatter_region);
    }
  }
  bool in_region() const noexcept { return region_ != nullptr; }

private:
  /// Sweeps whose views share one element type join regions, unless their
  /// loop variable is a copy that the body writes: those writes must stay
  /// in the sweep, and a region's buffers are shared.
  static constexpr bool kJoins =
      (!kInner || std::is_same_v<typename ispec::element, lelem>) &&
      (Scatter || !LSpec::writes);
  /// Points a view's buffers (host soa h, device soa d) at the region's.
  template <class Spec>
  static void bind_spec(rt::resident &r, typename Spec::soa &h,
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
  static void gather_slots(const rt::resident &r, typename LSpec::soa &ls,
                           typename ispec::soa &is) {
    void *const *e = r.elements();
    const std::size_t m = r.slots();
    SOAVIEW_PARALLEL_FOR
    for (std::size_t j = 0; j < m; ++j) {
      rt::prefetch_ahead<lelem>(e, j, m);
      const lelem &x = *static_cast<const lelem *>(e[j]);
      LSpec::gather(ls, j, x);
      if constexpr (kInner)
        ISpec::gather(is, j, x);
    }
  }
  /// Points a view's host buffers at the region's (after bind_spec).
  template <class Spec>
  static void host_buffers(const rt::resident &r, typename Spec::soa &h) {
    Spec::fields(h, [&](auto &p, const char *name) {
      p = static_cast<std::remove_reference_t<decltype(p)>>(r.host(name));
    });
    h.soaview_address = nullptr;
  }
  /// The region's gather of this sweep's views (resident::learn): binding
  /// their buffers, and slots [b, e) of them.
  static void bind_region(rt::resident &r) {
    typename LSpec::soa hl{}, dl{};
    bind_spec<LSpec>(r, hl, dl);
    if constexpr (kInner) {
      typename ispec::soa hi{}, di{};
      bind_spec<ISpec>(r, hi, di);
    }
  }
  static void gather_region(rt::resident &r, std::size_t b, std::size_t e) {
    typename LSpec::soa hl{};
    host_buffers<LSpec>(r, hl);
    typename ispec::soa hi{};
    if constexpr (kInner)
      host_buffers<ISpec>(r, hi);
    void *const *el = r.elements();
    for (std::size_t j = b; j < e; ++j) {
      rt::prefetch_ahead<lelem>(el, j, e);
      const lelem &x = *static_cast<const lelem *>(el[j]);
      LSpec::gather(hl, j, x);
      if constexpr (kInner)
        ISpec::gather(hi, j, x);
    }
  }
  /// At the region's end: the local view's written fields of slots [b, e),
  /// from the region's host buffers into the elements.
  static void scatter_region(rt::resident &r, std::size_t b, std::size_t e) {
    typename LSpec::soa hs{};
    host_buffers<LSpec>(r, hs);
    void *const *el = r.elements();
    for (std::size_t t = b; t < e; ++t) {
      rt::prefetch_ahead<lelem, true>(el, t, e);
      LSpec::scatter(hs, t, *static_cast<lelem *>(el[t]));
    }
  }

protected:
  /// Bytes of one block holding both views' buffers and the index, in the
  /// order carve() lays them out (host and device blocks alike).
  std::size_t block_bytes() const {
    std::size_t b = LSpec::bytes_for(n_) + index_bytes();
    if constexpr (kInner)
      b += inner_bytes();
    return b;
  }
  /// The inner view's own buffers: all of them, or (shared) those of fields
  /// the local view does not read.
  std::size_t inner_bytes() const {
    if constexpr (kShares) {
      if (share_) {
        typename LSpec::soa ls{};
        typename ISpec::soa is{};
        std::size_t b = 0;
        own_buffers(ls, is,
                    [&](auto &p) { b += arena::round_up(sizeof(*p) * m_); });
        return b;
      }
    }
    return ispec::bytes_for(m_);
  }
  std::size_t index_bytes() const {
    return arena::round_up(rt::kEntryBytes * n_) +
           arena::round_up(rt::kEntryBytes * (cells_ + 1)) +
           2 * arena::round_up(rt::kEntryBytes * runs_);
  }
  template <class LS, class IS>
  void carve(arena &a, LS &ls, IS &is, sweep_index &x) const {
    LSpec::carve(ls, a, n_);
    ls.soaview_address = nullptr; // identities are not offloaded
    if constexpr (kInner) {
      carve_inner(a, ls, is);
      is.soaview_address = nullptr;
    }
    x.cell_of = a.take<std::uint32_t>(n_);
    x.run_off = a.take<std::uint32_t>(cells_ + 1);
    x.run_start = a.take<std::uint32_t>(runs_);
    x.run_len = a.take<std::uint32_t>(runs_);
  }

  /// The inner view's buffers after the local view's (ls): shared ones
  /// point into ls, the others are carved in the order inner_bytes() counts.
  template <class LS, class IS>
  void carve_inner(arena &a, LS &ls, IS &is) const {
    if constexpr (kShares) {
      if (share_) {
        own_buffers(ls, is, [&](auto &p) {
          using T = std::remove_pointer_t<std::remove_reference_t<decltype(p)>>;
          p = a.take<T>(m_);
        });
        return;
      }
    }
    ispec::carve(is, a, m_);
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

  using inner_soa = typename ispec::soa;

  const site &site_;
  rt::sweep_state &st_;
  std::size_t n_ = 0, m_ = 0, cells_ = 0, runs_ = 0;
  bool share_ = false; ///< the inner view uses local buffers (kShares)
  std::optional<lease> host_;
  typename LSpec::soa lsoa_{};
  inner_soa isoa_{};
  sweep_index hidx_{};
  /// What local_buffers(), inner_buffers() and index() hand the kernel,
  /// set by the backend's start().
  typename LSpec::soa dl_{};
  inner_soa di_{};
  sweep_index dx_{};
  bool gathered_ = false;
  rt::resident *region_ = nullptr; ///< the region this sweep joined

private:
  static rt::sweep_state &state() {
    static thread_local rt::sweep_state s; // per site (spec) and thread
    return s;
  }

  template <class R> void add(std::vector<rt::sweep_range> &v, R &&r) {
    using Rng = std::remove_reference_t<R>;
    std::size_t n = range_size(r);
    if constexpr (std::is_lvalue_reference_v<R &&> &&
                  rt::is_contiguous<Rng>::value) {
      auto *d = data_of(r);
      auto first = rt::begin_of(r, 0);
      if (n == 0 || (__builtin_addressof(*first) == d &&
                     __builtin_addressof(*(first + (n - 1))) == d + (n - 1))) {
        v.push_back({static_cast<const void *>(d), n,
                     yields_pointers_v<Rng> ? 0 : sizeof(*d), 0});
        return;
      }
    }
    std::size_t off = st_.owned.size();
    for (auto &&e : r)
      st_.owned.push_back(
          const_cast<void *>(static_cast<const void *>(address(e))));
    v.push_back({nullptr, n, 0, off});
  }

  /// Both views' gathers; where the inner slots start with the local ones
  /// (one element type), one pass reads each element once for both.
  void gather() {
    void *const *lp = st_.local_elems.data();
    auto &ls = lsoa_;
    const std::size_t n = n_;
    if constexpr (kInner) {
      using ielem = typename ISpec::element;
      void *const *ex = st_.extra.data();
      auto &is = isoa_;
      const std::size_t m = m_, base = st_.inner_base;
      if constexpr (std::is_same_v<ielem, lelem>) {
        SOAVIEW_PARALLEL_FOR
        for (std::size_t t = 0; t < n; ++t) {
          rt::prefetch_ahead<lelem>(lp, t, n);
          const lelem &e = *static_cast<const lelem *>(lp[t]);
          LSpec::gather(ls, t, e);
          if (t < base)
            ISpec::gather(is, t, e);
        }
      } else {
        SOAVIEW_PARALLEL_FOR
        for (std::size_t t = 0; t < n; ++t) {
          rt::prefetch_ahead<lelem>(lp, t, n);
          LSpec::gather(ls, t, *static_cast<const lelem *>(lp[t]));
        }
      }
      SOAVIEW_PARALLEL_FOR
      for (std::size_t j = base; j < m; ++j) {
        rt::prefetch_ahead<ielem>(ex, j - base, m - base);
        ISpec::gather(is, j, *static_cast<const ielem *>(ex[j - base]));
      }
    } else {
      SOAVIEW_PARALLEL_FOR
      for (std::size_t t = 0; t < n; ++t) {
        rt::prefetch_ahead<lelem>(lp, t, n);
        LSpec::gather(ls, t, *static_cast<const lelem *>(lp[t]));
      }
    }
    std::memcpy(const_cast<std::uint32_t *>(hidx_.cell_of), st_.cell_of.data(),
                rt::kEntryBytes * n_);
    std::memcpy(const_cast<std::uint32_t *>(hidx_.run_off), st_.run_off.data(),
                rt::kEntryBytes * (cells_ + 1));
    if (runs_) {
      std::memcpy(const_cast<std::uint32_t *>(hidx_.run_start),
                  st_.run_start.data(), rt::kEntryBytes * runs_);
      std::memcpy(const_cast<std::uint32_t *>(hidx_.run_len),
                  st_.run_len.data(), rt::kEntryBytes * runs_);
    }
  }
};

} // namespace soaview

#endif // SOAVIEW_DETAIL_SWEEP_HOST_H
