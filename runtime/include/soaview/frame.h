//===- soaview/frame.h - one invocation of a converted loop ------*- C++
//-*-===//
//
// Ranges and index spans the frames are built from, the frame (gather,
// views, scatter) and the coalesced device copies of a frame's buffers.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_FRAME_H
#define SOAVIEW_FRAME_H

#include "soaview/pool.h"
#include "soaview/region.h"
#include "soaview/spec.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

// Neither <iterator> nor <memory>: every converted translation unit parses
// this header, and those two cost more to parse than the rest of the runtime
// (docs/benchmarks.md, "Compile time"). The range helpers below follow the
// range-for rules themselves.

namespace soaview {

//===-- ranges
//--------------------------------------------------------------===//

namespace rt {
/// begin(r) and end(r) as a range-for statement finds them: the members
/// when the range has them, else the functions argument-dependent lookup
/// finds; arrays decay to pointers.
template <class T, std::size_t N> T *begin_of(T (&a)[N], int) noexcept {
  return a;
}
template <class T, std::size_t N> T *end_of(T (&a)[N], int) noexcept {
  return a + N;
}
template <class R> auto begin_of(R &r, int) -> decltype(r.begin()) {
  return r.begin();
}
template <class R> auto end_of(R &r, int) -> decltype(r.end()) {
  return r.end();
}
template <class R> auto begin_of(R &r, long) -> decltype(begin(r)) {
  return begin(r);
}
template <class R> auto end_of(R &r, long) -> decltype(end(r)) {
  return end(r);
}
} // namespace rt

template <class R>
using range_value_t =
    std::remove_reference_t<decltype(*rt::begin_of(std::declval<R &>(), 0))>;

/// The struct type a range iterates: Particle for vector<Particle>,
/// list<Particle*>, Particle[8], ...
template <class R>
using element_of_t =
    std::remove_cv_t<std::remove_pointer_t<std::remove_cv_t<range_value_t<R>>>>;

/// The template arguments of one instantiation of a template holding a
/// converted loop, as a type: where instantiations with one element type use
/// different fields, a loop selects its spec by these as well. Non-type
/// arguments go in as value_key<N>.
template <class...> struct instance_key {};
template <auto> struct value_key {};

template <class R>
inline constexpr bool yields_pointers_v =
    std::is_pointer_v<std::remove_cv_t<range_value_t<R>>>;

/// Whether the elements of a range outlive the step of the loop that
/// reaches them: it yields pointers or references (not values made on
/// the fly, as a transforming view's are).
template <class R>
inline constexpr bool yields_lasting_v =
    yields_pointers_v<R> ||
    std::is_lvalue_reference_v<decltype(*rt::begin_of(std::declval<R &>(), 0))>;

template <class R, class = void> struct has_size : std::false_type {};
template <class R>
struct has_size<R, std::void_t<decltype(std::declval<R &>().size())>>
    : std::true_type {};

template <class R> std::size_t range_size(R &r) {
  if constexpr (std::is_array_v<R>) {
    return std::extent_v<R>;
  } else if constexpr (has_size<R>::value) {
    return static_cast<std::size_t>(r.size());
  } else {
    std::size_t n = 0;
    // The end may be a sentinel of another type (a range-for allows it).
    auto it = rt::begin_of(r, 0);
    const auto e = rt::end_of(r, 0);
    for (; it != e; ++it)
      ++n;
    return n;
  }
}

/// The elements of a range-for whose variable is a structured binding,
/// `for (auto &[key, p] : r)`: pick(e) is the binding that stands for the
/// element (`p`), of each element e of r. Iterates r itself, once per pass;
/// frames gather from it as from any range.
template <class R, class Pick> class picked {
  using base_iterator = decltype(rt::begin_of(std::declval<R &>(), 0));
  using base_sentinel = decltype(rt::end_of(std::declval<R &>(), 0));

public:
  class sentinel {
    base_sentinel end_;

  public:
    explicit sentinel(base_sentinel e) : end_(e) {}
    const base_sentinel &base() const { return end_; }
  };
  class iterator {
    base_iterator it_;
    const Pick *pick_;

  public:
    iterator(base_iterator it, const Pick *pick) : it_(it), pick_(pick) {}
    decltype(auto) operator*() const { return (*pick_)(*it_); }
    iterator &operator++() {
      ++it_;
      return *this;
    }
    bool operator!=(const sentinel &s) const { return it_ != s.base(); }
  };
  picked(R &r, Pick pick) : r_(r), pick_(pick) {}
  iterator begin() const { return iterator(rt::begin_of(r_, 0), &pick_); }
  sentinel end() const { return sentinel(rt::end_of(r_, 0)); }
  std::size_t size() const { return range_size(r_); }
  /// The range as written (its elements hold the other bindings).
  R &base() const { return r_; }

private:
  R &r_;
  Pick pick_;
};
template <class R, class Pick> picked<R, Pick> pick(R &r, Pick p) {
  return picked<R, Pick>(r, p);
}

/// Iteration i of a converted binding loop and the element of the range as
/// written that the other bindings bind to, advanced together.
template <class It> struct binding_cursor {
  std::size_t i;
  It it;
  void next() {
    ++i;
    ++it;
  }
};
template <class R, class Pick> auto cursor(const picked<R, Pick> &p) {
  using It = decltype(rt::begin_of(p.base(), 0));
  return binding_cursor<It>{0, rt::begin_of(p.base(), 0)};
}

/// The profitability rule at run time (docs/semantics.md, "Small nests"):
/// a nest whose inner view is built once for the whole outer loop (hoisted)
/// gathers outer + inner elements and runs outer * inner pairs. Gathering
/// costs per element what tens of pairs cost, so the nest runs converted
/// only when the pairs are at least min_pairs_per_element times the
/// elements gathered; generated code runs the nest as written otherwise.
/// (The plugin's remark quotes it: rt::MinPairsPerElement, RuntimeNames.h.)
/// Measured on SWIFT's force loops (docs/real-codes.md): 28 pairs per
/// element ran 1.07-1.21x plain, 85 ran 0.82-1.01x; the SPH demonstrator's
/// smallest cells (ppc 64) have 51-58 and run faster converted.
inline constexpr std::size_t min_pairs_per_element = 48;
/// Whether a nest of `outer` x `inner` iterations pays for its gathers.
constexpr bool pays_off(std::size_t outer, std::size_t inner) noexcept {
  // outer * inner >= K * (outer + inner), in double: no overflow
  return double(outer) * double(inner) >=
         double(min_pairs_per_element) * (double(outer) + double(inner));
}

template <class T> T *address(T *p) noexcept { return p; }
template <class T> T *address(T &e) noexcept { return __builtin_addressof(e); }

/// The elements target[lo, lo+count) of an index loop, as a range.
template <class T> struct index_span {
  T *first;
  std::size_t count;
  T *begin() const noexcept { return first; }
  T *end() const noexcept { return first + count; }
  std::size_t size() const noexcept { return count; }
};

/// The range [first, last) of an iterator loop, `for (auto it = first;
/// it != last; ++it)`: frames gather from it as from any range (it has no
/// size(), so range_size counts it).
template <class B, class E> struct iterator_range {
  B first;
  E last;
  B begin() const { return first; }
  E end() const { return last; }
};
template <class B, class E> iterator_range<B, E> iterators(B first, E last) {
  return {first, last};
}

/// The end of an iterator loop whose condition asks the iterator itself,
/// `for (auto it = c.begin(); it.isValid(); ++it)`: an iterator is unequal
/// to it while `valid(it)` holds (`valid` is the condition as written, as a
/// generic lambda of the iterator; it must not change the iterator).
template <class Valid> struct valid_sentinel {
  Valid valid;
};
template <class It, class Valid>
bool operator!=(const It &it, const valid_sentinel<Valid> &end) {
  return static_cast<bool>(end.valid(it));
}
template <class It, class Valid>
bool operator==(const It &it, const valid_sentinel<Valid> &end) {
  return !(it != end);
}
template <class Valid> valid_sentinel<Valid> while_valid(Valid valid) {
  return {valid};
}

/// Count of iterations of `for (i = lo; i < hi; ++i)`, compared in the
/// types the loop itself compares.
template <class I, class H> std::size_t trip_count(I lo, H hi) noexcept {
  return lo < hi ? static_cast<std::size_t>(hi - lo) : 0;
}

/// First element of an index-loop target: T* itself, T[N], or a container
/// with data().
template <class T> auto data_of(T &t) noexcept {
  if constexpr (std::is_pointer_v<T>)
    return t;
  else if constexpr (std::is_array_v<T>)
    return &t[0];
  else
    return t.data();
}

template <class T>
using target_element_t = std::remove_cv_t<
    std::remove_reference_t<decltype(*data_of(std::declval<T &>()))>>;

/// How an index loop's condition bounds its index: `i < hi`, `i <= hi`,
/// `i != hi` (docs/attributes.md, "Loop forms").
enum class bound { below, up_to, until };

namespace rt {
/// Stops the program: an `i != hi` loop that starts past hi runs, as
/// written, until its index wraps around.
[[noreturn]] void index_past_bound(const site &s) noexcept;
} // namespace rt

/// Count of iterations of `for (i = lo; i OP hi; ++i)` with OP as B says,
/// compared in the types the loop itself compares.
template <bound B, class I, class H>
std::size_t index_trips(const site &s, I lo, H hi) noexcept {
  if constexpr (B == bound::up_to)
    return lo <= hi ? static_cast<std::size_t>(hi - lo) + 1 : 0;
  else if constexpr (B == bound::until) {
    if (lo < hi || lo == hi)
      return trip_count(lo, hi);
    rt::index_past_bound(s);
  } else
    return trip_count(lo, hi);
}

/// The n elements target[first, first + n) of an index loop whose element
/// is target[i + c]: first is lo + c (generated code evaluates it only
/// when n > 0, as the loop itself does).
template <class T, class F>
auto index_span_at(T &target, std::size_t n, F first) noexcept {
  using E = std::remove_reference_t<decltype(*data_of(target))>;
  return index_span<E>{n ? data_of(target) + first : nullptr, n};
}

/// The n elements target[list[first]], ..., target[list[first + n - 1]] of
/// a neighbour-list loop, whose element is target[list[i + c]] (first is
/// lo + c), as a range of pointers: the frame gives an index listed twice
/// one slot, as it does a pointer a container holds twice. The list (a
/// pointer, an array or a container of integers) is read while the frame
/// gathers, before the loop runs; the body may not change it.
template <class E, class L> struct index_list {
  E *target;
  const L *list;
  std::ptrdiff_t first;
  std::size_t count;
  struct iterator {
    const index_list *r;
    std::size_t k;
    E *operator*() const noexcept {
      return r->target + (*r->list)[r->first + static_cast<std::ptrdiff_t>(k)];
    }
    iterator &operator++() noexcept {
      ++k;
      return *this;
    }
    bool operator!=(const iterator &o) const noexcept { return k != o.k; }
  };
  iterator begin() const noexcept { return {this, 0}; }
  iterator end() const noexcept { return {this, count}; }
  std::size_t size() const noexcept { return count; }
};
template <class T, class L, class F>
auto index_list_at(T &target, const L &list, std::size_t n, F first) noexcept {
  using E = std::remove_reference_t<decltype(*data_of(target))>;
  return index_list<E, L>{data_of(target), &list,
                          static_cast<std::ptrdiff_t>(first), n};
}

/// The index-loop target shadow: `buf[i]` in the loop body yields the view of
/// element i. soaview only accepts bodies whose every use of the element is
/// `buf[i + c]` (or `buf[list[i + c]]`, with one c), so the subscript need not
/// be looked at.
template <class V> struct index_shadow {
  V &current;
  template <class I> SOAVIEW_HD V &operator[](I) const noexcept {
    return current;
  }
};

//===-- frames
//--------------------------------------------------------------===//

/// A frame's slots as a value: its buffers, its count and its repeat map
/// (frame::each, frame::at_slot). A loop inside other loops walks a copy
/// made before them: a local the compiler keeps in registers, so that it
/// checks the buffers for overlap once, before the loops around, not on
/// every pass (the frame itself is in memory that calls may change).
template <class Spec> struct frame_slots {
  typename Spec::soa soa;
  std::size_t n;
  const std::size_t *remap;

  template <class F> void each(F &&f) const {
    if (remap)
      for (std::size_t i = 0; i < n; ++i)
        f(remap[i]);
    else
      for (std::size_t i = 0; i < n; ++i)
        f(i);
  }
  typename Spec::view at(std::size_t slot) const noexcept {
    return Spec::at(soa, slot);
  }
};

/// One invocation of a converted loop: leases buffers, gathers the view's
/// fields, hands out views, scatters the written fields back on destruction
/// (also on break, return, goto and exceptions).
///
/// Spec is generated per (loop site, element type): see soaview/spec.h.
///
/// Packed (read-only views only, see packed_frame): the frame also builds
/// every view once, into an array in the same lease, and at(i) returns a
/// reference to view i.
template <class Spec, bool Scatter = true,
          const rt::backend *HostMemory = nullptr, bool Packed = false>
class frame {
  static_assert(is_spec_v<Spec>, "soaview: Spec does not meet the spec "
                                 "contract of soaview/spec.h");
  static_assert(!Packed || !Spec::writes,
                "soaview: only views that write nothing are packed");
  static_assert(!Packed || alignof(typename Spec::view) <= kAlignment,
                "soaview: a packed view is aligned beyond the pool's blocks");
  using element = typename Spec::element;
  using view = typename Spec::view;
  static constexpr bool kScatters = Scatter && Spec::writes;

public:
  template <class Range>
  frame(const site &s, Range &&r)
      : site_(s), n_(range_size(r)),
        lease_(s, bytes_for<Range>(n_), HostMemory) {
    rt::phase_clock clock(s);
    if (region::current()) // a view region's sweeps hold these elements
      rt::region_flush(rt::key_of<element>());
    arena a(lease_.data());
    elems_ = a.take<element *>(n_);
    Spec::carve(soa_, a, n_);
    soa_.soaview_address = reinterpret_cast<const void *const *>(elems_);
    std::size_t i = 0;
    for (auto &&e : r) {
      // Ranges of `const T *` (or const containers) hold const elements:
      // only a loop that writes fields scatters through this pointer, and
      // it writes nothing the user's loop could not write (mutable fields).
      elems_[i] = const_cast<element *>(address(e));
      if constexpr (!yields_lasting_v<Range>)
        Spec::gather(soa_, i, *elems_[i]); // e ends with this step
      ++i;
    }
    if constexpr (yields_lasting_v<Range>) { // gathered with a prefetch
      void *const *ep = reinterpret_cast<void *const *>(elems_);
      for (i = 0; i < n_; ++i) {
        rt::prefetch_ahead<element>(ep, i, n_);
        Spec::gather(soa_, i, *elems_[i]);
      }
    }
    if constexpr (kScatters && yields_pointers_v<Range>) {
      auto *remap = a.take<std::size_t>(n_);
      remap_ =
          rt::find_duplicates(reinterpret_cast<const void *const *>(elems_), n_,
                              remap, a.take_bytes(rt::scratch_bytes(n_)));
    }
    if constexpr (Packed) {
      views_ = a.take<view>(n_);
      for (std::size_t k = 0; k < n_; ++k)
        ::new (static_cast<void *>(views_ + k)) view(Spec::at(soa_, k));
    }
    clock.mark(rt::phase::gather);
  }
  ~frame() {
    if constexpr (Packed)
      for (std::size_t k = 0; k < n_; ++k)
        views_[k].~view();
    if constexpr (kScatters) {
      if (discarded_)
        return;
      rt::phase_clock clock(site_);
      void *const *ep = reinterpret_cast<void *const *>(elems_);
      for (std::size_t i = 0; i < n_; ++i) {
        rt::prefetch_ahead<element, true>(ep, i, n_);
        if (!remap_ || remap_[i] == i)
          Spec::scatter(soa_, i, *elems_[i]);
      }
      clock.mark(rt::phase::scatter);
    }
  }
  frame(const frame &) = delete;
  frame &operator=(const frame &) = delete;

