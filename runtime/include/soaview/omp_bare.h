//===- soaview/omp_bare.h - OpenMP sweep kernels without the runtime -*- C++
//-*-===//
//
// Unless -fplugin-arg-soaview-bare-kernels=off, the OpenMP target region of
// a swept nest whose code uses no OpenMP (no directive, no omp_ call, no
// device heap) runs as a bare kernel
// (`ompx_bare`): no OpenMP device runtime around the loop, each GPU thread
// walks the local slots with a grid stride, as a CUDA kernel does. LLVM 19
// compiles the worksharing loop's body as a function of its own called
// through the runtime; bare, SWIFT's force kernel holds 79 registers a
// thread instead of 109 (docs/offload.md, "Bare kernels").
//
// A bare region still runs on a device that is not a GPU (host offloading,
// the fallback without a device), but there its threads are OpenMP's: the
// slots are dealt to the teams' initial threads (bare_first, bare_stride),
// and bare_teams asks for one team, so that the host does not try to form
// thousands of teams. Which kind a device is, the device itself answers once
// (a target region), cached per device number. The GPU versions are chosen
// with `kind(gpu)`: `arch(nvptx, nvptx64)` would ask for both at once and
// never match, and the host versions in a bare kernel never end.
//
// Contracts: bare_first and bare_stride are called only in a bare target
// region; bare_teams from any host thread. Tests:
// test/Offload/host-offload.test (host offloading, bit for bit),
// test/Offload/bare-device-code.test (the NVPTX code calls the ompx_
// functions).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_OMP_BARE_H
#define SOAVIEW_OMP_BARE_H

#include <atomic>
#include <cstddef>
#include <cstdint>

#include <omp.h>
#include <ompx.h>

namespace soaview::omp {

/// Threads a team of a bare sweep kernel.
inline constexpr int bare_threads = 128;

#pragma omp declare target
#pragma omp begin declare variant match(device = {kind(gpu)})
inline std::size_t bare_first() {
  return static_cast<std::size_t>(ompx_block_id(ompx_dim_x)) *
             static_cast<std::size_t>(ompx_block_dim(ompx_dim_x)) +
         static_cast<std::size_t>(ompx_thread_id(ompx_dim_x));
}
inline std::size_t bare_stride() {
  return static_cast<std::size_t>(ompx_grid_dim(ompx_dim_x)) *
         static_cast<std::size_t>(ompx_block_dim(ompx_dim_x));
}
inline bool bare_on_gpu() { return true; }
#pragma omp end declare variant
/// Not a GPU: each team's initial thread takes every num_teams-th slot,
/// other threads none.
inline std::size_t bare_first() {
  return omp_get_thread_num() == 0
             ? static_cast<std::size_t>(omp_get_team_num())
             : SIZE_MAX;
}
inline std::size_t bare_stride() {
  return static_cast<std::size_t>(omp_get_num_teams());
}
inline bool bare_on_gpu() { return false; }
#pragma omp end declare target

/// Whether device runs its target regions on a GPU (asked once per device).
inline bool bare_device_is_gpu(int device) {
  constexpr int Known = 64;
  static std::atomic<signed char> kind[Known] = {};
  const bool cached = device >= 0 && device < Known;
  if (cached)
    if (signed char k = kind[device].load(std::memory_order_relaxed))
      return k > 0;
  bool gpu = false;
#pragma omp target device(device) map(from : gpu)
  gpu = bare_on_gpu();
  if (cached)
    kind[device].store(gpu ? 1 : -1, std::memory_order_relaxed);
  return gpu;
}

/// The teams of a bare sweep kernel over n slots on device: enough for one
/// slot a thread on a GPU (at most 2^20 teams: the grid stride covers the
/// rest), one elsewhere.
inline int bare_teams(std::size_t n, int device) {
  if (!bare_device_is_gpu(device))
    return 1;
  const std::size_t teams = (n + bare_threads - 1) / bare_threads;
  return teams == 0           ? 1
         : teams > (1u << 20) ? 1 << 20
                              : static_cast<int>(teams);
}

} // namespace soaview::omp

#endif
