//===- Analysis.h - which fields an annotated loop reads and writes -*- C++
//-*-===//
#ifndef SOAVIEW_ANALYSIS_H
#define SOAVIEW_ANALYSIS_H

#include "analysis/View.h"
#include "forms/Forms.h"

#include <optional>

namespace clang {
class ASTContext;
}

namespace soaview {
class DiagStore;

/// The views of a recognised nest's loops, the functions they reach with
/// elements and the other uses of element objects (analysis/View.h).
/// nullopt after reporting why the nest cannot be converted.
std::optional<AnalysedNest> analyseNest(clang::ASTContext &Ctx,
                                        DiagStore &Diags,
                                        const RecognisedNest &Nest);

/// The fields one view of the nest writes and another holds, first the
/// writer's first use; each marked InPlace where every view can reach it
/// in the element itself. Checks refuse the others; planning keeps the
/// in-place ones (analysis/Shared.cpp).
std::vector<SharedField> sharedFields(const RecognisedNest &Recognised,
                                      const AnalysedNest &Analysed);

} // namespace soaview

#endif
