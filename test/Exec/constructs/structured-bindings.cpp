// Range-for loops whose variable is a structured binding: the binding that
// is a struct or a pointer to one stands for the element (its view); the
// other bindings bind, as written, to the range's elements. AutoPas's shapes:
// a cell sorted along a direction (projection, particle pointer) with the
// inner loop leaving early, a Verlet list (particle, its neighbours); and a
// map of particles, a tuple, an aggregate whose other binding is written,
// tuples of references, a copy. Repeats (one particle twice in a list, or
// referred to by two tuples) share one slot.
// Arguments: seed, particles.
// RUN: %compare --plain %clangxx --soaview %soaviewxx --flags "-O2 -std=c++17" --views 8 --out %t \
// RUN:   --run "1 40" --run "2 7" --run "3 300" %s | FileCheck %s
// CHECK: all runs identical
// Under the default rule the sorted pair nest gets the size gate: as
// written for 40 x 40, converted for 300 x 300 (SOAVIEW_STATS lists its
// sites only when the converted nest ran, and its gate always).
// RUN: env -u SOAVIEW_CONVERT %compare --plain %clangxx --soaview %soaviewxx --flags "-O2 -std=c++17" --views 8 --out %t.gate \
// RUN:   --run "1 40" --run "3 300" %s | FileCheck %s
// RUN: env SOAVIEW_STATS=1 %t.gate/structured-bindings.soaview 1 40 2>&1 >/dev/null | FileCheck %s --check-prefix=WRITTEN
// WRITTEN-NOT: structured-bindings.cpp:[[@LINE+30]]:{{[0-9]+}} host
// WRITTEN: structured-bindings.cpp:[[@LINE+29]]:5: gated nest, 1 call(s): 0 converted, 1 as written (1 below the size rule
// RUN: env SOAVIEW_STATS=1 %t.gate/structured-bindings.soaview 3 300 2>&1 >/dev/null | FileCheck %s --check-prefix=CONVERTED
// CONVERTED-DAG: structured-bindings.cpp:[[@LINE+27]]:5 host
// CONVERTED-DAG: structured-bindings.cpp:[[@LINE+28]]:7 host
#include "common.h"
#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

struct Part {
  double x[3], v[3], f[3];
  double rho;
  long id;
};

struct Entry {
  double weight;
  Part *p;
  int visits;
};

// AutoPas's sorted cell pair: both lists sorted by projection; the inner
// loop stops at the first partner farther than the cutoff along it.
template <class Sorted> struct SortedPairs {
  double cutoff;
  void run(Sorted &a, Sorted &b) {
    [[clang::soa_conversion]]
    for (auto &[pa, p1] : a) {
      [[clang::soa_conversion_hoist(1)]]
      for (auto &[pb, p2] : b) {
        if (pb - pa > cutoff)
          break;
        if (p1 == p2)
          continue;
        const double dx = p1->x[0] - p2->x[0];
        p1->f[0] += dx * p2->rho;
        p1->f[1] += pb - pa;
      }
    }
  }
};

// A Verlet list: each particle with the pointers of its neighbours.
void verlet(std::vector<std::pair<Part *, std::vector<Part *>>> &lists) {
  [[clang::soa_conversion("always")]]
  for (auto &[p, neighbours] : lists)
    for (const Part *q : neighbours)
      p->rho += q->x[1] * q->x[2];
}

int main(int argc, char **argv) {
  corpus::seed(argc, argv);
  const int n = corpus::count(argc, argv, 40);
  std::vector<Part> ps(n);
  for (Part &p : ps) {
    for (int d = 0; d < 3; ++d) {
      p.x[d] = corpus::uniform();
      p.v[d] = corpus::uniform() - 0.5;
      p.f[d] = 0;
    }
    p.rho = corpus::uniform();
    p.id = static_cast<long>(corpus::uniform() * 1000);
  }
  using Sorted = std::vector<std::pair<double, Part *>>;
  Sorted a, b;
  for (int k = 0; k < n; ++k) {
    a.push_back({ps[k].x[2], &ps[k]});
    b.push_back({ps[(k * 5) % n].x[2], &ps[(k * 5) % n]}); // repeats if 5 | n
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  SortedPairs<Sorted>{0.3}.run(a, b);

  std::vector<std::pair<Part *, std::vector<Part *>>> lists;
  for (int k = 0; k < n; ++k) {
    std::vector<Part *> nb;
    for (int j = 1; j < 6; ++j)
      nb.push_back(&ps[(k + j * 3) % n]);
    lists.push_back({&ps[(k * 3) % n], nb});
  }
  verlet(lists);

  // A map of particles by id, updated through the reference binding.
  std::map<int, Part> byId;
  for (int k = 0; k < n; ++k)
    byId[k * 3 + 1] = ps[k];
  [[clang::soa_conversion("always")]]
  for (auto &[id, p] : byId)
    for (int d = 0; d < 3; ++d)
      p.x[d] += p.v[d] * id;

  // A tuple, bound const: the element is written through its pointer.
  std::vector<std::tuple<int, Part *, double>> kicks;
  for (int k = 0; k < n; ++k)
    kicks.emplace_back(k, &ps[(k * 7) % n], corpus::uniform());
  [[clang::soa_conversion("always")]]
  for (const auto &[k, p, dt] : kicks)
    p->v[0] += p->f[0] * dt + k;

  // An aggregate of three: the other binding is written into the entry.
  std::vector<Entry> entries;
  for (int k = 0; k < n; ++k)
    entries.push_back({corpus::uniform(), &ps[(k * 11) % n], 0});
  [[clang::soa_conversion("always")]]
  for (auto &[w, p, visits] : entries) {
    p->v[1] += w * p->rho;
    visits += static_cast<int>(p->rho * 10);
  }

  // References in tuples: a particle held twice shares its slot, so the
  // second update sees the first.
  std::vector<std::tuple<int, Part &>> refs;
  for (int k = 0; k < n; ++k)
    refs.emplace_back(k, ps[(k * 2) % n]); // repeats
  [[clang::soa_conversion("always")]]
  for (auto &[k, p] : refs)
    p.f[2] = p.f[2] * 0.5 + k;

  // A copy: the element is the entry's copy; nothing is written back.
  double sum = 0;
  [[clang::soa_conversion("always")]]
  for (auto [id, p] : byId) {
    p.rho += id;
    sum += p.rho * p.x[0];
  }

  for (const Part &p : ps)
    for (int d = 0; d < 3; ++d) {
      corpus::print("x", p.x[d]);
      corpus::print("v", p.v[d]);
      corpus::print("f", p.f[d]);
      corpus::print("rho", p.rho);
    }
  for (auto &[id, p] : byId) {
    corpus::print("mx", p.x[0]);
    corpus::print("mrho", p.rho);
  }
  for (const Entry &e : entries)
    corpus::print("visits", e.visits);
  corpus::print("sum", sum);
}
