// swift-step: what must come before SWIFT's headers (our code). Included by
// particle.h; step.cpp includes it first so that the CUDA build can paste
// SWIFT's kernel_hydro.h into step.cpp right after it (see build-gpu.sh).
#pragma once
// C++ library headers first: SWIFT's minmax.h defines function-like macros
// max/min that would break std::max in <vector>.
#include <cstddef>
#include <vector>

#include <cstdio>

#include <config.h>

// SWIFT's error.h prints through stderr, clocks_get_timesincestart() and
// engine_rank, which offloaded code cannot reach (soaview: "uses the variable
// 'stderr', which lives in host memory"). Include it first, then give its
// macros device-safe bodies of ours (printf; error() traps), in every build.
#include "error.h"
#undef error
#undef warning
#undef message
#define message(s, ...) printf("swift-step: " s "\n", ##__VA_ARGS__)
#define warning(s, ...) printf("swift-step: WARNING: " s "\n", ##__VA_ARGS__)
#define error(s, ...)                                                          \
  ({                                                                           \
    printf("swift-step: ERROR: " s "\n", ##__VA_ARGS__);                       \
    __builtin_trap();                                                          \
  })

#ifdef SWIFT_STEP_COSMOLOGY_STANDIN
#include "cosmology_standin.h"
#endif
