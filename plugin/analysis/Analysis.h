//===- Analysis.h - which fields an annotated loop reads and writes -*- C++ -*-===//
#ifndef SOAVIEW_ANALYSIS_H
#define SOAVIEW_ANALYSIS_H

#include "plan/Model.h"

namespace clang {
class ASTContext;
}

namespace soaview {
class DiagStore;

/// Fills each loop's View and the nest's Callees from the loops' Forms.
/// Returns false after reporting why the nest cannot be converted.
bool analyseNest(clang::ASTContext &Ctx, DiagStore &Diags, NestPlan &Nest);

} // namespace soaview

#endif
