//===- RegionWalk.cpp - the walk over what a view region runs -------------===//
//
// See RegionWalk.h. Tests: test/Sema/regions.cpp.
//===----------------------------------------------------------------------===//
#include "regions/RegionWalk.h"

#include "frontend/Annotations.h"
#include "regions/LibraryCalls.h"

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
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Annotated(Annotated) {}

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
  if (const auto *E = dyn_cast<Expr>(S)) {
    // A refused call is one diagnostic, not another for each use inside.
    const bool Follow = visit(E);
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && Follow)
      follow(Call);
  }
  followImplicit(S);
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
/// a destruction), once per function: a constructor's member initialisers
/// too, and after a destructor's body those of its members and bases.
void RegionWalk::followFunction(const FunctionDecl *FD, SourceLocation L) {
  if (FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation()) ||
      FD->isTrivial())
    return; // the library's: its uses of containers are checked at the call
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def))
    return unseen(L, {diag::err_region_unseen_call, {FD->getNameAsString()}},
                  Msg(diag::note_region_unseen_call));
  if (!Visited.insert({Def, InLoop > 0}).second)
    return;
  Through.push_back(L);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *I : Ctor->inits())
      walk(I->getInit());
  walk(Def->getBody());
  if (const auto *Dt = dyn_cast<CXXDestructorDecl>(Def)) {
    const CXXRecordDecl *RD = Dt->getParent();
    for (const FieldDecl *F : RD->fields())
      followDestructor(F->getType(), L);
    for (const CXXBaseSpecifier &B : RD->bases())
      followDestructor(B.getType(), L);
  }
  Through.pop_back();
}

/// The destructor an object of type T runs at L: a class's own, or for a
/// class of the library (a container) those of the classes it holds.
void RegionWalk::followDestructor(QualType T, SourceLocation L) {
  T = Ctx.getBaseElementType(T);
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->hasTrivialDestructor())
    return;
  if (SM.isInSystemHeader(RD->getLocation())) {
    if (const auto *TS = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      for (const TemplateArgument &Arg : TS->getTemplateArgs().asArray())
        if (Arg.getKind() == TemplateArgument::Type)
          followDestructor(Arg.getAsType(), L);
    return;
  }
  if (const CXXDestructorDecl *Dt = RD->getDestructor())
    followFunction(Dt, L);
}

/// The functions S runs that are no call in the code: a construction's
/// constructor, and the destructors of the region's local variables, its
/// temporaries and what it deletes.
void RegionWalk::followImplicit(const Stmt *S) {
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    followFunction(CE->getConstructor(), CE->getBeginLoc());
  } else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(S)) {
    followDestructor(BT->getType(), BT->getBeginLoc());
  } else if (const auto *DE = dyn_cast<CXXDeleteExpr>(S)) {
    const CXXRecordDecl *RD = DE->getDestroyedType()->getAsCXXRecordDecl();
    const CXXDestructorDecl *Dt =
        RD && RD->hasDefinition() ? RD->getDestructor() : nullptr;
    if (Dt && Dt->isVirtual() && !Dt->hasAttr<FinalAttr>() &&
        !RD->hasAttr<FinalAttr>() && !SM.isInSystemHeader(RD->getLocation()))
      return unseen(DE->getBeginLoc(),
                    {diag::err_region_indirect_call, {"a virtual call"}},
                    Msg(diag::note_region_indirect_call));
    followDestructor(DE->getDestroyedType(), DE->getBeginLoc());
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *Dl : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(Dl); V && V->hasLocalStorage())
        followDestructor(V->getType(), V->getLocation());
  }
}

} // namespace soaview::regions
