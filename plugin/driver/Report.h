//===- Report.h - what the first pass tells about converted loops -*- C++
//-*-===//
//
// Values the first pass hands on for each nest it converts (or leaves to
// the profitability rule): the rows of soaview-translate --report, where the
// loops are for GeneratedCodeGuard, and the remarks of -Rpass=soaview.
// Tests: test/Rewrite/report.cpp, test/Rewrite/generated-code-guard.cpp,
// test/Rewrite/nested-fields.cpp (remarks).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REPORT_H
#define SOAVIEW_REPORT_H

#include "diag/Diagnostics.h"
#include "driver/Options.h"
#include "emit/Emit.h"
#include "plan/Plan.h"

#include <vector>

namespace clang {
class ASTContext;
class SourceManager;
} // namespace clang

namespace soaview {

/// One row of [Radtke2025]'s Table 1 per loop of Nest (soaview-translate
/// --report); Converted false for a nest the profitability rule left.
std::vector<ReportRow> reportRows(clang::ASTContext &Ctx, const NestPlan &Nest,
                                  bool Converted);
void appendRows(std::vector<ReportRow> &To, std::vector<ReportRow> Rows);
/// Where the nest's loops (and its sweep) are, so that errors in their
/// generated code can be blamed on them (GeneratedCodeGuard).
std::vector<ConvertedLoop> convertedLoops(clang::ASTContext &Ctx,
                                          const DiagStore &Diags,
                                          const NestPlan &Nest);
/// The remarks of a converted nest: each loop's view and where it runs,
/// hoisting, pair loops, dispatch guards and the size gate.
void remarkConverted(const clang::SourceManager &SM, const NestPlan &Nest,
                     const Emitter &Em, DiagStore &Diags);

} // namespace soaview

#endif
