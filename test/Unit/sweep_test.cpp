//===- sweep_test.cpp - the host side of a sweep over cells ---------------===//
//
// soaview/sweep.h with specs written as the plugin writes them for a swept
// nest: the local view reads x and y and writes out, the inner view reads x
// and m. Checks that the inner view uses the local view's buffer of x (the
// field both read: gathered and copied once) when every inner element is a
// local one, that an element local in no cell (a ghost) gives the inner
// view buffers of its own, and that the "kernel" (run here on the host over
// the slots, the index and the runs) computes what the cell-by-cell loop
// computes in both cases, bit for bit. In a view region (regionParts): a
// sweep over part of the region's cells uses its slots, and a sync waits
// only for the sweeps whose slots it touches; a region whose code soaview
// saw write no list skips the check of lists where they were
// (regionKeptLists), and records a sweep's cells once while they are read
// from the same lists (keptCells).
//===----------------------------------------------------------------------===//
#include "soaview/region.h"
#include "soaview/sweep.h"
#include "soaview/sync.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#include "check.h"

namespace {

struct E {
  double x, y, m, out;
  int pad;
};

struct LView {
  double x, y, out;
};
struct IView {
  double x, m;
};

struct LSpec {
  using element = E;
  using view = LView;
  static constexpr bool writes = true;
  struct soa {
    double *x, *y, *out;
    const void *const *soaview_address;
  };
  static std::size_t bytes_for(std::size_t n) {
    return 3 * soaview::arena::round_up(sizeof(double) * n);
  }
  static void carve(soa &s, soaview::arena &a, std::size_t n) {
    s.x = a.take<double>(n);
    s.y = a.take<double>(n);
    s.out = a.take<double>(n);
  }
  template <class F> static void fields(soa &s, F &&f) {
    f(s.x, "x");
    f(s.y, "y");
    f(s.out, "out");
  }
  static void gather(soa &s, std::size_t i, const element &e) {
    s.x[i] = e.x, s.y[i] = e.y, s.out[i] = e.out;
  }
  static void scatter(const soa &s, std::size_t i, element &e) {
    e.out = s.out[i];
  }
  template <class F> static void pairs(const soa &h, const soa &d, F &&f) {
    f(h.x, d.x, sizeof(double), false);
    f(h.y, d.y, sizeof(double), false);
    f(h.out, d.out, sizeof(double), true);
  }
  static view at(const soa &s, std::size_t i) {
    return {s.x[i], s.y[i], s.out[i]};
  }
};

struct ISpec {
  using element = E;
  using view = IView;
  static constexpr bool writes = false;
  struct soa {
    double *x, *m;
    const void *const *soaview_address;
  };
  static std::size_t bytes_for(std::size_t n) {
    return 2 * soaview::arena::round_up(sizeof(double) * n);
  }
  static void carve(soa &s, soaview::arena &a, std::size_t n) {
    s.x = a.take<double>(n);
    s.m = a.take<double>(n);
  }
  template <class F> static void fields(soa &s, F &&f) {
    f(s.x, "x");
    f(s.m, "m");
  }
  static void gather(soa &s, std::size_t i, const element &e) {
    s.x[i] = e.x, s.m[i] = e.m;
  }
  static void scatter(const soa &, std::size_t, element &) {}
  static view at(const soa &s, std::size_t i) { return {s.x[i], s.m[i]}; }
};

/// The device kernel's work, on the host: each of the n local slots walks
/// its cell's runs of inner slots.
void kernel(const LSpec::soa &l, const ISpec::soa &in,
            const soaview::sweep_index &x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    LView p = LSpec::at(l, i);
    for (soaview::run_cursor k(x, x.cell_of[i]); k.more(); k.next()) {
      IView q = ISpec::at(in, k.index());
      p.out += q.m * (p.x - q.x) + p.y;
    }
    l.out[i] = p.out;
  }
}

/// The sweep's host side with what the test looks at.
struct probe : soaview::sweep_host<LSpec, ISpec, true, nullptr> {
  using sweep_host::sweep_host;
  const soaview::rt::sweep_layout<LSpec, ISpec> &layout() const {
    return layout_;
  }
  bool shares() const { return isoa_.x == lsoa_.x; }
  soaview::rt::sweep_state &st() { return st_; }
  void run() { kernel(lsoa_, isoa_, hidx_, size()); }
};

