//===- Walk.cpp - one element use followed up the AST ---------------------===//
//
// ElementWalker::element() walks from a use of the element (a variable
// naming it, `this`, `buf[i]`) up the AST; each step looks at the parent and
// either moves up (the expression is still the element: parentheses, `*p`,
// `&e`, a method returning it) or ends the walk: a field access becomes a
// leaf (AccessRecorder), a call is followed (CallFollower), a local alias is
// bound, anything else refuses the nest.
// Tests: test/Rewrite/*, test/Sema/refusals*.cpp.
//===----------------------------------------------------------------------===//
#include "analysis/Analyzer.h"
#include "analysis/Rules.h"

#include "support/AstHelpers.h"
#include "support/ValueClasses.h"

using namespace clang;

namespace soaview {
namespace analysis {

/// Casts that keep the element (or refuse: tests for null, conversions).
bool ElementWalker::stepCast(const ImplicitCastExpr *IC, ElementWalk &W) {
  switch (IC->getCastKind()) {
  case CK_NoOp:
  case CK_LValueToRValue:
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
    W.Cur = IC;
    return true;
  case CK_PointerToBoolean:
    State.refuse(W.Cur->getExprLoc(), diag::err_use_null_test,
                 State.form(W.B.View).Loop->getBeginLoc(),
                 Msg(diag::note_use_null_test));
    return false;
  default:
    State.refuse(
        W.Cur->getExprLoc(),
        {diag::err_use_converted, {qualifiedName(State.Ctx, IC->getType())}},
        {}, Msg(diag::note_use_only_fields));
    return false;
  }
}

/// `*p` of a pointer and `&e` of an lvalue keep the element.
bool ElementWalker::stepUnary(const UnaryOperator *U, ElementWalk &W) {
  if (U->getOpcode() == UO_Deref && W.K == Kind::Pointer) {
    W.K = Kind::Lvalue;
    W.Cur = U;
    return true;
  }
  if (U->getOpcode() == UO_AddrOf && W.K == Kind::Lvalue) {
    W.K = Kind::Pointer;
    W.Cur = U;
    return true;
  }
  State.refuse(W.Cur->getExprLoc(), diag::err_use_operation, {},
               Msg(diag::note_use_only_fields));
  return false;
}

/// How many classes among RD and its bases declare a member named as M
/// (a class reached twice through bases counts twice). For an anonymous
/// struct or union (`p->S::s0` with s0 its member), the most that one of
/// its members' names counts.
static unsigned declaringClasses(const CXXRecordDecl *RD, const ValueDecl *M) {
  if (const auto *FD = dyn_cast<FieldDecl>(M);
      FD && FD->isAnonymousStructOrUnion()) {
    unsigned Most = 0;
    for (const FieldDecl *Member : FD->getType()->getAsRecordDecl()->fields())
      Most = std::max(Most, declaringClasses(RD, Member));
    return Most;
  }
  unsigned N = 0;
  auto Count = [&](const CXXRecordDecl *C) {
    N += !C->lookup(M->getDeclName()).empty();
    return true;
  };
  Count(RD);
  RD->forallBases(Count);
  return N;
}

/// `p->Base::x`, `p->P::f()`: the view has the element's members under
/// their names alone, so the qualifier goes where the element is a view
/// (LoopAnalysis::Qualified). That names the same member only when no other
/// class of the element declares the name; and a qualifier written in a
/// macro's definition cannot be taken out (one written in a macro's
/// argument is taken out where the argument is written).
bool ElementWalker::qualifiedMember(const MemberExpr *ME, int View) {
  QualType T = ME->getBase()->IgnoreImpCasts()->getType(); // not the base's
  if (ME->isArrow())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  const ValueDecl *M = ME->getMemberDecl();
  std::string Name = M->getQualifiedNameAsString();
  if (!RD || !RD->hasDefinition() || declaringClasses(RD, M) != 1) {
    State.refuse(ME->getMemberLoc(),
                 {diag::err_use_qualified_hidden,
                  {Name, RD ? RD->getNameAsString() : std::string("?")}},
                 M->getLocation(), Msg(diag::note_use_qualified_hidden));
    return false;
  }
  if (!writtenQualifier(State.SM, ME->getQualifierLoc().getBeginLoc(),
                        ME->getMemberLoc())) {
    State.refuse(ME->getMemberLoc(), {diag::err_use_qualified_macro, {Name}},
                 {}, Msg(diag::note_use_qualified_macro));
    return false;
  }
  State.Out.Loops[View].Qualified.push_back(ME);
  return true;
}

/// `e.f`: a field ends the walk at a leaf (or walks into a sub-object used
/// through its own fields).
bool ElementWalker::stepField(const MemberExpr *ME, const FieldDecl *FD,
                              ElementWalk &W, ParentMap &PM) {
  if (State.refused(fieldRefusal(State.Ctx, FD, ME->getMemberLoc())))
    return false;
  FieldPath Path = W.B.Path;
  Path.push_back(FD);
  QualType FieldType = FD->getType();
  const RecordDecl *FieldRecord = FieldType->getAsRecordDecl();
  // An anonymous union is passed through to the member named after it
  // (`p->density.wcount`); checks/ViewChecks.cpp keeps its semantics.
  if (FieldRecord &&
      (!FieldRecord->isUnion() || FD->isAnonymousStructOrUnion())) {
    // A sub-object: keep walking, it may be used whole.
    const Expr *Sub = ME;
    const auto *Next = dyn_cast_or_null<MemberExpr>(
        parentThrough(PM, Sub, Through::Parens | Through::NoOpCasts));
    // Library types (std::array, std::string, ...) are never taken apart:
    // they are leaves, copied whole.
    if (Next && !State.SM.isInSystemHeader(FieldRecord->getLocation())) {
      W.B.Path = Path;
      W.K = Kind::Lvalue;
      W.Cur = ME;
      return true;
    }
    if (std::optional<AtomicPart> A = atomicPart(State.Ctx, FieldType)) {
      State.refuse(
          ME->getMemberLoc(),
          {diag::err_field_holds_atomic, {FD->getName().str(), A->Member}},
          FD->getLocation(), Msg(diag::note_field_atomic, {A->Type}));
      return false;
    }
    if (State.refused(bytesRefusal(State.Ctx, FD, ME->getMemberLoc(),
                                   diag::err_use_whole_not_copyable)))
      return false;
    Access.leaf(ME, Binding{W.B.View, Path}, /*Whole=*/true, PM);
    return false;
  }
  if (State.refused(bytesRefusal(State.Ctx, FD, ME->getMemberLoc(),
                                 diag::err_field_not_copyable)))
    return false;
  Access.leaf(ME, Binding{W.B.View, Path}, /*Whole=*/FieldRecord != nullptr,
              PM);
  return false;
}

/// `e.m()`: the method is copied into the view; one returning the element
/// again (`*this`) continues the walk.
bool ElementWalker::stepMethod(const MemberExpr *ME, const CXXMethodDecl *MD,
                               ElementWalk &W, ParentMap &PM) {
  if (MD->isStatic())
    return false;
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(
      PM.getParent(const_cast<MemberExpr *>(ME)));
  if (!MC) { // a bound method is always called
    State.refuse(ME->getMemberLoc(), diag::err_use_unsupported, {},
                 Msg(diag::note_use_only_fields));
    return false;
  }
  State.BoundCalls.insert(MC);
  Calls.method(MD, W.B, ME->getMemberLoc(), MC, PM);
  QualType Returned = MD->getReturnType();
  if (!(Returned->isReferenceType() || Returned->isPointerType()) ||
      !State.isRecordOf(Returned->getPointeeType()->getAsRecordDecl(),
                        W.B.View))
    return false;
  if (!W.B.Path.empty()) {
    State.refuse(ME->getMemberLoc(), diag::err_use_subobject_reference, {},
                 Msg(diag::note_use_subobject_reference));
    return false;
  }
  W.Cur = MC;
  W.K = Returned->isPointerType() ? Kind::Pointer : Kind::Lvalue;
  return true;
}

/// `T &q = *p`, `T *q = p`: a local alias of the element.
bool ElementWalker::stepDecl(const DeclStmt *DS, ElementWalk &W, Env &Scope) {
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || V->getInit() != W.Cur)
      continue;
    QualType VarType = V->getType();
    bool Pointer = VarType->isPointerType();
    if (!(VarType->isReferenceType() || Pointer) || !V->isLocalVarDecl() ||
        V->isStaticLocal())
      State.refuse(V->getLocation(),
                   {diag::err_use_copied_into, {V->getName().str()}},
                   V->getLocation(), Msg(diag::note_use_bind_reference));
    else if ((Pointer ? Kind::Pointer : Kind::Lvalue) != W.K)
      State.refuse(V->getLocation(), diag::err_use_alias, {},
                   Msg(diag::note_use_bind_reference));
    else {
      Scope.Vars[V] = {W.B, W.K};
      State.view(W.B).Aliases.insert(V);
    }
    return false;
  }
  State.refuse(W.Cur->getExprLoc(), diag::err_use_unsupported, {},
               Msg(diag::note_use_only_fields));
  return false;
}

