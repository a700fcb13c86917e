//===- OffloadChecks.cpp - what an offloaded loop may not do --------------===//
#include "checks/Checks.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <optional>

using namespace clang;

namespace soaview {

namespace {
/// Variables of the host that device code reads (OpenMP): constant tables
/// get a device copy (soaview declares them for the device where they are
/// defined); any other variable is refused.
template <class RefuseFn>
bool checkHostVariables(const SourceManager &SM, const LoopPlan &P,
                        RefuseFn &Refuse) {
  if (const DeclRefExpr *V = P.Reach.HostVariable)
    return Refuse(V->getExprLoc(),
                  {diag::err_offload_global, {V->getDecl()->getNameAsString()}},
                  diag::note_offload_global);
  for (const ReachedFunction &R : P.Reach.Functions)
    if (const DeclRefExpr *V = R.HostVariable)
      return Refuse(
          V->getExprLoc(),
          {diag::err_offload_callee_global,
           {R.FD->getQualifiedNameAsString(), V->getDecl()->getNameAsString()}},
          diag::note_offload_global);
  for (const VarDecl *V : P.Reach.Tables)
    if (!tableDeclarable(SM, V, false))
      return Refuse(V->getLocation(),
                    {diag::err_offload_table_place, {V->getNameAsString()}},
                    diag::note_offload_table_place);
  return true;
}

/// A field of a view that device code cannot have, where it is first used.
struct HostOnlyField {
  SourceLocation Loc;
  Msg Error;
  diag::Id Note;
};

/// The first field of L's view that stays on the host: one in place (the
/// element's own, docs/semantics.md), else one carried as bytes.
std::optional<HostOnlyField> hostOnlyField(ASTContext &Ctx, const LoopPlan &L) {
  for (auto &[Path, Access] : L.View.orderedLeaves())
    if (L.InPlace.count(Path))
      return HostOnlyField{Access.FirstUse,
                           {diag::err_offload_in_place, {dotted(Path)}},
                           diag::note_offload_in_place};
  for (auto &[Path, Access] : L.View.orderedLeaves())
    if (!Path.back()->getType().isTriviallyCopyableType(Ctx))
      return HostOnlyField{Access.FirstUse,
                           {diag::err_offload_bytes_field, {dotted(Path)}},
                           diag::note_offload_bytes_field};
  return std::nullopt;
}
} // namespace

std::optional<HostOnlyForm> hostOnlyForm(const ASTContext &Ctx,
                                         const LoopForm &F) {
  if (F.ElementBinding)
    return HostOnlyForm{F.ElementBinding->getLocation(),
                        diag::err_offload_bindings,
                        diag::note_offload_bindings};
  if (F.Wrapped)
    return HostOnlyForm{F.LoopVar->getLocation(), diag::err_offload_wrapped,
                        diag::note_offload_wrapped};
  if (F.IndexList)
    return HostOnlyForm{F.IndexList->getLocation(),
                        {diag::err_offload_index_list,
                         {F.IndexList->getNameInfo().getAsString()}},
                        diag::note_offload_index_list};
  if (!F.OriginalUses.empty())
    return HostOnlyForm{
        F.OriginalUses.front().Name->getLocation(),
        {diag::err_offload_other_elements,
         {writtenText(Ctx, F.OriginalUses.front().Use->getSourceRange())}},
        diag::note_offload_other_elements};
  return std::nullopt;
}

bool tableDeclarable(const SourceManager &SM, const VarDecl *V,
                     bool InMainFile) {
  SourceLocation L = V->getLocation();
  return !L.isMacroID() && V->getDeclContext()->isFileContext() &&
         (InMainFile ? SM.isInMainFile(L) : !SM.isInSystemHeader(L));
}

namespace {

/// The refusal of an offloaded loop: the error at L, a note at its offload
/// attribute.
struct OffloadRefusal {
  DiagStore &Diags;
  const AttrUse *Attr;
  bool operator()(SourceLocation L, const Msg &Error, const Msg &Note) {
    StoredDiag &D = Diags.report(L, Error);
    Diags.note(D, Attr->Range.getBegin(), Note);
    return false;
  }
};

/// What any loop running on the device (offloaded, or inner in an offloaded
/// nest) may not be: comparing addresses, or an index loop whose index
/// outlives it.
bool deviceForm(ASTContext &Ctx, const LoopPlan &L, OffloadRefusal &Refuse) {
  if (auto F = hostOnlyForm(Ctx, L.Form))
    return Refuse(F->Loc, F->Error, F->Note);
  if (!L.Identities.empty())
    return Refuse(L.Identities.front()->getExprLoc(),
                  diag::err_offload_identity, diag::note_offload_identity);
  if (L.Form.Kind == LoopFormKind::Index &&
      !isa<DeclStmt>(cast<ForStmt>(L.Form.Loop)->getInit()))
    return Refuse(L.Annotation->ForLoc, diag::err_offload_outer_index,
                  diag::note_offload_outer_index);
  if (auto F = hostOnlyField(Ctx, L))
    return Refuse(F->Loc.isValid() ? F->Loc : L.Annotation->ForLoc, F->Error,
                  F->Note);
  return true;
}

/// A nest offloads as a whole from its outer loop: the inner loop's view
/// must be built outside the offloaded loop (hoisted), so that it can be
/// copied to the device before the target region starts.
bool offloadedNest(ASTContext &Ctx, const NestPlan &Nest, const LoopPlan &P,
                   OffloadRefusal &Refuse) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Nest.Loops.size() > 2 || (Nest.Loops.size() == 2 && &P != &Nest.Loops[0]))
    return Refuse(P.Annotation->ForLoc, diag::err_offload_nested,
                  diag::note_offload_nested);
  if (Nest.Loops.size() < 2)
    return true;
  const LoopPlan &In = Nest.Loops[1];
  if (!In.HoistTo ||
      !(In.HoistTo == P.Form.Loop ||
        !SM.isBeforeInTranslationUnit(P.Form.Loop->getBeginLoc(),
                                      In.HoistTo->getBeginLoc())))
    return Refuse(In.Annotation->ForLoc, diag::err_offload_inner_view,
                  diag::note_offload_inner_view);
  for (auto &[Path, Acc] : In.View.orderedLeaves())
    if (Acc.Written)
      return Refuse(Acc.FirstUse.isValid() ? Acc.FirstUse
                                           : In.Annotation->ForLoc,
                    {diag::err_offload_inner_writes, {dotted(Path)}},
                    diag::note_offload_inner_writes);
  return deviceForm(Ctx, In, Refuse);
}