using List = std::vector<E *>;

/// The unswept nest, cell by cell.
void reference(std::vector<List> &local, std::vector<List> &inner) {
  for (std::size_t c = 0; c < local.size(); ++c)
    for (E *p : local[c])
      for (E *q : inner[c])
        p->out += q->m * (p->x - q->x) + p->y;
}

/// A ring of cells, each reading itself and its two neighbours, plus
/// optionally a ghost (an element in no local list) in the first cell's
/// inner list.
struct Ring {
  std::vector<E> elems, ghost{E{0.25, 0.5, 3.0, 0.0, 0}};
  std::vector<List> local, inner;
  Ring(int cells, int per, bool withGhost) : elems(std::size_t(cells) * per) {
    for (std::size_t k = 0; k < elems.size(); ++k)
      elems[k] = E{0.1 * double(k % 7), 0.01 * double(k),
                   1.0 + 0.5 * double(k % 3), 0.0, 0};
    local.resize(cells);
    inner.resize(cells);
    for (int c = 0; c < cells; ++c)
      for (int k = 0; k < per; ++k)
        local[c].push_back(&elems[std::size_t(c) * per + k]);
    for (int c = 0; c < cells; ++c)
      for (int d : {-1, 0, 1}) {
        const List &L = local[(c + d + cells) % cells];
        inner[c].insert(inner[c].end(), L.begin(), L.end());
      }
    if (withGhost)
      inner[0].push_back(&ghost[0]);
  }
  std::vector<double> outs() const {
    std::vector<double> o;
    for (const E &e : elems)
      o.push_back(e.out);
    return o;
  }
};

void sweepRing(bool withGhost) {
  static soaview::site where("sweep_test.cpp:ring");
  const int cells = 5, per = 7;
  Ring swept(cells, per, withGhost), plain(cells, per, withGhost);
  reference(plain.local, plain.inner);
  const std::size_t n = std::size_t(cells) * per;
  const std::size_t slots = n + (withGhost ? 1 : 0);
  std::size_t bytes = 0, index = 0;
  bool shared = false;
  {
    probe s(where);
    for (int c = 0; c < cells; ++c)
      s.cell(swept.inner[c], swept.local[c]);
    s.prepare();
    s.run();
    bytes = s.layout().bytes();
    index = s.layout().index_bytes();
    shared = s.shares();
  } // scatters
  CHECK(shared == !withGhost);
  // Shared: the inner view carves only m; otherwise x and m for every slot.
  const std::size_t inner =
      withGhost ? ISpec::bytes_for(slots)
                : soaview::arena::round_up(sizeof(double) * slots);
  CHECK(bytes == LSpec::bytes_for(n) + index + inner);
  CHECK(std::memcmp(swept.outs().data(), plain.outs().data(),
                    n * sizeof(double)) == 0);
}

/// One sweep of `r` at site `where`, run on the host; whether it kept the
/// runs of the site's last sweep (its inner lists held the same slots):
/// building them writes every entry's slot (inner_slot), marked here before.
bool sweepOnce(const soaview::site &where, Ring &r) {
  constexpr std::uint32_t kMark = 0xabcdef;
  probe s(where);
  std::vector<std::uint32_t> &slots = s.st().inner_slot;
  if (!slots.empty())
    slots[0] = kMark;
  for (std::size_t c = 0; c < r.local.size(); ++c)
    s.cell(r.inner[c], r.local[c]);
  s.prepare();
  s.run();
  CHECK(s.st().slots_valid); // the local slots' table stands
  return !slots.empty() && slots[0] == kMark;
}

