// Where a view region last found a sweep's lists (runtime/src/region_lists.h,
// list_places): the ranges a check recorded, the outside runs since, and the
// recordings found there, which a sweep that kept its cells is found by
// without its ranges being compared again.
#include "check.h"

#include "region_lists.h"

#include <vector>

namespace {
namespace rt = soaview::rt;

/// A sweep's state with `cells` local and inner ranges over `data`, as a
/// recording leaves it (a new recording number).
rt::sweep_state recorded(std::vector<double> &data, std::size_t cells) {
  rt::sweep_state st;
  st.recording = rt::next_unique();
  for (std::size_t c = 0; c < cells; ++c) {
    rt::sweep_range r{};
    r.data = data.data() + c;
    r.n = 1;
    r.stride = sizeof(double);
    st.local.push_back(r);
    st.inner.push_back(r);
  }
  return st;
}

/// The ranges decide, and a recording found once is found again.
void testFound() {
  std::vector<double> data(8), other(8);
  rt::sweep_state a = recorded(data, 4), b = recorded(data, 4),
                  c = recorded(other, 4);
  rt::list_places p;
  rt::record_places(a, 0, p);
  CHECK(p.found.size() == 1 && p.found[0] == a.recording);
  CHECK(rt::same_places(a, 0, p));
  CHECK(rt::same_places(b, 0, p)); // other recording, same ranges
  CHECK(p.found.size() == 2 && p.found[1] == b.recording);
  CHECK(!rt::same_places(c, 0, p));
  CHECK(p.found.size() == 2);
  // b's ranges are not compared again: its recording was found (the
  // runtime changes ranges only in a new recording; this test moves them
  // to show which path answers).
  b.local[0].data = other.data();
  CHECK(rt::same_places(b, 0, p));
  b.recording = rt::next_unique(); // now as a new recording would
  CHECK(!rt::same_places(b, 0, p));
}

/// Code run as outside the region, or ranges recorded again, forget what
/// was found; so does a sweep that never recorded (number 0).
void testForgets() {
  std::vector<double> data(8);
  rt::sweep_state a = recorded(data, 3), b = recorded(data, 3);
  rt::list_places p;
  rt::record_places(a, 0, p);
  CHECK(rt::same_places(b, 0, p));
  CHECK(!rt::same_places(b, 1, p)); // outside ran since
  rt::record_places(a, 1, p);
  CHECK(p.found.size() == 1);
  CHECK(rt::same_places(b, 1, p)); // compared again
  rt::sweep_state never = b;
  never.recording = 0;
  never.local[0].data = nullptr;
  CHECK(!rt::same_places(never, 1, p));
}

/// At most a few recordings are kept, the oldest dropped first.
void testBounded() {
  std::vector<double> data(4);
  rt::sweep_state a = recorded(data, 2);
  rt::list_places p;
  rt::record_places(a, 0, p);
  std::vector<rt::sweep_state> runs;
  for (int k = 0; k < 20; ++k) {
    runs.push_back(recorded(data, 2));
    CHECK(rt::same_places(runs.back(), 0, p));
  }
  CHECK(p.found.size() <= 8);
  CHECK(p.found.back() == runs.back().recording);
}
} // namespace

int main() {
  testFound();
  testForgets();
  testBounded();
  return checksDone("list_places_test");
}