/// Early exits and writes to variables declared outside the loop.
bool parallelBody(const SourceManager &SM, const LoopPlan &P,
                  OffloadRefusal &Refuse) {
  LoopJumps J = findLoopJumps(P.Form.Body);
  if (!J.Exits.empty())
    return Refuse(J.Exits.front()->getBeginLoc(), diag::err_offload_exit,
                  diag::note_offload_exit);
  llvm::SmallPtrSet<const ValueDecl *, 8> Outer;
  struct Refs : RecursiveASTVisitor<Refs> {
    llvm::SmallPtrSetImpl<const ValueDecl *> &S;
    const Stmt *Loop;
    const SourceManager &SM;
    Refs(llvm::SmallPtrSetImpl<const ValueDecl *> &S, const Stmt *L,
         const SourceManager &SM)
        : S(S), Loop(L), SM(SM) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *V = dyn_cast<VarDecl>(E->getDecl());
      if (V &&
          SM.isBeforeInTranslationUnit(V->getLocation(), Loop->getBeginLoc()))
        S.insert(V);
      return true;
    }
  } R(Outer, P.Form.Loop, SM);
  R.TraverseStmt(const_cast<Stmt *>(P.Form.Body));
  if (P.Form.Kind == LoopFormKind::Index && P.Form.Target)
    Outer.erase(cast<ValueDecl>(P.Form.Target));
  if (const Expr *W = findWrite(P.Form.Body, Outer))
    return Refuse(W->getExprLoc(), diag::err_offload_outer_write,
                  diag::note_offload_outer_write);
  return true;
}

} // namespace

/// What an offloaded loop may not do: its iterations run in parallel on a
/// device, so they must not leave the loop early, write variables outside
/// it, or compare element addresses; nests and hoisting stay on the host.
bool checkOffload(ASTContext &Ctx, const NestPlan &Nest, const LoopPlan &P,
                  DiagStore &Diags) {
  SourceManager &SM = Ctx.getSourceManager();
  OffloadRefusal Refuse{Diags, P.OffloadAttr};
  if (!offloadedNest(Ctx, Nest, P, Refuse))
    return false;
  if (P.HoistTo)
    return Refuse(P.Annotation->ForLoc, diag::err_offload_hoisted,
                  diag::note_offload_hoisted);
  if (!deviceForm(Ctx, P, Refuse))
    return false;
  // A member function of another class (a functor's) would run on a copy
  // of its object on the device, where what it writes of it is lost.
  for (const CalleeUse &U : Nest.Callees)
    if (const auto *MD = dyn_cast<CXXMethodDecl>(U.FD); MD && !MD->isStatic())
      return Refuse(
          MD->getLocation(),
          {diag::err_offload_member_callee, {MD->getQualifiedNameAsString()}},
          diag::note_offload_member_callee);
  if (P.Reach.CopiesTables && !checkHostVariables(SM, P, Refuse))
    return false;
  return parallelBody(SM, P, Refuse);
}
} // namespace soaview