/// A site swept again: unchanged inner lists keep the last sweep's runs
/// (and, with a ghost, the local slots' table: the ghost's slot comes from
/// a table of its own); an inner list that now holds another element (same
/// length), its elements in another order or another ghost gets new runs.
/// Bit for bit against the cell-by-cell loop after each sweep.
void sweepAgain(bool withGhost) {
  static soaview::site where("sweep_test.cpp:again");
  static soaview::site whereGhost("sweep_test.cpp:again-ghost");
  const soaview::site &at = withGhost ? whereGhost : where;
  const int cells = 5, per = 7;
  Ring swept(cells, per, withGhost), plain(cells, per, withGhost);
  const std::size_t n = std::size_t(cells) * per;
  auto same = [&] {
    return std::memcmp(swept.outs().data(), plain.outs().data(),
                       n * sizeof(double)) == 0;
  };
  // One more sweep, whether it kept the runs, bit for bit after it.
  auto again = [&](bool kept) {
    CHECK(sweepOnce(at, swept) == kept);
    reference(plain.local, plain.inner);
    CHECK(same());
  };
  sweepOnce(at, swept);
  reference(plain.local, plain.inner);
  CHECK(same());
  again(true);                     // the same lists: the runs stand
  for (Ring *r : {&swept, &plain}) // another element, same length
    r->inner[2][3] = &r->elems[n - 1];
  again(false);
  for (Ring *r : {&swept, &plain}) // the same elements, another order
    std::swap(r->inner[4][0], r->inner[4][9]);
  again(false);
  again(true);
  if (withGhost) { // another ghost in its place
    E other{0.75, 0.25, 2.0, 0.0, 0};
    for (Ring *r : {&swept, &plain})
      r->inner[0].back() = &other;
    again(false);
    again(true);
  }
}

/// The gathers' and scatters' prefetch (soaview/spec.h) reads the slot
/// kPrefetchAhead ahead only where there is one: lists of n pointers that
/// end where a page no one may read begins (a read past them faults), each
/// walked as the gathers walk them.
void prefetchStaysInList() {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void *m = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(m != MAP_FAILED);
  if (m == MAP_FAILED)
    return;
  CHECK(mprotect(static_cast<char *>(m) + page, page, PROT_NONE) == 0);
  E elems[20] = {};
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), soaview::rt::kPrefetchAhead,
        soaview::rt::kPrefetchAhead + 1, std::size_t(20)}) {
    auto **list = reinterpret_cast<void **>(static_cast<char *>(m) + page) - n;
    for (std::size_t t = 0; t < n; ++t)
      list[t] = &elems[t];
    for (std::size_t t = 0; t < n; ++t) {
      soaview::rt::prefetch_ahead<E>(list, t, n);
      soaview::rt::prefetch_ahead<E, true>(list, t, n);
    }
  }
  munmap(m, 2 * page);
}

/// A range whose iterator makes each element on the fly (a value, as a
/// transforming view's does): a frame gathers each while it lives, not
/// from its address afterwards (where they all lay, one after the other).
struct Made {
  struct iterator {
    int k;
    E operator*() const { return E{double(k), 0, 2.0 * k, 0, 0}; }
    iterator &operator++() { return ++k, *this; }
    bool operator!=(const iterator &o) const { return k != o.k; }
  };
  int n;
  iterator begin() const { return {0}; }
  iterator end() const { return {n}; }
  std::size_t size() const { return static_cast<std::size_t>(n); }
};

void frameOfValues() {
  static const soaview::site at("sweep_test.cpp:values");
  soaview::frame<ISpec> f(at, Made{20});
  CHECK(f.size() == 20);
  for (std::size_t i = 0; i < f.size(); ++i) {
    IView v = f.at(i);
    CHECK(v.x == double(i) && v.m == 2.0 * i);
  }
}

/// A backend for regions whose "kernels" run on the host as they launch,
/// with overlap_ops that note what soaview::sync's copies wait for: marks
/// are the launches' numbers (1, 2, ...), `after` the one begin() got.
struct Overlap {
  static inline std::intptr_t marks = 0, after = -1;
  static void *mark(const soaview::site &, int) {
    return reinterpret_cast<void *>(++marks);
  }
  static void release(void *, int) {}
  static void begin(const soaview::site &, int, void *a) {
    after = reinterpret_cast<std::intptr_t>(a);
  }
  static void end(int) {}
};
const soaview::rt::overlap_ops kOverlap = {Overlap::mark, Overlap::release,
                                           Overlap::begin, Overlap::end};
const soaview::rt::device_ops kOverlapOps = {
    nullptr, nullptr,  soaview::rt::host_copy, soaview::rt::host_copy,
    nullptr, &kOverlap};

