// Range-for over std::list of pointers (with a repeated element), std::deque
// of values, std::array by value, a C array, and a user range with
// begin()/end(); a loop that leaves early by return.
#include "common.h"

#include <array>
#include <deque>
#include <list>
#include <vector>

struct Cell {
  double load;
  double flux;
  int hits;
};

void accumulate(std::list<Cell *> &cells, double f) {
  [[clang::soa_conversion]]
  for (auto *c : cells) {
    c->flux += f * c->load;
    c->hits++;
  }
}

double firstNegative(std::deque<Cell> &cells) {
  double seen = 0;
  [[clang::soa_conversion]]
  for (auto &c : cells) {
    if (c.flux < -0.9)
      return seen; // the view is still written back
    seen += c.flux;
    c.load *= 0.5;
  }
  return seen;
}

double copies(std::array<Cell, 8> &cells) {
  double s = 0;
  [[clang::soa_conversion]]
  for (Cell c : cells) { // a copy: changes stay local, as in the original
    c.load += 1;
    s += c.load;
  }
  return s;
}

struct Ring {
  Cell *first;
  long n;
  Cell *begin() const { return first; }
  Cell *end() const { return first + n; }
};

void relax(Ring r) {
  [[clang::soa_conversion]]
  for (Cell &c : r)
    c.load = 0.5 * (c.load + c.flux);
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv);
  std::mt19937 rng(a.seed);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<Cell> store(static_cast<std::size_t>(a.n));
  for (Cell &c : store)
    c = {U(rng), U(rng), 0};
  std::list<Cell *> l;
  for (Cell &c : store)
    l.push_back(&c);
  l.push_back(&store[0]); // the same cell twice
  l.push_back(&store[a.n / 2]);
  accumulate(l, 0.25);
  std::deque<Cell> dq(store.begin(), store.end());
  double fn = firstNegative(dq);
  std::array<Cell, 8> arr;
  for (int i = 0; i < 8; ++i)
    arr[i] = store[i % store.size()];
  double cp = copies(arr);
  Cell raw[32];
  for (int i = 0; i < 32; ++i)
    raw[i] = store[i % store.size()];
  relax(Ring{raw, 32});
  double s = 0;
  long hits = 0;
  for (const Cell &c : store) {
    s += c.flux;
    hits += c.hits;
  }
  for (const Cell &c : dq) s += c.load;
  for (const Cell &c : arr) s += c.load;
  for (const Cell &c : raw) s += c.load;
  printValue("flux", s);
  printValue("first", fn);
  printValue("copies", cp);
  std::printf("hits %ld\n", hits);
}
