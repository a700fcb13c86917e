//===- TargetNames.cpp - where an index loop's target name is used -------===//
//
// Index loops name their target in the body (`bodies[i]`): which of those
// uses belong to another annotated loop over the same target (a nest), and
// which bounds and offsets may be evaluated once more before the loop.
// Used by the recogniser (forms/IndexForm.cpp).
//===----------------------------------------------------------------------===//
#include "forms/TargetNames.h"

#include "frontend/Annotations.h"
#include "support/Ancestors.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace soaview {

/// A loop bound soaview may evaluate once more: no side effects, where calls
/// are allowed only to const member functions (`v.size()`) and constexpr
/// functions.
bool pureBound(const Expr *E, ASTContext &Ctx) {
  struct Check : RecursiveASTVisitor<Check> {
    bool OK = true;
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *FD = C->getDirectCallee();
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      if (!FD || !(FD->isConstexpr() || (MD && MD->isConst())))
        OK = false;
      return true;
    }
    bool VisitExpr(Expr *E) {
      if (isa<CallExpr>(E) || isa<CXXConstructExpr>(E) ||
          isa<MaterializeTemporaryExpr>(E) || isa<ImplicitCastExpr>(E) ||
          isa<CXXBindTemporaryExpr>(E) || isa<ExprWithCleanups>(E))
        return true;
      if (const auto *U = dyn_cast<UnaryOperator>(E))
        if (U->isIncrementDecrementOp())
          OK = false;
      if (const auto *B = dyn_cast<BinaryOperator>(E))
        if (B->isAssignmentOp())
          OK = false;
      return true;
    }
  } C;
  C.TraverseStmt(const_cast<Expr *>(E));
  return C.OK;
}

/// The for loop whose init statement declares V, or null.
static const ForStmt *loopDeclaring(ASTContext &Ctx, const VarDecl *V) {
  const Stmt *Declaring = nullptr;
  for (const DynTypedNode &N : ancestors(Ctx, *V)) {
    if (Declaring) {
      const auto *FS = N.get<ForStmt>();
      return FS && FS->getInit() == Declaring ? FS : nullptr;
    }
    Declaring = N.get<DeclStmt>();
    if (!Declaring)
      return nullptr;
  }
  return nullptr;
}

/// True when FS is annotated with soa_conversion_target(Name).
static bool hasTarget(const ForStmt *FS, StringRef Name,
                      const AnnotationCollector &All) {
  auto It = All.Loops.find(FS->getForLoc());
  const AttrUse *T =
      It == All.Loops.end() ? nullptr : It->second.get(AttrKind::Target);
  return T && T->Target == Name;
}

/// True when Index is the index variable of another annotated index loop
/// whose target is Name, with or without an offset (`bodies[j]`,
/// `bodies[j - 1]` in the loop over `bodies[i]`): that use belongs to the
/// other loop's view.
bool otherLoopsIndex(ASTContext &Ctx, const Expr *Index, const VarDecl *Own,
                     StringRef Name, const AnnotationCollector &All) {
  // `bodies[j - 1]`: the other loop's index plus an offset
  const Expr *E = strip(Index);
  while (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub)
      break;
    E = strip(B->getLHS());
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || V == Own)
    return false;
  const ForStmt *FS = loopDeclaring(Ctx, V);
  return FS && hasTarget(FS, Name, All);
}

/// True when E lies in the body of an annotated loop over target Name that
/// is nested in Own.
bool insideOtherTargetLoop(ASTContext &Ctx, const Expr *E, const Stmt *Own,
                           StringRef Name, const AnnotationCollector &All) {
  for (const DynTypedNode &N : ancestors(Ctx, *E)) {
    const Stmt *P = N.get<Stmt>();
    if (P == Own)
      return false;
    // Through declarations (`double d = bodies[i].x`) and lambdas in the
    // loop, but not out of the function.
    if (const auto *FD = N.get<FunctionDecl>()) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!MD || !MD->getParent()->isLambda())
        return false;
    }
    if (const auto *FS = dyn_cast_or_null<ForStmt>(P))
      if (hasTarget(FS, Name, All))
        return true;
  }
  return false;
}

/// True when Loop lies in the body of another annotated loop over target
/// Name, in the same function: that loop's view shadows Name there.
bool enclosedByTargetLoop(ASTContext &Ctx, const Stmt *Loop, StringRef Name,
                          const AnnotationCollector &All) {
  for (const DynTypedNode &N : ancestors(Ctx, *Loop)) {
    if (const auto *FD = N.get<FunctionDecl>()) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!MD || !MD->getParent()->isLambda())
        return false;
    }
    if (const auto *FS = N.get<ForStmt>())
      if (hasTarget(FS, Name, All))
        return true;
  }
  return false;
}

} // namespace soaview