/// A sweep of a region on that backend: run() is the kernel over the
/// region's buffers (local slot i is the region's slot first + i). Spec
/// types of their own (L, I) give a site state of its own, as generated
/// code's specs do per loop.
template <class L = LSpec, class I = ISpec>
struct region_probe_of : soaview::sweep_host<L, I, true, nullptr> {
  using base = soaview::sweep_host<L, I, true, nullptr>;
  using base::base;
  typename L::soa dl{};
  typename I::soa di{};
  soaview::sweep_index dx{};
  void start() { CHECK(this->join_region(kOverlapOps, 0, dl, di, dx)); }
  void run() {
    kernel(dl, di, dx, this->size());
    soaview::rt::region_launched();
    this->region_wrote(dl);
  }
};
using region_probe = region_probe_of<>;
struct LSpecB : LSpec {};
struct ISpecB : ISpec {};

/// One sweep of site `at` over cells' `local` and `inner` lists in the
/// current region; returns its local slots.
template <class Probe = region_probe>
std::size_t regionSweep(const soaview::site &at, std::vector<List> &local,
                        std::vector<List> &inner) {
  Probe s(at);
  for (std::size_t c = 0; c < local.size(); ++c)
    s.cell(inner[c], local[c]);
  s.start();
  s.run();
  return s.size();
}

/// One sweep as generated code writes it in a region whose loop over the
/// cells reads only lists: the cells recorded unless cells_kept says the
/// last run's stand. Returns whether they did.
bool keptSweep(const soaview::site &at, std::vector<List> &local,
               std::vector<List> &inner) {
  region_probe s(at);
  const bool kept = s.cells_kept({&local, &inner});
  if (!kept)
    for (std::size_t c = 0; c < local.size(); ++c)
      s.cell(inner[c], local[c]);
  s.start();
  s.run();
  return kept;
}

/// cells_kept: in a region made with region_lists::kept, a site's later
/// run from the same lists keeps the cells it recorded (and computes what
/// the nest does cell by cell, bit for bit); other lists, code run as
/// outside the region (a sync's function), another region, a region that
/// may change its lists, or SOAVIEW_KEPT_LISTS=0 record them again.
void keptCells() {
  using soaview::region_lists;
  static soaview::site where("sweep_test.cpp:kept-cells"),
      region("sweep_test.cpp:kept-cells-region");
  const char *env = std::getenv("SOAVIEW_KEPT_LISTS");
  const bool on = !env || !*env || std::strcmp(env, "0") != 0;
  Ring swept(6, 4, false), plain(6, 4, false), other(6, 4, false);
  {
    soaview::region r(region, region_lists::kept);
    CHECK(!keptSweep(where, swept.local, swept.inner));
    CHECK(keptSweep(where, swept.local, swept.inner) == on);
    CHECK(!keptSweep(where, other.local, other.inner));
    CHECK(!keptSweep(where, swept.local, swept.inner));
    CHECK(keptSweep(where, swept.local, swept.inner) == on);
    soaview::sync(swept.local[0], [] {});
    CHECK(!keptSweep(where, swept.local, swept.inner));
  } // writes back
  for (int k = 0; k < 5; ++k)
    reference(plain.local, plain.inner);
  CHECK(std::memcmp(swept.outs().data(), plain.outs().data(),
                    sizeof(double) * swept.elems.size()) == 0);
  {
    soaview::region r(region, region_lists::kept);
    CHECK(!keptSweep(where, swept.local, swept.inner));
  }
  {
    soaview::region r(region, region_lists::may_change);
    CHECK(!keptSweep(where, swept.local, swept.inner));
    CHECK(!keptSweep(where, swept.local, swept.inner));
  }
}

