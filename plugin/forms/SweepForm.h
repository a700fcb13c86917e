//===- SweepForm.h - a loop over cells swept whole --------------*- C++ -*-===//
//
// soa_conversion_offload_compute on a loop whose body runs an annotated nest
// (docs/offload.md, "Sweeps"): the loop is a sweep over cells. Tests:
// test/Sema/sweep.cpp, test/Rewrite/sweep.cpp, test/Offload/sweep.test.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SWEEPFORM_H
#define SOAVIEW_SWEEPFORM_H

#include "forms/Forms.h"
#include "frontend/LoopFinder.h"

#include <optional>
#include <vector>

namespace clang {
class ASTContext;
}

namespace soaview {
class DiagStore;

/// True when N's outer loop is offloaded and its body holds the next
/// annotated loop as one of its statements (not hoisted), whose body does
/// not use the outer loop's variable (that is a nest over elements): a
/// sweep whose nest is N[1..].
bool looksLikeSweep(const std::vector<LoopInstance> &N);

/// The sweep's parts, or a located error when its shape is not one soaview
/// sweeps (a body with more than declarations and the nest, a template,
/// text from macros).
std::optional<SweepForm> recogniseSweep(clang::ASTContext &Ctx,
                                        const std::vector<LoopInstance> &N,
                                        DiagStore &Diags);

} // namespace soaview

#endif
