// The measured choice of a gated nest (soaview/gate.h): which version the
// trials run, which one the gate chooses from recorded times, and that
// threads sharing a gate agree on it once it is made (also run under
// ThreadSanitizer by tools/run-tests.sh).
#include "check.h"

#include "soaview/gate.h"

#include <atomic>
#include <thread>
#include <vector>

namespace {

/// Claims the trials of a fresh gate and records `converted` and `written`
/// ns for 1,000 pairs per call; returns the choice.
int chooseWith(soaview::gate &g, std::uint64_t converted,
               std::uint64_t written) {
  for (unsigned k = 0; k < 2 * soaview::gate::kTrials; ++k) {
    int slot = -1;
    const bool conv = g.choose(slot);
    CHECK(slot == int(k));
    CHECK(conv == (k % 2 == 0)); // alternate, converted first
    CHECK(g.choice() == -1);     // no choice before every trial recorded
    g.record(slot, conv ? converted : written, 1000);
  }
  return g.choice();
}

void testChoice() {
  soaview::gate slow("t:1:1"), fast("t:2:1"), tie("t:3:1");
  CHECK(chooseWith(slow, 3000, 1000) == 0);            // as written
  CHECK(slow.best(0) == 3000 && slow.best(1) == 1000); // ps per pair
  CHECK(chooseWith(fast, 1000, 3000) == 1);
  CHECK(chooseWith(tie, 2000, 2000) == 1); // converted on a tie
  int slot = 7;
  CHECK(!slow.choose(slot) && slot == -1); // decided: untimed
  CHECK(fast.choose(slot) && slot == -1);
}

void testFastestCall() {
  soaview::gate g("t:4:1");
  // The first converted call is slow (cold buffers); its fastest decides.
  const std::uint64_t times[] = {9000, 1500, 1000, 1400, 1100, 1600};
  for (unsigned k = 0; k < 2 * soaview::gate::kTrials; ++k) {
    int slot = -1;
    g.choose(slot);
    g.record(slot, times[k], 1000);
  }
  CHECK(g.best(0) == 1000 && g.best(1) == 1400);
  CHECK(g.choice() == 1);
}

void testClaimedNotRecorded() {
  soaview::gate g("t:5:1");
  std::vector<int> slots;
  for (unsigned k = 0; k < 2 * soaview::gate::kTrials; ++k) {
    int slot = -1;
    g.choose(slot);
    slots.push_back(slot);
  }
  int slot = 0;
  CHECK(g.choose(slot) && slot == -1); // trials running: converted, untimed
  for (int s : slots)
    g.record(s, s % 2 ? 10 : 20, 1); // as written faster
  CHECK(g.choice() == 0);
}

/// After kRecheck calls a second round of trials chooses again, and its
/// choice holds (a process's first calls can run in other caches).
void testRecheck() {
  soaview::gate g("t:8:1");
  CHECK(chooseWith(g, 3000, 1000) == 0 && g.rounds() == 1);
  const unsigned trials = 2 * soaview::gate::kTrials;
  for (unsigned k = trials; k < soaview::gate::kRecheck; ++k) {
    int slot = 7;
    CHECK(!g.choose(slot) && slot == -1); // the first round's choice
  }
  for (unsigned k = 0; k < trials; ++k) {
    int slot = -1;
    const bool conv = g.choose(slot);
    CHECK(slot == int(trials + k));
    CHECK(conv == (k % 2 == 0));
    CHECK(g.choice() == 0 && g.rounds() == 1);
    g.record(slot, conv ? 1000 : 3000, 1000);
  }
  CHECK(g.choice() == 1 && g.rounds() == 2);
  CHECK(g.best(0) == 1000 && g.best(1) == 3000); // the second round's
  for (int i = 0; i < 1000; ++i) {
    int slot = 7;
    CHECK(g.choose(slot) && slot == -1); // no third round
  }
}

void testSizeRule() {
  soaview::gate g("t:6:1");
  {
    soaview::trial t(g, 10, 10); // 100 pairs for 20 elements: too small
    CHECK(!t.converted());
  }
  {
    soaview::trial t(g, 0, 0); // empty: passes the rule, nothing to time
    CHECK(t.converted());
  }
  int slot = -1;
  g.choose(slot);
  CHECK(slot == 0); // neither call took a trial
}

void testThreads() {
  soaview::gate g("t:7:1");
  std::atomic<unsigned> converted{0}, written{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        soaview::trial call(g, 200, 200);
        (call.converted() ? converted : written)++;
      }
    });
  for (auto &t : pool)
    t.join();
  CHECK(converted + written == 16000u);
  CHECK(g.choice() >= 0);
  // After the choice every call runs the chosen version.
  for (int i = 0; i < 10; ++i) {
    soaview::trial call(g, 200, 200);
    CHECK(call.converted() == (g.choice() == 1));
  }
}

} // namespace

int main() {
  testChoice();
  testFastestCall();
  testClaimedNotRecorded();
  testRecheck();
  testSizeRule();
  testThreads();
  return checksDone("gate_test");
}
