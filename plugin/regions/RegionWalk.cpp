//===- RegionWalk.cpp - the walk over what a view region runs -------------===//
//
// See RegionWalk.h. Tests: test/Sema/regions.cpp.
//===----------------------------------------------------------------------===//
#include "regions/RegionWalk.h"

#include "frontend/Annotations.h"
#include "regions/LibraryCalls.h"
#include "support/Reach.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview::regions {

RegionWalk::RegionWalk(ASTContext &Ctx, const AnnotationCollector &Annotated)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Annotated(Annotated),
      Reach([this](const Entry &E) { read(E); }) {}

const LoopAnnotation *RegionWalk::annotation(const Stmt *S) const {
  SourceLocation For;
  if (const auto *F = dyn_cast<ForStmt>(S))
    For = F->getForLoc();
  else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S))
    For = RF->getForLoc();
  else
    return nullptr;
  auto It = Annotated.Loops.find(For);
  return It == Annotated.Loops.end() ? nullptr : &It->second;
}

void RegionWalk::walk(const Stmt *S) {
  if (!S)
    return;
  if (const LoopAnnotation *A = annotation(S)) {
    if (!entersLoop(S, *A))
      return; // the nest's own analysis follows its body
    ++InLoop;
    for (const Stmt *Child : S->children())
      walk(Child);
    --InLoop;
    return;
  }
  if (isa<OMPExecutableDirective>(S) && !InLoop)
    return directive(S);
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isSync(Call)) {
    // soaview::sync(lists, f): f runs as outside the region, after the
    // runtime wrote back the lists' elements (its body is the user's word,
    // docs/offload.md); the lists are the region's code.
    for (unsigned I = 0; I + 1 < Call->getNumArgs(); ++I)
      walk(Call->getArg(I));
    return;
  }
  // A refused call is one diagnostic, not another for each use inside.
  const bool Follow = !isa<Expr>(S) || visit(cast<Expr>(S));
  if (!virtualDelete(S))
    runsAt(Ctx, S, Runs, [&](const Run &R) {
      if (R.Kind != RunKind::Call)
        followFunction(R.FD,
                       R.Var ? R.Var->getLocation() : R.Site->getBeginLoc());
      else if (Follow)
        follow(cast<CallExpr>(R.Site));
    });
  if (const auto *L = dyn_cast<LambdaExpr>(S)) // wherever it is called
    walk(L->getBody());
  for (const Stmt *Child : S->children())
    walk(Child);
}

/// Into the body of the function a call runs, once per function.
void RegionWalk::follow(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(FD);
  bool Virtual = M && M->isVirtual() && !M->hasAttr<FinalAttr>() &&
                 !M->getParent()->hasAttr<FinalAttr>();
  if (!FD || Virtual) {
    if (!isa<CXXPseudoDestructorExpr>(Call->getCallee()))
      unseen(Call->getBeginLoc(),
             {diag::err_region_indirect_call,
              {FD ? "a virtual call" : "a pointer"}},
             Msg(diag::note_region_indirect_call));
    return;
  }
  followFunction(FD, Call->getBeginLoc());
}

/// Into the body of FD, which the code at L runs (a call, a construction or
/// a destruction), once per function (inside or outside the loops).
void RegionWalk::followFunction(const FunctionDecl *FD, SourceLocation L) {
  if (FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation()) ||
      FD->isTrivial())
    return; // the library's: its uses of containers are checked at the call
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def))
    return unseen(L, {diag::err_region_unseen_call, {FD->getNameAsString()}},
                  Msg(diag::note_region_unseen_call));
  Reach.now({Def, InLoop > 0}, {Def, L});
}

/// A function's code: a constructor's initialisers and its body, and after
/// a destructor's body those of its members and bases.
void RegionWalk::read(const Entry &E) {
  Through.push_back(E.From);
  definitionCode(E.Def, [&](const Stmt *S) { walk(S); });
  if (const auto *Dt = dyn_cast<CXXDestructorDecl>(E.Def))
    partsDestroyed(Ctx, Dt, Runs.Destructors, [&](const CXXDestructorDecl *D) {
      followFunction(D, E.From);
    });
  Through.pop_back();
}

/// A delete through a virtual destructor of a user class: it may run
/// another class's destructor.
bool RegionWalk::virtualDelete(const Stmt *S) {
  const auto *DE = dyn_cast<CXXDeleteExpr>(S);
  const CXXRecordDecl *RD =
      DE ? DE->getDestroyedType()->getAsCXXRecordDecl() : nullptr;
  const CXXDestructorDecl *Dt =
      RD && RD->hasDefinition() ? RD->getDestructor() : nullptr;
  if (!Dt || !Dt->isVirtual() || Dt->hasAttr<FinalAttr>() ||
      RD->hasAttr<FinalAttr>() || SM.isInSystemHeader(RD->getLocation()))
    return false;
  unseen(DE->getBeginLoc(),
         {diag::err_region_indirect_call, {"a virtual call"}},
         Msg(diag::note_region_indirect_call));
  return true;
}

} // namespace soaview::regions
