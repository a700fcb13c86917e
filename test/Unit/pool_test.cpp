//===- pool_test.cpp - unit tests of the soaview host runtime -------------===//
//
// Alignment, reuse across calls, per-depth buffers under recursion, duplicate
// detection, and a multi-threaded stress run (also run under TSan in CI).
//===----------------------------------------------------------------------===//
#include "soaview/soaview.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <list>
#include <thread>
#include <vector>

#include "check.h"

static void alignment_and_reuse() {
  static soaview::site s("pool_test:reuse");
  void *first;
  {
    soaview::lease l(s, 1000);
    first = l.data();
    CHECK(reinterpret_cast<std::uintptr_t>(first) % soaview::kAlignment == 0);
  }
  {
    soaview::lease l(s, 900); // smaller: same block
    CHECK(l.data() == first);
  }
}

static void nesting_gets_distinct_buffers(int depth,
                                          std::vector<void *> &seen) {
  static soaview::site s("pool_test:nesting");
  soaview::lease l(s, 256);
  for (void *p : seen)
    CHECK(p != l.data());
  seen.push_back(l.data());
  if (depth > 0)
    nesting_gets_distinct_buffers(depth - 1, seen);
  seen.pop_back();
}

static void duplicates() {
  int a, b, c;
  const void *distinct[] = {&a, &b, &c};
  std::vector<std::size_t> remap(3);
  std::vector<char> scratch(soaview::rt::scratch_bytes(3));
  CHECK(soaview::rt::find_duplicates(distinct, 3, remap.data(),
                                     scratch.data()) == nullptr);
  const void *dup[] = {&b, &a, &b, &c, &a};
  remap.resize(5);
  scratch.resize(soaview::rt::scratch_bytes(5));
  const std::size_t *r =
      soaview::rt::find_duplicates(dup, 5, remap.data(), scratch.data());
  CHECK(r != nullptr);
  if (r) {
    CHECK(r[0] == 0 && r[1] == 1 && r[2] == 0 && r[3] == 3 && r[4] == 1);
  }
}

// A hand-written spec, shaped like generated code, exercising frame.
struct P {
  double x, y;
  int id;
};
struct PView {
  static constexpr bool soaview_is_view = true;
  using soaview_element = P;
  double &x;
  const void *soaview_address;
};
struct PSpec {
  using element = P;
  using view = PView;
  static constexpr bool writes = true;
  struct soa {
    double *x;
    const void *const *soaview_address;
  };
  static std::size_t bytes_for(std::size_t n) {
    return soaview::arena::round_up(sizeof(double) * n);
  }
  static void carve(soa &s, soaview::arena &a, std::size_t n) {
    s.x = a.take<double>(n);
  }
  static void gather(soa &s, std::size_t i, const element &e) { s.x[i] = e.x; }
  static void scatter(const soa &s, std::size_t i, element &e) { e.x = s.x[i]; }
  static view at(const soa &s, std::size_t i) {
    return view{s.x[i], s.soaview_address[i]};
  }
};

static void frame_with_duplicates() {
  static soaview::site s("pool_test:frame");
  P a{1, 0, 0}, b{2, 0, 1};
  std::list<P *> ps{&a, &b, &a};
  {
    soaview::frame<PSpec> f(s, ps);
    for (std::size_t i = 0; i < f.size(); ++i) {
      auto v = f.at(i);
      v.x += 10; // a is seen twice: must accumulate like the original
      CHECK(soaview::identity(&v) == (i == 1 ? &b : &a));
    }
  }
  CHECK(a.x == 21 && b.x == 12);
}

static void stress() {
  std::vector<std::thread> ts;
  for (int t = 0; t < 8; ++t)
    ts.emplace_back([t] {
      static soaview::site s("pool_test:stress");
      std::vector<P> v(100 + t);
      for (int rep = 0; rep < 2000; ++rep) {
        soaview::frame<PSpec> f(s, v);
        for (std::size_t i = 0; i < f.size(); ++i)
          f.at(i).x += 1;
      }
      for (P &p : v)
        if (p.x != 2000)
          std::abort();
      soaview::rt::trim();
    });
  for (auto &t : ts)
    t.join();
}

// A spec of five buffers carved like a frame's: a, c, d written; b, e read.
struct RunSpec {
  struct soa {
    double *a, *b;
    char *c;
    double *d, *e;
  };
  static std::size_t bytes_for(std::size_t n) {
    using soaview::arena;
    return 4 * arena::round_up(sizeof(double) * n) + arena::round_up(n);
  }
  static void carve(soa &s, soaview::arena &ar, std::size_t n) {
    s.a = ar.take<double>(n), s.b = ar.take<double>(n), s.c = ar.take<char>(n);
    s.d = ar.take<double>(n), s.e = ar.take<double>(n);
  }
  template <class F> static void pairs(const soa &h, const soa &d, F &&f) {
    f(h.a, d.a, sizeof(double), true);
    f(h.b, d.b, sizeof(double), false);
    f(h.c, d.c, sizeof(char), true);
    f(h.d, d.d, sizeof(double), true);
    f(h.e, d.e, sizeof(double), false);
  }
};

