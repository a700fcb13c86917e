//===- RegionChecks.h - the second pass: what a region refuses ---*- C++
//-*-===//
//
// The region stage's second pass (Regions.cpp runs it after LoopCollector):
// the walk over what the region runs, into its annotated loops too, that
// refuses what else meets their elements (a field read or written, a
// member function of the element, a container of elements changed, a call
// soaview cannot follow, an OpenMP directive), each with the statement, the
// field and the region named; and that finds the first place where the
// region's code may change a list unseen (ListChanges.h).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REGIONS_REGIONCHECKS_H
#define SOAVIEW_REGIONS_REGIONCHECKS_H

#include "regions/ListChanges.h"
#include "regions/RegionWalk.h"
#include "support/ElementTypes.h"

#include <set>
#include <string>

namespace clang {
class BinaryOperator;
class CXXMethodDecl;
} // namespace clang

namespace soaview {
struct RegionAnnotation;

namespace regions {

/// The second pass's product.
struct RegionVerdict {
  bool Refused = false; ///< something was reported
  /// The first place where the region's code may change a list unseen, and
  /// what it does there (invalid: none).
  clang::SourceLocation ListsMayChange;
  std::string ListsWhy;
};

class RegionChecker : public RegionWalk {
public:
  RegionChecker(clang::ASTContext &Ctx, const AnnotationCollector &Annotated,
                DiagStore &Diags, const RegionAnnotation &Region,
                const ElementTypes &Elements);
  /// Walks the region; every refusal goes into Diags.
  RegionVerdict check();

private:
  bool entersLoop(const clang::Stmt *, const LoopAnnotation &) override {
    return true;
  }
  void directive(const clang::Stmt *S) override;
  bool visit(const clang::Expr *E) override;
  void unseen(clang::SourceLocation L, const Msg &M, const Msg &Note) override;

  void checkExpr(const clang::Expr *E);
  void checkContainerCall(const clang::CallExpr *Call,
                          const clang::CXXMethodDecl *M,
                          const clang::Expr *Object);
  void checkAssignment(const clang::BinaryOperator *BO);
  void checkLibraryCall(const clang::CallExpr *Call,
                        const clang::FunctionDecl *FD, unsigned First);
  bool writesThrough(clang::QualType P, const clang::Expr *Arg) const;
  const clang::Expr *shownContainer(const clang::Expr *Arg) const;
  StoredDiag &report(clang::SourceLocation L, const Msg &M);
  void reportContainer(clang::SourceLocation L, llvm::StringRef What,
                       clang::QualType Container);

  DiagStore &Diags;
  const RegionAnnotation &Region;
  const ElementTypes &Elements;
  const ListChanges Changes;
  RegionVerdict Verdict;
  std::set<unsigned> Reported; ///< locations with a diagnostic
};

} // namespace regions
} // namespace soaview

#endif
