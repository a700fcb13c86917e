// CHECK() for the runtime's unit tests: reports and counts, never aborts.
#pragma once
#include <cstdio>

inline int Failures = 0;
#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
      ++Failures;                                                              \
    }                                                                          \
  } while (0)