// Device copies coalesced over adjacent buffers (rt::copy_runs): one copy
// each way for a small frame; a read-only gap over kCopyGap splits the copy
// back; the copies cover exactly what each way needs, at the same offsets.
static void copy_runs() {
  for (std::size_t n : {std::size_t(3), std::size_t(100000)}) {
    std::size_t bytes = RunSpec::bytes_for(n);
    std::vector<char> hmem(bytes + 64), dmem(bytes + 64);
    auto align = [](char *p) {
      return reinterpret_cast<char *>(
          (reinterpret_cast<std::uintptr_t>(p) + 63) & ~std::uintptr_t(63));
    };
    RunSpec::soa h{}, d{};
    soaview::arena ha(align(hmem.data())), da(align(dmem.data()));
    RunSpec::carve(h, ha, n);
    RunSpec::carve(d, da, n);
    struct Run {
      const char *h;
      char *d;
      std::size_t bytes;
    };
    std::vector<Run> runs;
    auto record = [&](const void *hp, void *dp, std::size_t b) {
      runs.push_back(
          {static_cast<const char *>(hp), static_cast<char *>(dp), b});
    };
    auto covers = [&](const void *p, std::size_t b) {
      for (const Run &r : runs)
        if (static_cast<const char *>(p) >= r.h &&
            static_cast<const char *>(p) + b <= r.h + r.bytes)
          return true;
      return false;
    };
    const std::size_t nd = sizeof(double) * n;
    soaview::rt::copy_runs<RunSpec>(h, d, n, false, record);
    CHECK(runs.size() == 1); // everything, in one copy
    CHECK(runs.size() == 1 && runs[0].h == reinterpret_cast<char *>(h.a) &&
          runs[0].d == reinterpret_cast<char *>(d.a));
    CHECK(covers(h.e, nd));
    runs.clear();
    soaview::rt::copy_runs<RunSpec>(h, d, n, true, record);
    CHECK(covers(h.a, nd) && covers(h.c, n) && covers(h.d, nd));
    CHECK(!covers(h.e, nd)); // nothing written after d
    for (const Run &r : runs)
      CHECK(r.d - reinterpret_cast<char *>(d.a) ==
            r.h - reinterpret_cast<const char *>(h.a));
    if (nd <= soaview::rt::kCopyGap)
      CHECK(runs.size() == 1); // b, read-only and small, goes along
    else
      CHECK(runs.size() == 2 && !covers(h.b, nd));
  }
}

// The spec contract (soaview/spec.h): frames accept what meets it and
// reject, with one static_assert, what does not.
namespace spec_contract {
struct E {
  double x;
};
struct V {
  double x;
};
struct Good {
  using element = E;
  using view = V;
  struct soa {
    double *x;
    const void *const *soaview_address;
  };
  static constexpr bool writes = false;
  static std::size_t bytes_for(std::size_t) { return 0; }
  static void carve(soa &, soaview::arena &, std::size_t) {}
  static void gather(soa &, std::size_t, const element &) {}
  static void scatter(const soa &, std::size_t, element &) {}
  static view at(const soa &s, std::size_t i) { return {s.x[i]}; }
};
struct NoScatter { // scatter missing
  using element = E;
  using view = V;
  struct soa {
    double *x;
  };
  static constexpr bool writes = false;
  static std::size_t bytes_for(std::size_t) { return 0; }
  static void carve(soa &, soaview::arena &, std::size_t) {}
  static void gather(soa &, std::size_t, const element &) {}
  static view at(const soa &s, std::size_t i) { return {s.x[i]}; }
};
struct WrongView : Good { // at() does not return the view
  static E at(const soa &, std::size_t) { return {}; }
};
static_assert(soaview::is_spec_v<Good>, "a complete spec meets the contract");
static_assert(!soaview::is_spec_v<NoScatter>, "scatter() is required");
static_assert(!soaview::is_spec_v<WrongView>, "at() returns the view");
static_assert(!soaview::is_spec_v<E>, "an element is no spec");
} // namespace spec_contract

int main() {
  alignment_and_reuse();
  copy_runs();
  std::vector<void *> seen;
  nesting_gets_distinct_buffers(4, seen);
  duplicates();
  frame_with_duplicates();
  stress();
  return checksDone("pool_test");
}
