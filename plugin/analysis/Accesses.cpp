//===- Accesses.cpp - one field access of a view --------------------------===//
//
// A field access through a view becomes a leaf of the view, with how it is
// used (analysis/Uses.h), after the rules of analysis/Rules.h: atomic
// operations on it, an unnamed class, an address that outlives the
// iteration or reaches a callee soaview cannot see refuse the nest.
// Tests: test/Sema/refusals*.cpp, test/Rewrite/*.
//===----------------------------------------------------------------------===//
#include "analysis/Analyzer.h"
#include "analysis/Rules.h"
#include "analysis/Uses.h"

#include "support/AstHelpers.h"
#include "support/ValueClasses.h"

#include "clang/AST/StmtOpenMP.h"

using namespace clang;

namespace soaview {
namespace analysis {

namespace {

/// The atomic operation the builtin call or node P is, or "".
std::string atomicOperation(const Stmt *P) {
  if (isa<AtomicExpr>(P))
    return "an atomic builtin";
  if (const auto *CE = dyn_cast<CallExpr>(P))
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && FD->getBuiltinID() && FD->getName().starts_with("__sync_"))
      return "'" + FD->getName().rtrim("0123456789").rtrim('_').str() + "'";
  if (isa<OMPAtomicDirective>(P))
    return "'#pragma omp atomic'";
  return "";
}

/// The first atomic operation in the body of FD (a callee given a field's
/// address), or "".
std::string atomicOperationIn(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def->getBody())
    return "";
  std::vector<const Stmt *> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (std::string Op = atomicOperation(S); !Op.empty())
      return Op;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
      if (std::optional<AtomicPart> A =
              atomicPart(FD->getASTContext(), CE->getType()))
        return "'" + A->Type + "'";
    for (const Stmt *C : S->children())
      if (C)
        Work.push_back(C);
  }
  return "";
}
/// The atomic operation that Use (a field's lvalue) is handed to: an atomic
/// builtin given its address, a std::atomic_ref bound to it, or an update
/// under `#pragma omp atomic`; "" when none.
std::string atomicUseOf(const ASTContext &Ctx, const Expr *Use, ParentMap &PM) {
  const Expr *Cur = Use;
  const Stmt *P =
      parentThrough(PM, Cur, Through::Parens | Through::ImplicitCasts);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
      U && U->getOpcode() == UO_AddrOf) {
    Cur = U;
    P = parentThrough(PM, Cur, Through::Parens | Through::ImplicitCasts);
  }
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(P))
    if (std::optional<AtomicPart> A = atomicPart(Ctx, CE->getType()))
      return "'" + A->Type + "'";
  if (const auto *CE = dyn_cast_or_null<CallExpr>(P);
      CE && !CE->getBuiltinCallee())
    if (std::string Op = atomicOperationIn(CE->getDirectCallee()); !Op.empty())
      return Op;
  for (; P; P = PM.getParent(const_cast<Stmt *>(P)))
    if (std::string Op = atomicOperation(P); !Op.empty())
      return Op;
  return "";
}

} // namespace

/// A field access through a view: recorded as a leaf (or a whole record)
/// of the view with how it is used.
void AccessRecorder::leaf(const Expr *Use, const Binding &B, bool Whole,
                          ParentMap &PM) {
  std::string Atomic = atomicUseOf(State.Ctx, Use, PM);
  UseOf Uses = uses(Use, PM);
  const CallExpr *RefCall = Uses.RefCall;
  LeafAccess Found = Uses.Access;
  if (Atomic.empty() && RefCall)
    Atomic = atomicOperationIn(RefCall->getDirectCallee());
  if (!Atomic.empty()) {
    State.refuse(Use->getExprLoc(),
                 {diag::err_field_atomic_use, {dotted(B.Path), Atomic}}, {},
                 Msg(diag::note_field_atomic_use));
    return;
  }
  if (const RecordDecl *RD =
          State.Ctx.getBaseElementType(Use->getType())->getAsRecordDecl();
      RD && !RD->getIdentifier() && !RD->getTypedefNameForAnonDecl()) {
    State.refuse(
        Use->getExprLoc(), {diag::err_field_unnamed_class, {dotted(B.Path)}},
        RD->getLocation(),
        Msg(diag::note_field_unnamed_class, {B.Path.back()->getName().str()}));
    return;
  }
  std::vector<PassedAddress> Passed;
  if (RefCall) // by non-const reference or pointer: it may keep the address
    Passed.push_back({RefCall, Use->getType(), true});
  if (!addressStaysLocal(Use, PM, Passed)) {
    State.refuse(Use->getExprLoc(),
                 {diag::err_field_address_escapes, {dotted(B.Path)}}, {},
                 Msg(diag::note_field_address_escapes));
    return;
  }
  if (State.refused(passedAddressRefusal(State.Ctx, Use, B, Passed)))
    return;
  Found.RefSensitive = Use->getType().isConstQualified() && passedOn(Use, PM);
  ViewModel &V = State.view(B);
  (Whole ? V.Wholes[B.Path] : V.Leaves[B.Path]).join(Found);
  // Returned is set only where callers are followed: under a key (uses).
  if (Uses.Returned && State.CurrentKey)
    State.Returns.returned({*State.CurrentKey, B, Whole});
}

UseOf AccessRecorder::uses(const Expr *Use, ParentMap &PM) {
  UseOf U = useOf(
      {State.Ctx, PM, State.CurrentFunction, State.CurrentKey.has_value()},
      Use);
  State.Handled.insert(U.SubFields.begin(), U.SubFields.end());
  return U;
}

void AccessRecorder::resultUse(const AnalysisKey &Callee, const CallExpr *C,
                               ParentMap &PM) {
  QualType T = Callee.FD->getReturnType();
  if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified())
    return; // nothing written through the result of this call
  UseOf U = uses(C, PM);
  State.Returns.called(Callee, U.Access.Written,
                       U.Returned ? State.CurrentKey : std::nullopt);
}

} // namespace analysis
} // namespace soaview
