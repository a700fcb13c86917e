//===- SweepChecks.cpp - what a sweep over cells may not do ---------------===//
//
// A sweep records every cell's lists first, then runs the nest for all
// cells at once: it computes what the cell loop computes only when no cell
// can see another cell's writes, and when the nest needs nothing of the
// cell loop but its lists (docs/offload.md, "Sweeps"). A field written
// through the local elements and read through the inner loop stays in the
// element on the host and is refused on the device (checks/ViewChecks.cpp,
// checks/OffloadChecks.cpp); writes through the inner loop leave the nest
// on the host (plan/Planner.cpp, sweepStaysOnHost).
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace soaview {

namespace {

bool within(const SourceManager &SM, SourceLocation L, SourceRange R) {
  L = SM.getFileLoc(L);
  return !SM.isBeforeInTranslationUnit(L, SM.getFileLoc(R.getBegin())) &&
         !SM.isBeforeInTranslationUnit(SM.getFileLoc(R.getEnd()), L);
}

/// The first member expression in S naming a field of one of Records.
const MemberExpr *
fieldRead(const Stmt *S,
          const llvm::SmallPtrSetImpl<const RecordDecl *> &Records) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const llvm::SmallPtrSetImpl<const RecordDecl *> &Records;
    const MemberExpr *Found = nullptr;
    explicit Finder(const llvm::SmallPtrSetImpl<const RecordDecl *> &R)
        : Records(R) {}
    bool VisitMemberExpr(MemberExpr *E) {
      const auto *FD = dyn_cast<FieldDecl>(E->getMemberDecl());
      if (!FD || Found)
        return true;
      const RecordDecl *RD = FD->getParent();
      while (RD->isAnonymousStructOrUnion() && isa<RecordDecl>(RD->getParent()))
        RD = cast<RecordDecl>(RD->getParent());
      if (Records.count(cast<RecordDecl>(RD->getCanonicalDecl())))
        Found = E;
      return true;
    }
  } F(Records);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// The declarations and header of the cell loop S (Nest's sweep) run for
/// every cell before any nest: they may not read the elements' fields or have
/// side effects.
template <class RefuseFn>
bool cellHeaderAlone(ASTContext &Ctx, const NestPlan &Nest, const SweepForm &S,
                     RefuseFn &Refuse) {
  llvm::SmallPtrSet<const RecordDecl *, 4> Elements;
  for (const LoopPlan &P : Nest.Loops)
    Elements.insert(P.View.Element->getCanonicalDecl());
  std::vector<const Stmt *> Run(S.Decls.begin(), S.Decls.end());
  if (const auto *F = dyn_cast<ForStmt>(S.Loop)) {
    Run.push_back(F->getCond());
    Run.push_back(F->getInc());
  }
  for (const Stmt *St : Run) {
    if (!St)
      continue;
    if (const MemberExpr *M = fieldRead(St, Elements))
      return Refuse(M->getMemberLoc(),
                    {diag::err_sweep_declaration,
                     {"reads field '" + M->getMemberDecl()->getNameAsString() +
                      "' of the elements"}},
                    diag::note_sweep_declaration);
    if (const auto *DS = dyn_cast<DeclStmt>(St))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (const Expr *I = V->getInit(); I && I->HasSideEffects(Ctx, false))
            return Refuse(I->getExprLoc(),
                          {diag::err_sweep_declaration, {"has side effects"}},
                          diag::note_sweep_declaration);
  }
  return true;
}

} // namespace

bool checkSweep(ASTContext &Ctx, const NestPlan &Nest, DiagStore &Diags) {
  if (!Nest.Sweep)
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  const SweepForm &S = *Nest.Sweep;
  const LoopPlan &L = Nest.Loops[0];
  const LoopPlan *In = Nest.Loops.size() > 1 ? &Nest.Loops[1] : nullptr;
  auto Refuse = [&](SourceLocation At, const Msg &Error, const Msg &Note) {
    StoredDiag &D = Diags.report(At, Error);
    Diags.note(D, S.Annotation->get(AttrKind::Offload)->Range.getBegin(), Note);
    return false;
  };
  for (const LoopPlan &P : Nest.Loops)
    if (auto F = hostOnlyForm(Ctx, P.Form))
      return Refuse(F->Loc, F->Error, F->Note);
  if (In && In->HoistTo && In->HoistTo != L.Form.Loop)
    return Refuse(In->Annotation->ForLoc,
                  {diag::err_sweep_shape,
                   {"the inner loop's view must be built one level out, before "
                    "the local loop: soa_conversion_hoist(1)"}},
                  diag::note_sweep_shape);
  // The nest runs apart from the cell loop: it may use the cell's variables
  // only in the ranges (which the recording evaluates).
  SourceRange Declared(S.Loop->getBeginLoc(), L.Form.Loop->getBeginLoc());
  std::vector<const Stmt *> Skip;
  if (In)
    Skip.push_back(In->Form.RangeInit);
  auto InCellLoop = [&](const VarDecl *V) {
    return !V->hasGlobalStorage() && within(SM, V->getLocation(), Declared);
  };
  if (const DeclRefExpr *U = findVarUse(L.Form.Body, InCellLoop, Skip))
    return Refuse(
        U->getLocation(),
        {diag::err_sweep_cell_variable, {U->getDecl()->getNameAsString()}},
        diag::note_sweep_cell_variable);
  return cellHeaderAlone(Ctx, Nest, S, Refuse);
}

} // namespace soaview
