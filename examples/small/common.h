// Shared helpers of the small examples: seeded data and exact printing.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <random>

struct ExampleArgs {
  unsigned seed = 1;
  long n = 1000;
  int reps = 1;
};

inline ExampleArgs parseArgs(int argc, char **argv) {
  ExampleArgs a;
  if (argc > 1) a.seed = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
  if (argc > 2) a.n = std::strtol(argv[2], nullptr, 10);
  if (argc > 3) a.reps = std::atoi(argv[3]);
  return a;
}

// Hex floats: two builds agree only if every bit agrees.
inline void printValue(const char *name, double v) { std::printf("%s %a\n", name, v); }