/// One site of a region sweeps all cells, then part of them (the inner
/// cells 2-4 of 7, copies of their lists): the part uses the region's slots
/// (its local slot 0 is cell 2's first). A sync over cell 0 then waits for
/// the whole sweep, which writes cell 0, and not for the part's, which
/// neither writes nor reads it. Copies of the lists (new storage, the same
/// elements) keep the site's index. Bit for bit against the same steps
/// cell by cell.
void regionParts() {
  static soaview::site where("sweep_test.cpp:parts"),
      region("sweep_test.cpp:region");
  const int cells = 7, per = 5;
  Ring swept(cells, per, false), plain(cells, per, false);
  auto part = [](Ring &r) {
    std::vector<List> local(r.local.begin() + 2, r.local.begin() + 5),
        inner(r.inner.begin() + 2, r.inner.begin() + 5);
    return std::make_pair(local, inner);
  };
  auto [plocal, pinner] = part(swept);
  auto [qlocal, qinner] = part(plain);
  auto nudge = [](List &l) {
    for (E *e : l)
      e->x += 0.5;
  };
  reference(plain.local, plain.inner);
  reference(qlocal, qinner);
  nudge(plain.local[0]);
  reference(plain.local, plain.inner);
  reference(plain.local, plain.inner);
  {
    soaview::region r(region);
    auto sweep = [&](std::vector<List> &local, std::vector<List> &inner) {
      return regionSweep(where, local, inner);
    };
    CHECK(sweep(swept.local, swept.inner) == std::size_t(cells) * per);
    const std::intptr_t whole = Overlap::marks;
    CHECK(sweep(plocal, pinner) == 3 * std::size_t(per));
    soaview::sync(swept.local[0], [&] { nudge(swept.local[0]); });
    CHECK(Overlap::after == whole);
    sweep(swept.local, swept.inner);
    // The same lists in new storage: the index they had, nothing taken.
    const std::size_t takes = soaview::rt::counters(region).host.calls;
    std::vector<List> local(swept.local), inner(swept.inner);
    sweep(local, inner);
    CHECK(soaview::rt::counters(region).host.calls == takes);
  }
  const std::size_t n = std::size_t(cells) * per;
  CHECK(std::memcmp(swept.outs().data(), plain.outs().data(),
                    n * sizeof(double)) == 0);
}

/// Whether a region sweep of the ring's lists, after `change` ran, stops
/// the region (a region made with `lists`; the first sweep builds the
/// index, `change` runs, a second sweep of `local` and `inner` follows).
template <class Change>
bool stopsAfter(soaview::region_lists lists, Ring &ring, Change change,
                std::vector<List> *local = nullptr,
                std::vector<List> *inner = nullptr) {
  static soaview::site where("sweep_test.cpp:kept"),
      region("sweep_test.cpp:kept-region");
  try {
    soaview::region r(region, lists);
    regionSweep(where, ring.local, ring.inner);
    change();
    regionSweep(where, local ? *local : ring.local,
                inner ? *inner : ring.inner);
  } catch (const std::logic_error &) {
    return true;
  }
  return false;
}

/// region_lists::kept (the plugin saw no code that writes a list unseen):
/// a later sweep of lists where they were skips the element-by-element
/// check, so an entry swapped by bytes (what the plugin would have seen)
/// goes unnoticed; a list of another length, or lists after code ran as
/// outside the region (soaview::sync's function), are checked again (and
/// stop it); the same lists in new storage keep their index. Without
/// `kept` every later sweep checks.
void regionKeptLists() {
  using soaview::region_lists;
  auto swap01 = [](List &l) {
    E *two[2] = {l[1], l[0]};
    std::memcpy(static_cast<void *>(l.data()), two, sizeof two);
  };
  {
    Ring ring(4, 3, false);
    CHECK(stopsAfter(region_lists::may_change, ring,
                     [&] { swap01(ring.local[1]); }));
  }
  {
    // SOAVIEW_KEPT_LISTS=0 (the runtime's switch): checked as without kept.
    const char *env = std::getenv("SOAVIEW_KEPT_LISTS");
    const bool skips = !env || !*env || std::strcmp(env, "0") != 0;
    Ring ring(4, 3, false);
    CHECK(stopsAfter(region_lists::kept, ring,
                     [&] { swap01(ring.local[1]); }) == !skips);
  }
  {
    Ring ring(4, 3, false); // the same storage, another length
    CHECK(stopsAfter(region_lists::kept, ring,
                     [&] { ring.local[1].pop_back(); }));
  }
  {
    Ring ring(4, 3, false);
    CHECK(stopsAfter(region_lists::kept, ring, [&] {
      soaview::sync(ring.local[0], [&] { swap01(ring.local[1]); });
    }));
  }
  {
    Ring ring(4, 3, false); // unchanged lists in new storage: no stop
    std::vector<List> local, inner;
    CHECK(!stopsAfter(
        region_lists::kept, ring,
        [&] {
          local = ring.local;
          inner = ring.inner;
        },
        &local, &inner));
  }
}

