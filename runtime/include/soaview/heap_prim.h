//===- soaview/heap_prim.h - the device heap's platform primitives -*- C++
//-*-===//
//
// Every operation soaview/heap.h needs from the platform it runs on, each
// defined here once per platform (as mimalloc keeps its own behind prim.h
// and atomic.h). heap.h holds the layout and the algorithm and calls these
// as prim::NAME; nothing else in the heap is spelt per platform.
//
// Platforms (exactly one applies to a compilation):
//   CUDA   CUDA device code: nvcc's (or clang's) device pass, __CUDACC__
//          and __CUDA_ARCH__. SOAVIEW_CUDA_DEVICE is 1 there only.
//   NVPTX  OpenMP device code for NVIDIA GPUs (clang -fopenmp
//          --offload-arch=sm_XX): __NVPTX__, and __CUDA_ARCH__ too, but
//          none of CUDA's intrinsics.
//   host   everything else: host threads, OpenMP on the host device, the
//          host pass of a CUDA compilation (GCC/Clang __atomic builtins).
//
// Atomics. Each works on a word of the heap's state in global memory, at
// device scope; those that read return the value found (cas: `expect` when
// it swapped). 32-bit: load(p), store(p, v), fetch_add, fetch_sub,
// fetch_or (p, v), clear_release(p, v) (*p &= ~v), cas(p, expect, v);
// 64-bit, for the failure record only: add_relaxed(p, v), max_relaxed(p, v)
// (*p = max(*p, v)), which order nothing. The heap relies on two pairings:
// clear_release (a block freed) before the fetch_or that claims the block
// again, so its last owner's writes come first; store (a slab state or hint
// published) after the caller's earlier writes. Memory orders:
//
//   op             CUDA                    NVPTX             host
//   load           volatile load           volatile load,    acquire
//                                          then membar.gl
//   store          __threadfence, then     membar.gl, then   release
//                  atomicExch (relaxed)    relaxed exchange
//   fetch_add/sub  atomicAdd/Sub (relaxed) acq_rel           acq_rel
//   fetch_or       atomicOr (relaxed)      acquire           acquire
//   clear_release  __threadfence, then     fetch_and,        fetch_and,
//                  atomicAnd (relaxed)     release           release
//   cas            atomicCAS (relaxed)     strong; acq_rel,  strong; acq_rel,
//                                          acquire if fails  acquire if fails
//   add_relaxed    atomicAdd               relaxed           relaxed
//   max_relaxed    atomicMax               relaxed load,     relaxed load,
//                                          weak CAS loop     weak CAS loop
//
// LLVM 19's NVPTX back end selects no atomic fences, acquire loads or
// release stores: hence NVPTX's volatile accesses with the device's memory
// barrier, as CUDA does.
//
// Threads:
//   thread_hash()  a 32-bit hash of the calling thread (times 2654435761):
//                  different for threads that run at once, as a rule (a
//                  collision costs contention, never correctness). CUDA: of
//                  the global x index (blockIdx.x * blockDim.x +
//                  threadIdx.x); elsewhere: of an address on the thread's
//                  stack (host and OpenMP device threads have their own).
//   lane()         the thread's allocation offset, before the heap takes it
//                  modulo its lanes. CUDA: the warp's global index (the x
//                  index >> 5), shared by a warp's threads; elsewhere
//                  thread_hash() >> 16, one per thread.
// Bits (every platform): ctz32(v), the index of the lowest set bit (v != 0;
// CUDA __ffs(v) - 1, else __builtin_ctz); popcount(v) (__popc, else
// __builtin_popcount).
//
// Warp groups: warp_groups() (a constexpr function; SOAVIEW_HEAP_WARP_GROUPS
// for the preprocessor) is true on CUDA devices of compute capability 8.0
// and later only (__match_any_sync needs 7.0, __reduce_or_sync 8.0). There
// the threads of a warp that allocate or free at once act as one group;
// NVPTX (OpenMP), older GPUs and the host take the per-thread path. heap.h
// chooses the path with `if constexpr (prim::warp_groups())` and nothing
// else. The primitives below are defined only where warp_groups() holds;
// elsewhere they are declared, so that the group code is compiled (checked)
// everywhere, and never called (a call would not link). `mask` names the
// lanes of the warp taking part, all of which make the call (CUDA's *_sync
// contract):
//   warp_lane_id()         the thread's index in its warp (%laneid)
//   active_mask()          the warp's threads running the call (__activemask)
//   match_any(mask, v)     the lanes of mask whose v is the caller's
//                          (__match_any_sync; 32- and 64-bit v)
//   ballot(mask, pred)     the lanes of mask whose pred holds (__ballot_sync)
//   shuffle(mask, v, src)  lane src's v (__shfl_sync)
//   reduce_or(mask, v)     the or of the lanes' v (__reduce_or_sync)
//   sync_group(mask)       the lanes meet; their writes before it are
//                          visible to each other after it (__syncwarp)
//   fence()                the caller's writes before it are seen before
//                          its later ones, at device scope (__threadfence)
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_HEAP_PRIM_H
#define SOAVIEW_HEAP_PRIM_H