/// Comparisons of element pointers compare the originals; other operators
/// (assignment of the element, arithmetic) are refused.
bool ElementWalker::stepBinary(const BinaryOperator *BO, ElementWalk &W) {
  SourceLocation L = W.Cur->getExprLoc();
  if (BO->getOpcode() == BO_Comma && BO->getLHS() == W.Cur)
    return false;
  if (BO->isComparisonOp() && W.K == Kind::Pointer && W.B.Path.empty()) {
    // Compared by the address of the original object, which the proxy
    // keeps: `p != q` becomes `identity(p) != identity(q)`.
    State.Out.Loops[W.B.View].Identities.push_back(W.Cur);
    return false;
  }
  if (BO->isAssignmentOp())
    State.refuse(L, diag::err_use_assigned, BO->getOperatorLoc(),
                 Msg(diag::note_use_iteration_only));
  else
    State.refuse(L, diag::err_use_operation, {},
                 Msg(diag::note_use_only_fields));
  return false;
}

/// The remaining parents: returns, copies, constructors, lambdas and
/// discarded values.
bool ElementWalker::stepOther(const Stmt *P, ElementWalk &W, const Env &Scope,
                              ParentMap &PM) {
  SourceLocation L = W.Cur->getExprLoc();
  if (isa<ReturnStmt>(P)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Scope.Fn);
    QualType Pointee = MD ? MD->getReturnType()->getPointeeType() : QualType();
    if (W.RootIsThis && MD && W.B.Path.empty() &&
        State.isElementRecord(Pointee.isNull() ? nullptr
                                               : Pointee->getAsRecordDecl()))
      return false; // `return *this;`: the call result is the element again
    State.refuse(L, diag::err_use_returned, P->getBeginLoc(),
                 Msg(diag::note_use_iteration_only));
    return false;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
    if (!CE->getConstructor()->isCopyOrMoveConstructor()) {
      State.refuse(L,
                   {diag::err_use_constructor_arg,
                    {qualifiedName(State.Ctx, CE->getType())}},
                   CE->getConstructor()->getLocation(),
                   Msg(diag::note_use_constructor_arg));
      return false;
    }
    State.BoundWholes.insert(CE);
    State.refuse(L, diag::err_use_copied, L, Msg(diag::note_use_copied));
    return false;
  }
  if (!isa<Expr>(P))
    return false; // the value is discarded (expression statement, loop body)
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(P))
    if (EC->getCastKind() == CK_ToVoid)
      return false; // `(void)p;`: discarded too
  if (const auto *LE = dyn_cast<LambdaExpr>(P)) {
    const Expr *Lambda = LE;
    const Stmt *Holder = parentThrough(
        PM, Lambda,
        Through::Parens | Through::ImplicitCasts | Through::Temporaries);
    if (Holder && (isa<DeclStmt>(Holder) || isa<CXXOperatorCallExpr>(Holder)))
      return false; // called right away or kept in a local: analysed inline
    State.refuse(LE->getBeginLoc(), diag::err_use_lambda_escapes,
                 LE->getBeginLoc(), Msg(diag::note_use_lambda_escapes));
    return false;
  }
  State.refuse(L, diag::err_use_unsupported, {},
               Msg(diag::note_use_only_fields));
  return false;
}

