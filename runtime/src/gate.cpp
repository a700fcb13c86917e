//===- gate.cpp - a small nest's choice, measured (soaview/gate.h) --------===//
#include "soaview/gate.h"
#include "options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace soaview {
namespace {

/// SOAVIEW_TRIALS=0: no measuring, the size rule alone decides.
const bool measuring = rt::option_switch(rt::option::trials, true);

struct Gates {
  std::mutex mu;
  std::vector<const gate *> all;
};
Gates &gates() {
  static Gates *g = new Gates; // leaked: read by the printer at exit
  return *g;
}

/// SOAVIEW_STATS=1: every gate's calls, and the choice of each that
/// measured, at exit.
struct GatePrinter {
  ~GatePrinter() {
    if (!rt::stats_wanted())
      return;
    Gates &g = gates();
    std::lock_guard<std::mutex> lock(g.mu);
    for (const gate *x : g.all)
      print(*x);
  }
  static void print(const gate &x) {
    print_calls(x);
    const int c = x.choice();
    if (c < 0)
      return; // not all trials ran
    char when[48] = "";
    if (x.rounds() > 1)
      std::snprintf(when, sizeof when, " after %u calls", gate::kRecheck);
    std::fprintf(stderr,
                 "soaview: %s: ns per pair, fastest of %u calls%s: converted "
                 "%.3f, as written %.3f: runs %s\n",
                 x.where(), gate::kTrials, when, x.best(0) / 1e3,
                 x.best(1) / 1e3, c ? "converted" : "as written");
  }
  static void print_calls(const gate &x) {
    const auto n = static_cast<unsigned long long>(x.runs(0)) + x.runs(1);
    std::fprintf(stderr,
                 "soaview: %s: gated nest, %llu call(s): %llu converted, %llu "
                 "as written (%llu below the size rule: %zu pairs per element "
                 "gathered, a square nest from %zu x %zu)%s\n",
                 x.where(), n, static_cast<unsigned long long>(x.runs(0)),
                 static_cast<unsigned long long>(x.runs(1)),
                 static_cast<unsigned long long>(x.small_calls()),
                 min_pairs_per_element, 2 * min_pairs_per_element,
                 2 * min_pairs_per_element, measured_note(x));
  }
  static const char *measured_note(const gate &x) {
    if (!measuring)
      return "; not measured (SOAVIEW_TRIALS=0)";
    if (x.choice() >= 0)
      return "";
    return x.runs(0) + x.runs(1) > x.small_calls()
               ? "; still measuring"
               : "; not measured: no call passed the size rule";
  }
} printer;

} // namespace

gate::gate(const char *where) noexcept : where_(where) {
  Gates &g = gates();
  std::lock_guard<std::mutex> lock(g.mu);
  g.all.push_back(this);
}

bool gate::choose(int &slot) noexcept {
  slot = -1;
  if (!measuring || rounds() == kRounds)
    return choice() != 0;
  const unsigned k = claimed_.fetch_add(1, std::memory_order_relaxed);
  for (unsigned r = 0; r < kRounds; ++r) {
    const unsigned first = r == 0 ? 0 : kRecheck;
    if (k >= first && k - first < 2 * kTrials) {
      slot = static_cast<int>(r * 2 * kTrials + (k - first));
      return (k - first) % 2 == 0;
    }
  }
  return choice() != 0; // -1 while the first trials run: converted
}

void gate::record(int slot, std::uint64_t ns, double pairs) noexcept {
  const unsigned round = static_cast<unsigned>(slot) / (2 * kTrials);
  const int version = slot % 2;
  const auto ps = static_cast<std::uint64_t>(1e3 * static_cast<double>(ns) /
                                             (pairs > 0 ? pairs : 1));
  std::atomic<std::uint64_t> *best = best_[round];
  std::uint64_t old = best[version].load(std::memory_order_relaxed);
  while (ps < old && !best[version].compare_exchange_weak(
                         old, ps, std::memory_order_relaxed))
    ;
  if (recorded_[round].fetch_add(1, std::memory_order_acq_rel) + 1 !=
      2 * kTrials)
    return;
  // The round's choice, unless a later round chose already.
  const int chosen = static_cast<int>(2 * round) +
                     (best[0].load(std::memory_order_relaxed) <=
                              best[1].load(std::memory_order_relaxed)
                          ? 1
                          : 0);
  int s = state_.load(std::memory_order_relaxed);
  while ((s < 0 || s / 2 < static_cast<int>(round)) &&
         !state_.compare_exchange_weak(s, chosen, std::memory_order_acq_rel))
    ;
}

} // namespace soaview
