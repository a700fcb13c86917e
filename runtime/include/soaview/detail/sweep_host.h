//===- soaview/detail/sweep_host.h - the host side of a sweep ------------===//
//
// Internals of sweeps (soaview/sweep.h, where the contracts are): the class
// every backend's sweep derives from. It records the cells' ranges, builds
// the slots and index (detail/sweep_state.h), gathers both views into a
// host block (detail/sweep_layout.h), and scatters the written fields when
// it ends; or, in a view region, binds the region's buffers instead
// (detail/sweep_region.h).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_DETAIL_SWEEP_HOST_H
#define SOAVIEW_DETAIL_SWEEP_HOST_H

#include "soaview/detail/sweep_layout.h"
#include "soaview/detail/sweep_region.h"
#include "soaview/detail/sweep_state.h"
#include "soaview/frame.h"
#include "soaview/region.h"
#include "soaview/sweep_index.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
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
  using views = rt::sweep_views<LSpec, ISpec>;
  using region_side = rt::sweep_region<LSpec, ISpec>;
  static constexpr bool kInner = views::kInner;
  static constexpr bool kScatters = Scatter && LSpec::writes;
  using lelem = typename views::lelem;
  using ispec = typename views::ispec;

public:
  explicit sweep_host(const site &s) : site_(s), st_(state()) {
    if (st_.busy)
      rt::refuse_sweep_recursion(s);
    st_.busy = true;
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
        const std::size_t n = layout_.n;
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

  /// Before the cells are recorded, in a view region whose code writes no
  /// list (region_lists::kept): whether this site recorded them at its last
  /// run from the same lists (`lists`: the addresses of the objects the
  /// loop over the cells reads, and nothing else), with no code run as
  /// outside the region since. Then those lists hold what they held, the
  /// ranges recorded then stand, and the generated code skips its loop over
  /// the cells.
  bool cells_kept(std::initializer_list<const void *> lists) {
    mark_ = rt::region_kept_mark();
    kept_ = mark_ != 0 && st_.kept_mark == mark_ &&
            std::equal(lists.begin(), lists.end(), st_.kept_lists.begin(),
                       st_.kept_lists.end());
    if (!kept_)
      st_.kept_lists.assign(lists.begin(), lists.end());
    return kept_;
  }

  /// Records one cell: its local range and its inner range (evaluated in
  /// the order the unswept nest evaluates them: the hoisted inner first).
  template <class I, class L> void cell(I &&inner, L &&local) {
    static_assert(kInner,
                  "soaview: a sweep without an inner loop takes one range");
    if (!recording_)
      begin_recording();
    add(st_.inner, std::forward<I>(inner));
    add(st_.local, std::forward<L>(local));
  }
  template <class L> void cell(L &&local) {
    static_assert(!kInner,
                  "soaview: a sweep with an inner loop takes two ranges");
    if (!recording_)
      begin_recording();
    add(st_.local, std::forward<L>(local));
  }

  /// Slots, index, runs and the gather of both views into host buffers.
  void prepare() {
    cells_recorded();
    rt::phase_clock clock(site_);
    rt::index_local(site_, st_, kScatters);
    layout_.n = st_.local_elems.size();
    if constexpr (kInner) {
      layout_.m = rt::index_inner(
          site_, st_, std::is_same_v<typename ISpec::element, lelem>);
    } else { // no inner loop: no runs
      st_.run_off.assign(st_.local.size() + 1, 0);
      st_.run_start.clear();
      st_.run_len.clear();
    }
    layout_.cells = st_.local.size();
    layout_.runs = st_.run_start.size();
    clock.mark(rt::phase::index);
    // Every inner slot a local slot (no element outside the local lists):
    // the fields both views read are gathered and copied once.
    layout_.share = views::kShares && layout_.m == layout_.n;
    host_.emplace(site_, layout_.bytes(), HostMemory);
    arena a(host_->data());
    layout_.carve(a, lsoa_, isoa_, hidx_);
    gather();
    gathered_ = true;
    clock.mark(rt::phase::gather);
  }

  /// Local slots (the kernel's iteration count).
  std::size_t size() const noexcept { return layout_.n; }

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
    cells_recorded();
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
      region_->learn(&region_side::bind_region, &region_side::gather_region);
      layout_.n = st_.region_count;
      typename LSpec::soa hl{};
      region_side::template bind_spec<LSpec>(*region_, hl, dl);
      typename ispec::soa hi{};
      if constexpr (kInner)
        region_side::template bind_spec<ISpec>(*region_, hi, di);
      if (region_->fresh()) {
        region_side::gather_slots(*region_, hl, hi);
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
      region_->on_exit(&region_side::scatter_region);
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

protected:
  using inner_soa = typename ispec::soa;

  const site &site_;
  rt::sweep_state &st_;
  /// Slot counts (layout_.n: the kernel's iteration count) and the block
  /// of a sweep outside a region.
  rt::sweep_layout<LSpec, ISpec> layout_;
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
  /// The cells: being recorded, kept from the last run (cells_kept), and
  /// the region's kept mark when cells_kept asked.
  bool recording_ = false, kept_ = false;
  std::uint64_t mark_ = 0;

private:
  static rt::sweep_state &state() {
    static thread_local rt::sweep_state s; // per site (spec) and thread
    return s;
  }

  /// The first cell of this run: the last run's ranges go.
  void begin_recording() {
    st_.local.clear();
    st_.inner.clear();
    st_.owned.clear();
    st_.kept_mark = 0;
    st_.recording = rt::next_unique();
    recording_ = true;
  }
  /// The cells are recorded (none: no range), or kept: with the region's
  /// kept mark, later runs from the same lists may keep them.
  void cells_recorded() {
    if (kept_)
      return;
    if (!recording_)
      begin_recording();
    st_.kept_mark = mark_;
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
    const std::size_t n = layout_.n;
    if constexpr (kInner) {
      using ielem = typename ISpec::element;
      void *const *ex = st_.extra.data();
      auto &is = isoa_;
      const std::size_t m = layout_.m, base = st_.inner_base;
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
                rt::kEntryBytes * layout_.n);
    std::memcpy(const_cast<std::uint32_t *>(hidx_.run_off), st_.run_off.data(),
                rt::kEntryBytes * (layout_.cells + 1));
    if (layout_.runs) {
      std::memcpy(const_cast<std::uint32_t *>(hidx_.run_start),
                  st_.run_start.data(), rt::kEntryBytes * layout_.runs);
      std::memcpy(const_cast<std::uint32_t *>(hidx_.run_len),
                  st_.run_len.data(), rt::kEntryBytes * layout_.runs);
    }
  }
};

} // namespace soaview

#endif // SOAVIEW_DETAIL_SWEEP_HOST_H
