//===- gate.h - a small nest's choice, measured -----------------*- C++ -*-===//
//
// A nest with a size gate (soaview::pays_off, frame.h) keeps the nest as
// written beside the converted one. Which of the two is faster also
// depends on what the compiler makes of each (docs/attributes.md, "Small
// nests, decided at run time": a cheap conditional sum into the outer
// element runs slower converted), so the first calls that pass the size
// rule measure both: they alternate, converted first, kTrials calls each,
// and time each call per pair of iterations. From then on the site runs
// the version whose fastest call was faster (converted on a tie). After
// kRecheck calls the trials run once more and their choice holds for the
// rest of the run: a process's first calls run in other caches than its
// later ones (measured on the SPH demonstrator's strict branching kernels,
// docs/benchmarks.md, "Generated against hand-written"). Both versions
// compute the same bits, so the choice changes time, never results.
//
// Generated code (emit/Dispatch.cpp):
//
//   { static ::soaview::gate sv10_3_gate("user.cpp:10:3");
//     ::soaview::trial sv10_3_trial(sv10_3_gate, ::soaview::range_size(local),
//                                   ::soaview::range_size(active));
//   if (!(sv10_3_trial.converted())) { <the nest as written> }
//   else <the converted nest> }
//
// Thread safety: a gate is shared by every thread that runs its nest; its
// state is atomics, and a call that starts while the trials are not all
// recorded runs converted without timing. SOAVIEW_TRIALS=0 turns the
// measuring off (the size rule alone decides); SOAVIEW_STATS=1 prints, at
// exit, every gate's calls (converted, as written, below the size rule) and
// the measured times and choice.
// Tests: test/Unit/gate_test.cpp, test/Exec/constructs/size-gate.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_GATE_H
#define SOAVIEW_GATE_H

#include "soaview/frame.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace soaview {

class gate {
public:
  /// Calls of each version measured before a choice.
  static constexpr unsigned kTrials = 3;
  /// Rounds of trials: the first calls, and again from call kRecheck.
  static constexpr unsigned kRounds = 2;
  static constexpr unsigned kRecheck = 256;
  /// `where`: the nest's place, static storage (a string literal).
  explicit gate(const char *where) noexcept;
  const char *where() const noexcept { return where_; }

  /// The version a call that passes the size rule runs, and the trial
  /// slot it takes (-1: not timed; even: converted, odd: as written; slot
  /// / (2 * kTrials) is the round).
  bool choose(int &slot) noexcept;
  /// A timed call of `slot` took `ns` for `pairs` pairs.
  void record(int slot, std::uint64_t ns, double pairs) noexcept;
  /// A call ran `converted` or as written; `small`: below the size rule.
  void count(bool converted, bool small) noexcept {
    runs_[converted ? 0 : 1].fetch_add(1, std::memory_order_relaxed);
    if (small)
      small_.fetch_add(1, std::memory_order_relaxed);
  }
  /// Calls run converted (0) and as written (1); those below the size rule.
  std::uint64_t runs(int version) const noexcept {
    return runs_[version].load(std::memory_order_relaxed);
  }
  std::uint64_t small_calls() const noexcept {
    return small_.load(std::memory_order_relaxed);
  }
  /// -1 while the first round measures, 0 as written, 1 converted.
  int choice() const noexcept {
    const int s = state_.load(std::memory_order_acquire);
    return s < 0 ? -1 : s % 2;
  }
  /// The rounds whose trials are all recorded (the last one chose).
  unsigned rounds() const noexcept {
    const int s = state_.load(std::memory_order_acquire);
    return s < 0 ? 0 : static_cast<unsigned>(s / 2) + 1;
  }
  /// The fastest call's picoseconds per pair in the round that chose:
  /// converted (0), as written (1).
  std::uint64_t best(int version) const noexcept {
    const unsigned r = rounds();
    return best_[r ? r - 1 : 0][version].load(std::memory_order_relaxed);
  }

private:
  const char *where_;
  std::atomic<unsigned> claimed_{0};
  std::atomic<unsigned> recorded_[kRounds] = {0, 0};
  std::atomic<std::uint64_t> best_[kRounds][2] = {
      {~std::uint64_t(0), ~std::uint64_t(0)},
      {~std::uint64_t(0), ~std::uint64_t(0)}};
  /// -1, or 2 * (the round that chose) + (1: converted, 0: as written).
  std::atomic<int> state_{-1};
  std::atomic<std::uint64_t> runs_[2] = {0, 0}, small_{0};
};

/// One run of a gated nest: decides the version, and times it while the
/// gate measures (the destructor records the time, also when the nest
/// leaves by return, break or an exception).
class trial {
public:
  trial(gate &g, std::size_t outer, std::size_t inner) noexcept
      : gate_(g), pairs_(double(outer) * double(inner)) {
    // An empty nest passes the rule (0 >= 0) and has no pairs to time.
    const bool pays = pays_off(outer, inner);
    converted_ = pays && (pairs_ == 0 || g.choose(slot_));
    g.count(converted_, !pays);
    if (slot_ >= 0)
      start_ = rt::now_ns();
  }
  ~trial() {
    if (slot_ >= 0)
      gate_.record(slot_, rt::now_ns() - start_, pairs_);
  }
  trial(const trial &) = delete;
  trial &operator=(const trial &) = delete;
  bool converted() const noexcept { return converted_; }

private:
  gate &gate_;
  double pairs_;
  int slot_ = -1;
  bool converted_;
  std::uint64_t start_ = 0;
};

} // namespace soaview

#endif