  std::size_t size() const noexcept { return n_; }
  /// The view of iteration i: built from the buffers (a value), or, packed,
  /// the one built for it (a reference).
  decltype(auto) at(std::size_t i) const noexcept {
    if constexpr (Packed)
      return static_cast<view &>(views_[i]);
    else if constexpr (kScatters)
      return Spec::at(soa_, remap_ ? remap_[i] : i);
    else // repeats need no shared slot when nothing is written back
      return Spec::at(soa_, i);
  }
  /// Calls f(slot) for i = 0..size()-1 in order, where slot is i or, for an
  /// element the range holds more than once, the slot of its first
  /// occurrence (the element's one shared slot). Loops written over each()
  /// index the buffers directly when the range has no repeats, which lets
  /// the compiler vectorise them (at() selects the slot on every call).
  template <class F> void each(F &&f) const {
    slots().each(static_cast<F &&>(f));
  }
  /// The view of slot `slot` (a value each() passes).
  typename Spec::view at_slot(std::size_t slot) const noexcept {
    return Spec::at(soa_, slot);
  }
  /// each() and at_slot() as a value (frame_slots), for a loop inside other
  /// loops (emit/Loops.cpp).
  frame_slots<Spec> slots() const noexcept { return {soa_, n_, remap_}; }
  /// The host buffers (for device copies).
  const typename Spec::soa &buffers() const noexcept { return soa_; }
  /// True when a pointer container held the same element more than once.
  bool has_repeats() const noexcept { return remap_ != nullptr; }
  /// Writes nothing back: for a frame no view has written, whose loop runs
  /// as written instead (a pair nest over a range with repeats).
  void discard() noexcept { discarded_ = true; }

private:
  template <class Range> static std::size_t bytes_for(std::size_t n) {
    std::size_t b = arena::round_up(n * sizeof(element *)) + Spec::bytes_for(n);
    if constexpr (kScatters && yields_pointers_v<Range>)
      b += arena::round_up(n * sizeof(std::size_t)) +
           arena::round_up(rt::scratch_bytes(n));
    if constexpr (Packed)
      b += arena::round_up(n * sizeof(view));
    return b;
  }

