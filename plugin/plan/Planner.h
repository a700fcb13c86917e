//===- Planner.h - from an analysed nest to its plan ------------*- C++ -*-===//
//
// Planning decides where each loop runs (host, device), whether a nest
// over cells is swept, where generated code goes, and what device code an
// offloaded loop reaches and allocates with; it reports nothing (the checks
// judge the plan afterwards).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_PLANNER_H
#define SOAVIEW_PLANNER_H

#include "plan/Plan.h"
#include "support/Modes.h"

#include <optional>
#include <string>

namespace clang {
class ASTContext;
}

namespace soaview {

/// What the compile allows planning to choose.
struct PlanOptions {
  /// Offloaded loops run on a device (the compile has -fopenmp and an
  /// offload target, or the backend is CUDA); otherwise they stay on the
  /// host, and sweeps in view regions are swept on the host.
  bool CanOffload = false;
  BackendKind Backend = BackendKind::OpenMP;
  /// Allocation in offloaded code is routed to the device heap.
  bool DeviceHeap = true;
  /// The profitability rule applies (not -fplugin-arg-soaview-convert=always):
  /// host nests with a hoisted view get a size gate (plan/Plan.h, SizeGate).
  bool SizeGates = false;
  /// A view region reaches the nest (regions/Regions.h).
  bool InRegion = false;
  /// OpenMP sweeps of nests may run as bare kernels (Options::BareKernels).
  bool BareKernels = false;
};

/// Why a recognised sweep stays on the host, cell by cell, or nullopt: a
/// swept nest whose inner loop writes (the active-local order) would write
/// each element from several cells at once; one whose loops share a field
/// in place (analysis/Shared.cpp) reaches it in host memory.
std::optional<std::string> sweepStaysOnHost(const RecognisedNest &Recognised,
                                            const AnalysedNest &Analysed);

/// The plan of a recognised and analysed nest (plan/Plan.h).
NestPlan planNest(clang::ASTContext &Ctx, RecognisedNest Recognised,
                  AnalysedNest Analysed, const PlanOptions &Planning);

} // namespace soaview

#endif