/// One step up from W.Cur: true when the walk goes on.
bool ElementWalker::step(const Stmt *P, ElementWalk &W, Env &Scope,
                         ParentMap &PM) {
  if (isa<ParenExpr>(P)) {
    W.Cur = cast<Expr>(P);
    return true;
  }
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
    return stepCast(IC, W);
  if (isa<MaterializeTemporaryExpr>(P) && W.K == Kind::Pointer) {
    W.Cur = cast<Expr>(P); // `&p` bound to a reference parameter
    return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(P))
    return stepUnary(U, W);
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    State.Handled.insert(ME);
    if (ME->hasQualifier() && !qualifiedMember(ME, W.B.View))
      return false;
    const ValueDecl *M = ME->getMemberDecl();
    if (const auto *FD = dyn_cast<FieldDecl>(M))
      return stepField(ME, FD, W, PM);
    if (const auto *MD = dyn_cast<CXXMethodDecl>(M))
      return stepMethod(ME, MD, W, PM);
    return false; // static data member or enumerator named through the element
  }
  if (const auto *C = dyn_cast<CallExpr>(P)) {
    CallFollower::CallOutcome Outcome =
        Calls.call(C, W.Cur, W.K, W.B, Scope, PM);
    if (!Outcome.Continues)
      return false;
    W.Cur = Outcome.Continues->E;
    W.K = Outcome.Continues->K;
    return true;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(P))
    return stepDecl(DS, W, Scope);
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return stepBinary(BO, W);
  return stepOther(P, W, Scope, PM);
}

void ElementWalker::element(const Expr *Root, Kind K, Binding B, Env &Scope,
                            ParentMap &PM) {
  ElementWalk W{Root, K, std::move(B), isa<CXXThisExpr>(Root)};
  State.CurView = W.B.View;
  while (!State.Failed) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(W.Cur));
    if (!P || !step(P, W, Scope, PM))
      return; // no parent: a discarded expression statement such as `p;`
  }
}

} // namespace analysis
} // namespace soaview
