//===- PassDiagnostics.h - what the first pass reports besides nests -*- C++
//-*-===//
//
// The first pass's diagnostics that belong to no nest: the problems found
// while the attributes were recorded, the refusal of a standard before
// C++17, the remarks of view regions, and the CUDA backend's warning when
// nothing was offloaded. Each reports into the pass's store.
// Tests: test/Sema/attributes.cpp, test/Sema/cxx14.cpp,
// test/Sema/regions.cpp, test/Sema/cuda-nothing-offloaded.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_PASSDIAGNOSTICS_H
#define SOAVIEW_PASSDIAGNOSTICS_H

#include "diag/Diagnostics.h"
#include "driver/PassRequest.h"
#include "frontend/LoopFinder.h"
#include "regions/Regions.h"

#include <vector>

namespace clang {
class LangOptions;
}

namespace soaview {
class AnnotationCollector;

/// The problems the attribute hooks recorded (frontend/Annotations.h).
void reportAttributeProblems(const AnnotationCollector &Annotations,
                             DiagStore &Diags);
/// Generated code is C++17 (std::void_t, if constexpr, inline variables):
/// an earlier standard gets one error, at the first annotated loop, and
/// nothing is rewritten.
void refuseStandard(const clang::LangOptions &LO, const LoopInstance &First,
                    DiagStore &Diags);
/// A remark per view region: how many loops it reaches, its elements, and
/// where its lists are checked.
void remarkRegions(const std::vector<RegionPlan> &Regions, DiagStore &Diags);
/// The CUDA backend converted no offloaded loop (and nothing was refused):
/// a warning at the top of the file, since the .cu it writes would
/// otherwise pass for a GPU build.
void warnNothingOffloaded(const PassRequest &Request, bool AnyOffload,
                          DiagStore &Diags);

} // namespace soaview

#endif
