//===- Sweeps.h - a nest swept over all cells at once ------------*- C++
//-*-===//
//
// The rewrite of a sweep (docs/offload.md, "Sweeps"; runtime in
// soaview/sweep.h). For
//
//   [[clang::soa_conversion_offload_compute]]
//   for (Cell &c : cells) {
//     auto &l = c.local;
//     [[clang::soa_conversion]]
//     for (P *p : l) {
//       [[clang::soa_conversion_hoist(1)]]
//       for (const P *q : c.active) BODY
//     }
//   }
//
// the generated code is, in order:
//   { the site and the sweep object;
//     the cell loop as written, its declarations, then the recording of the
//       cell's ranges (the inner first, as the unswept nest evaluates them);
//       in a view region, a loop that reads only lists is skipped while the
//       runtime says the cells it recorded stand (plan/KeptCells.h);
//     start(): slots, index and gathers on the host, one copy to the device;
//     the device buffers and index (an OpenMP target region of a nest
//       captures each of their pointers apart and rebuilds the structs
//       first in its loop: KernelStruct);
//     the local loop over all local slots (a target region or a kernel),
//       whose body finds its cell, and whose inner loop walks the cell's runs
//       of inner slots (soaview::run_cursor) -- the loop bodies unchanged;
//   } the sweep's destructor copies the written fields back and scatters.
//
// The text from the cell loop's `for` to the local loop's `)` is replaced
// by the kernel's header; the cell loop's closing brace closes the kernel's
// loop (or lambda). Tests: test/Rewrite/sweep.cpp, test/Offload/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SWEEPS_H
#define SOAVIEW_SWEEPS_H

#include "emit/Loops.h"

namespace soaview {

class LoopLaunches;

/// A struct of device pointers a sweep's kernel reads (a view's buffers,
/// the index). Where the backend passes pointers apart
/// (LoopLaunches::passesPointersApart), the prologue names each member's
/// pointer (Members, in the struct's order) and the kernel captures those
/// and rebuilds the struct; otherwise (Members empty) it captures the struct.
struct KernelStruct {
  std::string Type;         ///< as the kernel rebuilds it
  std::string HostType;     ///< as the prologue declares it
  std::string Prefix, Base; ///< its name: Prefix + Base
  std::string Init;         ///< its value, from the sweep
  std::vector<std::string> Members;
};

/// How the kernel of a swept nest takes its device pointers and runs.
struct SweepKernelForm {
  /// Each pointer a kernel argument of its own, the structs rebuilt in the
  /// kernel (OpenMP, a nest with an inner loop).
  bool Apart = false;
  /// An `ompx_bare` kernel (soaview/omp_bare.h).
  bool Bare = false;
  /// Apart, bare kernels asked for, but the kernel's code may use OpenMP
  /// here (DeviceReach::OpenMPUse): it keeps OpenMP's worksharing loop.
  clang::SourceLocation WorksharingBecause;
};
SweepKernelForm sweepKernelForm(const NestPlan &Nest,
                                const LoopLaunches &Launches);

class SweepEmitter {
public:
  SweepEmitter(EmitContext &Emit, const LoopEmitter &Loops,
               const HeapRouter &Heap)
      : Emit(Emit), Loops(Loops), Heap(Heap) {}

  /// Rewrites a swept nest (Nest.Sweep).
  bool emit(const NestPlan &Nest);

private:
  std::vector<KernelStruct> kernelStructs(const NestPlan &Nest,
                                          const SweepForm &S, bool Apart) const;
  std::string rebuiltStructs(const std::vector<KernelStruct> &Structs) const;
  std::string prologue(const NestPlan &Nest, const SweepForm &S,
                       const std::vector<KernelStruct> &Structs,
                       bool Bare) const;
  std::string recording(const NestPlan &Nest, const SweepForm &S) const;
  std::string keptTest(const NestPlan &Nest, const std::string &Sweep) const;
  void innerLoop(const NestPlan &Nest, const SweepForm &S,
                 EditBuffer &Buffer) const;

  EmitContext &Emit;
  const LoopEmitter &Loops;
  const HeapRouter &Heap;
};

} // namespace soaview

#endif