#include <cstdint>

#if defined(__CUDACC__)
#define SOAVIEW_HEAP_FN __host__ __device__ inline
/// A declaration only (see "Warp groups" above).
#define SOAVIEW_HEAP_DECL __host__ __device__
#else
#define SOAVIEW_HEAP_FN inline
#define SOAVIEW_HEAP_DECL
#endif
// CUDA device code (nvcc's device pass). OpenMP offloading to NVPTX defines
// __CUDA_ARCH__ too, without CUDA's intrinsics: it is not CUDA here.
#if defined(__CUDACC__) && defined(__CUDA_ARCH__)
#define SOAVIEW_CUDA_DEVICE 1
#else
#define SOAVIEW_CUDA_DEVICE 0
#endif
#if SOAVIEW_CUDA_DEVICE && __CUDA_ARCH__ >= 800
#define SOAVIEW_HEAP_WARP_GROUPS 1
#else
#define SOAVIEW_HEAP_WARP_GROUPS 0
#endif

namespace soaview::heap::prim {

/// Whether the threads of a warp allocate and free as one group. A function,
/// not a variable: OpenMP device code would emit a variable as a global.
SOAVIEW_HEAP_FN constexpr bool warp_groups() {
  return SOAVIEW_HEAP_WARP_GROUPS;
}

#if SOAVIEW_CUDA_DEVICE
//--- CUDA -------------------------------------------------------------------
SOAVIEW_HEAP_FN std::uint32_t load(const std::uint32_t *p) {
  return *(const volatile std::uint32_t *)p;
}
SOAVIEW_HEAP_FN void store(std::uint32_t *p, std::uint32_t v) {
  __threadfence();
  atomicExch((unsigned *)p, v);
}
SOAVIEW_HEAP_FN std::uint32_t fetch_add(std::uint32_t *p, std::uint32_t v) {
  return atomicAdd((unsigned *)p, v);
}
SOAVIEW_HEAP_FN std::uint32_t fetch_sub(std::uint32_t *p, std::uint32_t v) {
  return atomicSub((unsigned *)p, v);
}
SOAVIEW_HEAP_FN std::uint32_t fetch_or(std::uint32_t *p, std::uint32_t v) {
  return atomicOr((unsigned *)p, v);
}
SOAVIEW_HEAP_FN void clear_release(std::uint32_t *p, std::uint32_t v) {
  __threadfence(); // the block's last writes before its next owner's
  atomicAnd((unsigned *)p, ~v);
}
SOAVIEW_HEAP_FN std::uint32_t cas(std::uint32_t *p, std::uint32_t expect,
                                  std::uint32_t v) {
  return atomicCAS((unsigned *)p, expect, v);
}
SOAVIEW_HEAP_FN void add_relaxed(unsigned long long *p, unsigned long long v) {
  atomicAdd(p, v);
}
SOAVIEW_HEAP_FN void max_relaxed(unsigned long long *p, unsigned long long v) {
  atomicMax(p, v);
}
SOAVIEW_HEAP_FN unsigned lane() {
  return (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
}
SOAVIEW_HEAP_FN unsigned thread_hash() {
  return (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u;
}
SOAVIEW_HEAP_FN unsigned ctz32(std::uint32_t v) {
  return (unsigned)(__ffs((int)v) - 1);
}
SOAVIEW_HEAP_FN unsigned popcount(std::uint32_t v) {
  return (unsigned)__popc(v);
}

#else
//--- NVPTX (OpenMP device) and host ----------------------------------------
#if defined(__NVPTX__)
SOAVIEW_HEAP_FN std::uint32_t load(const std::uint32_t *p) {
  std::uint32_t v = *(const volatile std::uint32_t *)p;
  __nvvm_membar_gl();
  return v;
}
SOAVIEW_HEAP_FN void store(std::uint32_t *p, std::uint32_t v) {
  __nvvm_membar_gl();
  __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
#else
SOAVIEW_HEAP_FN std::uint32_t load(const std::uint32_t *p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
SOAVIEW_HEAP_FN void store(std::uint32_t *p, std::uint32_t v) {
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
}
#endif
SOAVIEW_HEAP_FN std::uint32_t fetch_add(std::uint32_t *p, std::uint32_t v) {
  return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL);
}
SOAVIEW_HEAP_FN std::uint32_t fetch_sub(std::uint32_t *p, std::uint32_t v) {
  return __atomic_fetch_sub(p, v, __ATOMIC_ACQ_REL);
}
SOAVIEW_HEAP_FN std::uint32_t fetch_or(std::uint32_t *p, std::uint32_t v) {
  return __atomic_fetch_or(p, v, __ATOMIC_ACQUIRE);
}
SOAVIEW_HEAP_FN void clear_release(std::uint32_t *p, std::uint32_t v) {
  __atomic_fetch_and(p, ~v, __ATOMIC_RELEASE);
}
SOAVIEW_HEAP_FN std::uint32_t cas(std::uint32_t *p, std::uint32_t expect,
                                  std::uint32_t v) {
  __atomic_compare_exchange_n(p, &expect, v, false, __ATOMIC_ACQ_REL,
                              __ATOMIC_ACQUIRE);
  return expect;
}
SOAVIEW_HEAP_FN void add_relaxed(unsigned long long *p, unsigned long long v) {
  __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
SOAVIEW_HEAP_FN void max_relaxed(unsigned long long *p, unsigned long long v) {
  unsigned long long m = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (m < v && !__atomic_compare_exchange_n(p, &m, v, true, __ATOMIC_RELAXED,
                                               __ATOMIC_RELAXED)) {
  }
}
SOAVIEW_HEAP_FN unsigned thread_hash() {
  int probe;
  auto a = (unsigned long long)(std::uintptr_t)&probe;
  return (unsigned)((a >> 6) ^ (a >> 20)) * 2654435761u;
}
SOAVIEW_HEAP_FN unsigned lane() { return thread_hash() >> 16; }
SOAVIEW_HEAP_FN unsigned ctz32(std::uint32_t v) {
  return (unsigned)__builtin_ctz(v);
}
SOAVIEW_HEAP_FN unsigned popcount(std::uint32_t v) {
  return (unsigned)__builtin_popcount(v);
}
#endif

#if SOAVIEW_HEAP_WARP_GROUPS
//--- Warp groups (CUDA, sm_80 and later) ------------------------------------
SOAVIEW_HEAP_FN unsigned warp_lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}
SOAVIEW_HEAP_FN unsigned active_mask() { return __activemask(); }
SOAVIEW_HEAP_FN unsigned match_any(unsigned mask, std::uint32_t v) {
  return __match_any_sync(mask, v);
}
SOAVIEW_HEAP_FN unsigned match_any(unsigned mask, unsigned long long v) {
  return __match_any_sync(mask, v);
}
SOAVIEW_HEAP_FN unsigned ballot(unsigned mask, bool pred) {
  return __ballot_sync(mask, pred);
}
SOAVIEW_HEAP_FN std::uint32_t shuffle(unsigned mask, std::uint32_t v,
                                      unsigned src) {
  return __shfl_sync(mask, v, src);
}
SOAVIEW_HEAP_FN std::uint32_t reduce_or(unsigned mask, std::uint32_t v) {
  return __reduce_or_sync(mask, v);
}
SOAVIEW_HEAP_FN void sync_group(unsigned mask) { __syncwarp(mask); }
SOAVIEW_HEAP_FN void fence() { __threadfence(); }
#else
// Declared only: compiled in heap.h's group code, never called here.
SOAVIEW_HEAP_DECL unsigned warp_lane_id();
SOAVIEW_HEAP_DECL unsigned active_mask();
SOAVIEW_HEAP_DECL unsigned match_any(unsigned mask, std::uint32_t v);
SOAVIEW_HEAP_DECL unsigned match_any(unsigned mask, unsigned long long v);
SOAVIEW_HEAP_DECL unsigned ballot(unsigned mask, bool pred);
SOAVIEW_HEAP_DECL std::uint32_t shuffle(unsigned mask, std::uint32_t v,
                                        unsigned src);
SOAVIEW_HEAP_DECL std::uint32_t reduce_or(unsigned mask, std::uint32_t v);
SOAVIEW_HEAP_DECL void sync_group(unsigned mask);
SOAVIEW_HEAP_DECL void fence();
#endif

} // namespace soaview::heap::prim

#endif
