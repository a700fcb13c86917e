// A container far larger than any stack: the view's buffers come from the
// runtime's heap pool, never from stack arrays ([Radtke2025], section 6.3: its VLAs overflow).
// Usage: large SEED N
#include "common.h"

#include <vector>

struct Sample {
  double value;
  double weight;
  float flag;
  int bucket;
};

double normalise(std::vector<Sample> &s, double scale) {
  double total = 0;
  [[clang::soa_conversion]]
  for (Sample &x : s) {
    x.value = x.value * scale + x.weight;
    total += x.value;
  }
  return total;
}

int main(int argc, char **argv) {
  ExampleArgs a = parseArgs(argc, argv);
  std::vector<Sample> s(static_cast<std::size_t>(a.n));
  std::mt19937 rng(a.seed);
  for (std::size_t i = 0; i < s.size(); ++i)
    s[i] = {static_cast<double>(rng() % 1000), 0.5, 0.f, static_cast<int>(i % 7)};
  double t = normalise(s, 0.25);
  printValue("total", t);
  printValue("last", s.empty() ? 0 : s.back().value);
}