  const site &site_;
  std::size_t n_;
  lease lease_;
  element **elems_ = nullptr;
  const std::size_t *remap_ = nullptr;
  bool discarded_ = false;
  typename Spec::soa soa_{};
  view *views_ = nullptr; // Packed only
};

/// The frame of a read-only host loop whose body branches around most of
/// its work (an inner pair loop that skips far particles): every view is
/// built once, when the frame gathers, and each iteration takes a reference
/// to its view instead of loading every field from the buffers before the
/// branch (docs/semantics.md, "Packed views").
template <class Spec> using packed_frame = frame<Spec, false, nullptr, true>;

namespace rt {
/// Largest run of buffers a copy back to the host takes along although the
/// loop does not write them, to join two written runs into one copy.
inline constexpr std::size_t kCopyGap = 64 * 1024;

/// The device copies of one frame, coalesced. A device frame's buffers have
/// the host frame's layout (one arena each, carved in the same order), so
/// buffers adjacent in both arenas go in one copy: copy(host, device, bytes)
/// is called once per run. With written_only, only the written buffers are
/// copied, and a gap of other buffers up to kCopyGap bytes joins two runs
/// (the device holds the host's values there, which the copy rewrites
/// unchanged). Small frames then cost one copy each way, not one per field.
template <class Spec, class Copy>
void copy_runs(const typename Spec::soa &host, const typename Spec::soa &dev,
               std::size_t n, bool written_only, Copy &&copy) {
  const char *h0 = nullptr, *h_end = nullptr; // the open run [h0, h_end)
  char *d0 = nullptr;
  std::size_t gap = 0; // bytes skipped since the run's last copied buffer
  auto flush = [&] {
    if (h0 && h_end > h0)
      copy(h0, d0, static_cast<std::size_t>(h_end - h0));
    h0 = h_end = nullptr;
    gap = 0;
  };
  Spec::pairs(
      host, dev, [&](const void *hv, void *dv, std::size_t elem, bool written) {
        const char *h = static_cast<const char *>(hv);
        char *d = static_cast<char *>(dv);
        std::size_t bytes = elem * n;
        if (!bytes)
          return;
        bool take = written || !written_only;
        bool adjacent = h0 && h == h_end + gap && d == d0 + (h - h0);
        if (!adjacent)
          flush();
        if (!take) {
          if (h0)
            gap += arena::round_up(bytes);
          return;
        }
        if (h0 && gap <= kCopyGap) {
          h_end = h + bytes; // the gap goes along
        } else {
          flush();
          h0 = h;
          d0 = d;
          h_end = h + bytes;
        }
        gap = arena::round_up(bytes) - bytes; // padding up to the next buffer
      });
  flush();
}

/// Offloaded loops run their iterations in parallel: one that writes an
/// element its container holds more than once is refused at run time (the
/// one error policy: message naming the site, then std::logic_error).
[[noreturn]] void refuse_repeats_on_device(const site &s);

/// What the backends' device frames (soaview/omp.h, soaview/cuda.h) share:
/// device buffers with the host frame's layout, leased from the pool in the
/// backend's memory `mem` and carved in the host carve's order and sizes;
/// identities are not offloaded; a loop that writes refuses repeated
/// elements. The backend copies the runs (copy_to_device, copy_back) with
/// its own calls.
template <class Spec> class device_buffers {
public:
  template <class Frame>
  device_buffers(const site &s, const Frame &host, const backend *mem,
                 int device)
      : host_(host.buffers()), n_(host.size()),
        lease_(s, Spec::bytes_for(n_), mem, device) {
    if (Spec::writes && host.has_repeats())
      refuse_repeats_on_device(s); // the lease is released on the way out
    dev_ = host_;
    arena a(lease_.data());
    Spec::carve(dev_, a, n_);
    dev_.soaview_address = nullptr;
  }
  device_buffers(const device_buffers &) = delete;
  device_buffers &operator=(const device_buffers &) = delete;

  /// copy(host, device, bytes) for each run of the viewed fields.
  template <class Copy> void copy_to_device(Copy &&copy) const {
    copy_runs<Spec>(host_, dev_, n_, false, copy);
  }
  /// copy(host, device, bytes) for each run of the written fields.
  template <class Copy> void copy_back(Copy &&copy) const {
    copy_runs<Spec>(host_, dev_, n_, true, copy);
  }

  /// Device buffers, passed by value into the kernel.
  const typename Spec::soa &buffers() const noexcept { return dev_; }
  const typename Spec::soa &host_buffers() const noexcept { return host_; }
  std::size_t size() const noexcept { return n_; }
  int device() const noexcept { return lease_.device(); }

private:
  typename Spec::soa host_, dev_;
  std::size_t n_;
  lease lease_;
};
} // namespace rt

} // namespace soaview

#endif // SOAVIEW_FRAME_H
