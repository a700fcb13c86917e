//===- Regions.cpp - view regions: what they reach, what they refuse ------===//
//
// The region stage, in two passes over what each region runs (RegionWalk.h):
//  1. LoopCollector (here) finds the annotated loops, not walking into them,
//     and their element types (support/ElementTypes.h);
//  2. RegionChecker (RegionChecks.h) refuses what else meets those elements,
//     and finds where the region's code, its annotated loops' too, may
//     change a list unseen (ListChanges.h).
// Their products make the region's RegionPlan.
// Tests: test/Sema/regions.cpp.
//===----------------------------------------------------------------------===//
#include "regions/Regions.h"

#include "frontend/Annotations.h"
#include "regions/RegionChecks.h"
#include "regions/RegionWalk.h"
#include "support/Ancestors.h"
#include "support/AstHelpers.h"
#include "support/Compat.h"
#include "support/ElementTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

#include <optional>

using namespace clang;

namespace soaview {

namespace {

/// The function whose body holds S (null at namespace scope).
const FunctionDecl *enclosingFunction(ASTContext &Ctx, const Stmt *S) {
  for (const DynTypedNode &N : ancestors(Ctx, *S))
    if (const auto *FD = N.get<FunctionDecl>())
      return FD;
  return nullptr;
}

/// The record an element type names: `T`, `T *`, `T &`, cv-qualified.
const CXXRecordDecl *namedRecord(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->getAsCXXRecordDecl();
}

/// The first pass's product.
struct RegionLoops {
  /// Raw encodings of the annotated loops' `for` locations (RegionPlan).
  std::set<unsigned> Loops;
  /// Their element types, in the order found, and their qualified names.
  std::vector<const CXXRecordDecl *> Records;
  std::set<std::string> Names;
};

/// The first pass: the annotated loops a region reaches (not walked into)
/// and their element types.
class LoopCollector : public regions::RegionWalk {
public:
  using RegionWalk::RegionWalk;
  RegionLoops collect(const Stmt *Region) {
    walk(Region);
    return std::move(Found);
  }

private:
  bool entersLoop(const Stmt *Loop, const LoopAnnotation &A) override {
    Found.Loops.insert(A.ForLoc.getRawEncoding());
    addElements(Loop);
    return false; // the nest's own analysis follows its body
  }
  void addElements(const Stmt *Loop);
  bool holdsAnnotatedLoop(const Stmt *S) const;

  RegionLoops Found;
};

/// Whether S holds an annotated loop (a sweep's cell loop does).
bool LoopCollector::holdsAnnotatedLoop(const Stmt *S) const {
  for (const Stmt *Child : S->children())
    if (Child && (annotation(Child) || holdsAnnotatedLoop(Child)))
      return true;
  return false;
}

/// The element types of an annotated loop and the annotated loops in it (a
/// sweep's cell loop, offloaded and holding the nest, has none of its own).
void LoopCollector::addElements(const Stmt *Loop) {
  const LoopAnnotation *Annotation = annotation(Loop);
  bool CellLoop = Annotation && Annotation->has(AttrKind::Offload) &&
                  !Annotation->has(AttrKind::Convert) &&
                  holdsAnnotatedLoop(Loop);
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop);
      RF && Annotation && !CellLoop) {
    if (const CXXRecordDecl *RD = namedRecord(RF->getLoopVariable()->getType()))
      if (!llvm::is_contained(Found.Records, RD)) {
        Found.Records.push_back(RD);
        Found.Names.insert(qualifiedName(Ctx, compat::recordType(Ctx, RD)));
      }
  }
  for (const Stmt *Child : Loop->children())
    if (Child) {
      if (annotation(Child))
        addElements(Child);
      else if (!isa<Expr>(Child) || isa<LambdaExpr>(Child))
        addElements(Child);
    }
}

/// The region's plan, or none (a problem reported into Diags).
std::optional<RegionPlan> planRegion(ASTContext &Ctx,
                                     const AnnotationCollector &Annotated,
                                     DiagStore &Diags,
                                     const RegionAnnotation &Region) {
  RegionLoops Loops = LoopCollector(Ctx, Annotated).collect(Region.S);
  if (Loops.Loops.empty()) {
    Diags.report(Region.Loc, {diag::warn_region_empty});
    return std::nullopt;
  }
  const ElementTypes Elements(Ctx, std::move(Loops.Records));
  regions::RegionVerdict Verdict =
      regions::RegionChecker(Ctx, Annotated, Diags, Region, Elements).check();
  if (Verdict.Refused)
    return std::nullopt;
  RegionPlan Plan{&Region, std::move(Loops.Loops), std::move(Loops.Names)};
  Plan.ListsMayChange = Verdict.ListsMayChange;
  Plan.ListsWhy = std::move(Verdict.ListsWhy);
  return Plan;
}

} // namespace

std::vector<RegionPlan> analyseRegions(ASTContext &Ctx,
                                       const AnnotationCollector &Annotated,
                                       DiagStore &Diags) {
  std::vector<RegionPlan> Plans;
  for (const RegionAnnotation &Region : Annotated.Regions) {
    const FunctionDecl *FD = enclosingFunction(Ctx, Region.S);
    if (FD && FD->isDependentContext()) {
      StoredDiag &Diag = Diags.report(Region.Loc, {diag::err_region_template});
      Diags.note(Diag, Region.Loc, Msg(diag::note_region_template));
      continue;
    }
    if (std::optional<RegionPlan> Plan =
            planRegion(Ctx, Annotated, Diags, Region))
      Plans.push_back(std::move(*Plan));
  }
  return Plans;
}

} // namespace soaview
