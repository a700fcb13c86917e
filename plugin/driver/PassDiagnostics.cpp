//===- PassDiagnostics.cpp - what the first pass reports besides nests ----===//
#include "driver/PassDiagnostics.h"

#include "frontend/Annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace soaview {

void reportAttributeProblems(const AnnotationCollector &Annotations,
                             DiagStore &Diags) {
  for (const AttrProblem &P : Annotations.Problems) {
    StoredDiag &D = Diags.report(P.Loc, P.Message);
    if (P.Note)
      Diags.note(D, P.Loc, *P.Note);
  }
}

void refuseStandard(const LangOptions &LO, const LoopInstance &First,
                    DiagStore &Diags) {
  const char *Standard = LO.CPlusPlus14   ? "C++14"
                         : LO.CPlusPlus11 ? "C++11"
                         : LO.CPlusPlus   ? "C++98"
                                          : "C";
  StoredDiag &D = Diags.report(First.Annotation->ForLoc,
                               {diag::err_needs_cxx17, {Standard}});
  Diags.note(D, First.Annotation->ForLoc, diag::note_needs_cxx17);
}

void remarkRegions(const std::vector<RegionPlan> &Regions, DiagStore &Diags) {
  for (const RegionPlan &Region : Regions) {
    StoredDiag &D = Diags.report(
        Region.Annotation->Loc,
        {diag::remark_region,
         {std::to_string(Region.Loops.size()),
          llvm::join(Region.Elements.begin(), Region.Elements.end(), ", ")}});
    if (Region.ListsMayChange.isValid())
      Diags.note(D, Region.ListsMayChange,
                 {diag::note_region_lists_checked, {Region.ListsWhy}});
  }
}

void warnNothingOffloaded(const PassRequest &Request, bool AnyOffload,
                          DiagStore &Diags) {
  if (Request.Planning.Backend != BackendKind::Cuda || AnyOffload ||
      !Request.Host || Diags.hasErrors())
    return;
  const SourceManager &SM = Request.Ctx.getSourceManager();
  SourceLocation Top = SM.getLocForStartOfFile(SM.getMainFileID());
  StoredDiag &D = Diags.report(Top, diag::warn_cuda_nothing_offloaded);
  Diags.note(D, Top, diag::note_cuda_nothing_offloaded);
}

} // namespace soaview
