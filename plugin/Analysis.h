//===- Analysis.h - which fields an annotated loop reads and writes -*- C++ -*-===//
#ifndef SOAVIEW_ANALYSIS_H
#define SOAVIEW_ANALYSIS_H

#include "Model.h"

namespace clang {
class ASTContext;
}

namespace soaview {
class DiagStore;

/// Fills Plan.View and Plan.Callees from Plan.Form. Returns false after
/// reporting why the loop cannot be converted.
bool analyseLoop(clang::ASTContext &Ctx, DiagStore &Diags, LoopPlan &Plan);

} // namespace soaview

#endif