/// Two sites over the same lists in one region (a scheme's density and
/// force sweeps): the second uses the first's index, built and copied
/// once; bit for bit against the same sweeps cell by cell.
void regionSharedIndex() {
  static soaview::site first("sweep_test.cpp:first"),
      second("sweep_test.cpp:second"), region("sweep_test.cpp:shared");
  Ring swept(6, 4, false), plain(6, 4, false);
  auto sweep = [&](const soaview::site &at) {
    regionSweep(at, swept.local, swept.inner);
  };
  for (int k = 0; k < 4; ++k)
    reference(plain.local, plain.inner);
  const std::vector<E> start = swept.elems;
  for (soaview::region_lists lists :
       {soaview::region_lists::may_change, soaview::region_lists::kept}) {
    swept.elems = start; // the same values, the same lists
    soaview::region r(region, lists);
    sweep(first);
    sweep(first);
    const std::size_t takes = soaview::rt::counters(region).host.calls;
    sweep(second);
    sweep(second);
    CHECK(soaview::rt::counters(region).host.calls == takes);
  }
  CHECK(std::memcmp(swept.outs().data(), plain.outs().data(),
                    swept.elems.size() * sizeof(double)) == 0);
}

/// Two sites sharing one index in a kept region, one keeping its cells, the
/// other sweeping copies of the lists (new storage, the same elements), then
/// a copy in another order: the index's places follow the lists checked
/// last, a kept site is found again by its recording, and every run
/// computes what the nest does cell by cell (bit for bit), none stopping.
void sharedIndexMoved() {
  static soaview::site first("sweep_test.cpp:moved-first"),
      second("sweep_test.cpp:moved-second"),
      region("sweep_test.cpp:moved-region");
  Ring swept(6, 4, false), plain(6, 4, false);
  std::vector<List> local = swept.local, inner = swept.inner;
  std::vector<List> plocal = plain.local, pinner = plain.inner;
  bool stopped = false, kept = false;
  try {
    soaview::region r(region, soaview::region_lists::kept);
    CHECK(!keptSweep(first, swept.local, swept.inner));
    using Second = region_probe_of<LSpecB, ISpecB>;
    regionSweep<Second>(second, swept.local, swept.inner);
    regionSweep<Second>(second, local, inner);
    kept = keptSweep(first, swept.local, swept.inner);
    std::swap(local[2][0], local[2][1]);
    regionSweep<Second>(second, local, inner);
    kept = keptSweep(first, swept.local, swept.inner) && kept;
  } catch (const std::logic_error &) {
    stopped = true;
  }
  for (int k = 0; k < 2; ++k)
    reference(plain.local, plain.inner);
  reference(plocal, pinner);
  reference(plain.local, plain.inner);
  std::swap(plocal[2][0], plocal[2][1]);
  reference(plocal, pinner);
  reference(plain.local, plain.inner);
  const char *env = std::getenv("SOAVIEW_KEPT_LISTS");
  CHECK(kept == (!env || !*env || std::strcmp(env, "0") != 0));
  CHECK(!stopped);
  CHECK(std::memcmp(swept.outs().data(), plain.outs().data(),
                    swept.elems.size() * sizeof(double)) == 0);
}

} // namespace

int main() {
  regionParts();
  regionKeptLists();
  keptCells();
  regionSharedIndex();
  sharedIndexMoved();
  prefetchStaysInList();
  frameOfValues();
  sweepRing(false);
  sweepRing(true);
  sweepAgain(false);
  sweepAgain(true);
  // Specs without fields(): nothing shared (the spec contract's minimum).
  static_assert(soaview::rt::has_fields<LSpec>::value);
  static_assert(!soaview::rt::has_fields<soaview::rt::any_field>::value);
  return checksDone("sweep_test");
}
