// The analysis follows the whole call graph: recursion and mutual recursion
// (a fixpoint), function templates several levels deep, a lambda called in
// the body, a constructor taking field values, and a union field (copied
// whole).
#include "common.h"

#include <vector>

union Tag {
  int i;
  float f;
};

struct Cell {
  double a, b;
  Tag tag;
  long visits;
  double hist[4];
  double unused[6];
};

struct Pair {
  double lo, hi;
  Pair(double x, double y) : lo(x < y ? x : y), hi(x < y ? y : x) {}
};

void spread(Cell &c, int depth) {
  if (depth == 0)
    return;
  c.a += c.b * 0.5;
  spread(c, depth - 1);
}

void ping(Cell &c, int n);
void pong(Cell &c, int n) {
  c.b -= 0.125;
  if (n > 0)
    ping(c, n - 1);
}
void ping(Cell &c, int n) {
  c.a *= 1.0078125;
  if (n > 0)
    pong(c, n - 1);
}

template <class C> void touch(C &c) { c.visits++; }
template <class C> void level2(C &c) {
  touch(c);
  c.hist[c.visits % 4] += 1;
}

double sweep(std::vector<Cell *> &cells, int depth) {
  double s = 0;
  [[clang::soa_conversion]]
  for (Cell *c : cells) {
    auto bump = [&](double d) { c->a += d; };
    bump(0.25);
    auto halve = [](Cell &q) { q.b *= 0.5; }; // takes the element: becomes auto &
    halve(*c);
    spread(*c, depth);
    ping(*c, depth + 1);
    level2(*c);
    if (c->tag.i % 2)
      c->tag.f = 0.5f;
    Pair p(c->a, c->b);
    s += p.hi - p.lo;
  }
  return s;
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv);
  std::mt19937 rng(a.seed);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<Cell> store(static_cast<std::size_t>(a.n));
  std::vector<Cell *> cells;
  for (Cell &c : store) {
    c.a = U(rng);
    c.b = U(rng);
    c.tag.i = static_cast<int>(rng() % 100);
    c.visits = 0;
    for (double &h : c.hist)
      h = 0;
    cells.push_back(&c);
  }
  double s = 0;
  for (int r = 0; r < a.reps; ++r)
    s += sweep(cells, r % 4);
  double t = 0;
  long v = 0;
  for (const Cell &c : store) {
    t += c.a - 2 * c.b + c.hist[1] + c.tag.f;
    v += c.visits;
  }
  printValue("sum", s);
  printValue("state", t);
  std::printf("visits %ld\n", v);
}
