//===- options.h - the environment variables the runtime reads ----------===//
//
// Every variable the runtime reads is an `option`, named once in the table
// of options.cpp and read through the functions below; no other file calls
// getenv. docs/runtime.md ("Environment") says what each one does.
//
// Covered by test/Unit/options_test.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_OPTIONS_H
#define SOAVIEW_OPTIONS_H

#include <cstddef>

namespace soaview::rt {

enum class option : unsigned {
  stats,       ///< SOAVIEW_STATS: 1 statistics at exit, 2 also phase times
  trials,      ///< SOAVIEW_TRIALS: 0 turns the gates' measuring off
  max_bytes,   ///< SOAVIEW_MAX_BYTES: the largest single lease
  no_pool,     ///< SOAVIEW_NO_POOL: a benchmark baseline without the pool
  overlap,     ///< SOAVIEW_OVERLAP: 0 makes soaview::sync wait for all
  device,      ///< SOAVIEW_DEVICE: a number or `local`
  device_heap, ///< SOAVIEW_DEVICE_HEAP: bytes, or with K, M, G
  kept_lists,  ///< SOAVIEW_KEPT_LISTS: 0 checks every run's lists in full
};

/// The variable's name.
const char *option_name(option o) noexcept;
/// Its value; nullptr when it is unset or empty.
const char *option_text(option o) noexcept;
/// Its value as a decimal number; 0 when unset or not a number.
std::size_t option_number(option o) noexcept;
/// A switch: `unset` when unset or empty, off for "0", on for anything else.
bool option_switch(option o, bool unset) noexcept;
/// The process's rank on its node from the launcher's environment (Open
/// MPI, MPICH, Slurm); -1 when none is set.
long launcher_local_rank() noexcept;

} // namespace soaview::rt

#endif // SOAVIEW_OPTIONS_H
