//===- Uses.cpp - how the value of an lvalue is used (Uses.h) -------------===//
#include "analysis/Uses.h"

#include "support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {
namespace analysis {
namespace {

/// How a call uses the lvalue Arg: read through a const reference (or a
/// const member operator), written by `=`, else both; RefCall is set when
/// the callee receives a reference or pointer it could keep.
LeafAccess argumentUse(const CallExpr *CE, const Expr *Arg,
                       const CallExpr *&RefCall) {
  auto Use = [](bool Read, bool Written) {
    LeafAccess A;
    A.Read = Read;
    A.Written = Written;
    return A;
  };
  const FunctionDecl *FD = CE->getDirectCallee();
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  unsigned I = 0;
  while (I < CE->getNumArgs() && CE->getArg(I) != Arg)
    ++I;
  bool MemberOperator = OC && FD && isa<CXXMethodDecl>(FD);
  if (MemberOperator && I == 0) {
    bool Const = cast<CXXMethodDecl>(FD)->isConst();
    bool Assign = OC->isAssignmentOp() && OC->getOperator() == OO_Equal;
    return Use(!Assign, !Const);
  }
  unsigned Param = I - (MemberOperator ? 1 : 0);
  if (!FD || I >= CE->getNumArgs() || Param >= FD->getNumParams())
    return Use(true, true);
  QualType ParamType = FD->getParamDecl(Param)->getType();
  if (ParamType->isReferenceType() &&
      ParamType.getNonReferenceType().isConstQualified())
    return Use(true, false);
  if (ParamType->isReferenceType() || ParamType->isPointerType())
    RefCall = CE;
  return Use(true, true);
}

/// Whether a call of MD on an object only names part of it, so that what
/// the call's result is used for is what is done to the object: a
/// non-virtual member returning a non-const lvalue reference whose body is
/// a single `return E;` with no side effects (`T &operator[](int i) {
/// return v[i]; }`), or std::array's operator[], at, front and back. Any
/// other non-const member counts as writing its object.
bool isAccessor(const CXXMethodDecl *MD, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!MD || MD->isStatic() || MD->isVirtual() || MD->isConst())
    return false;
  QualType T = MD->getReturnType();
  if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified())
    return false;
  if (SM.isInSystemHeader(MD->getLocation())) {
    const CXXRecordDecl *RD = MD->getParent();
    if (!RD->isInStdNamespace() || !RD->getIdentifier() ||
        RD->getName() != "array")
      return false;
    if (MD->isOverloadedOperator())
      return MD->getOverloadedOperator() == OO_Subscript;
    return MD->getIdentifier() &&
           llvm::is_contained({"at", "front", "back"}, MD->getName());
  }
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def)
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return false;
  const auto *R = dyn_cast<ReturnStmt>(Body->body_front());
  const Expr *E = R ? R->getRetValue() : nullptr;
  return E && !E->HasSideEffects(Ctx);
}

/// The accessor call on the object Cur that its parent P starts:
/// `p->v.at(k)` (P the member expression) or `p->v[k]` (P the operator
/// call); null otherwise.
const Expr *accessorCall(const Stmt *P, const Expr *Cur, ParentMap &PM,
                         const ASTContext &Ctx) {
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(
        PM.getParent(const_cast<MemberExpr *>(ME)));
    return MC && MC->getCallee()->IgnoreParens() == ME &&
                   isAccessor(dyn_cast<CXXMethodDecl>(ME->getMemberDecl()), Ctx)
               ? MC
               : nullptr;
  }
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(P);
  return OC && OC->getNumArgs() > 0 && OC->getArg(0) == Cur &&
                 isAccessor(
                     dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee()),
                     Ctx)
             ? OC
             : nullptr;
}

/// The parent of lvalue Cur when it is the same lvalue again (the walk goes
/// on from it), decided by value category: parentheses, casts that keep the
/// object, either arm of a conditional that is an lvalue, the right operand
/// of a comma, the element of an array field. Sets Cur to it; null when the
/// parent does something with the lvalue.
const Expr *sameLvalue(const Stmt *P, const Expr *Cur, ParentMap &PM) {
  const auto *E = dyn_cast<Expr>(P);
  if (!E || !E->isGLValue())
    return nullptr;
  if (isa<ParenExpr>(E))
    return E;
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return Cast->getCastKind() == CK_NoOp ? E : nullptr;
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return CO->getCond() != Cur ? E : nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->getOpcode() == BO_Comma && BO->getRHS() == Cur ? E : nullptr;
  return nullptr;
}

/// The function a return statement in the analysed body returns from: a
/// lambda's call operator when it is inside one.
const FunctionDecl *returningFunction(const ReturnStmt *R, ParentMap &PM,
                                      const FunctionDecl *Body) {
  for (const Stmt *S = PM.getParent(const_cast<ReturnStmt *>(R)); S;
       S = PM.getParent(const_cast<Stmt *>(S)))
    if (const auto *L = dyn_cast<LambdaExpr>(S))
      return L->getCallOperator();
  return Body;
}

} // namespace

/// Whether the lvalue Use is passed on as an lvalue (to a call, a member
/// function, a reference, a constructor, a return) rather than only read or
/// assigned: through a const object, such a use could mean something else
/// when the view reaches the field through a (non-const) reference member.
bool passedOn(const Expr *Use, ParentMap &PM) {
  const Expr *Cur = Use;
  while (true) {
    const Stmt *P =
        parentThrough(PM, Cur, Through::Parens | Through::NoOpCasts);
    if (!P)
      return false;
    if (isa<DeclStmt>(P) || isa<ReturnStmt>(P))
      return true;
    if (!isa<Expr>(P))
      return false;
    if (const Expr *Same = sameLvalue(P, Cur, PM)) {
      Cur = Same;
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_LValueToRValue)
        return false;
      const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(
          PM.getParent(const_cast<ImplicitCastExpr *>(IC)));
      if (IC->getCastKind() != CK_ArrayToPointerDecay || !AS ||
          AS->getBase() != IC)
        return true;
      Cur = AS;
      continue;
    }
    if (const auto *EC = dyn_cast<ExplicitCastExpr>(P))
      return EC->getCastKind() != CK_ToVoid;
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (!isa<FieldDecl>(ME->getMemberDecl()))
        return true;
      Cur = ME;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return BO->getLHS() != Cur ||
             !(BO->isAssignmentOp() || BO->getOpcode() == BO_Comma);
    return true;
  }
}

/// The local variable that Init initialises in DS (a pointer or reference
/// to part of an element), or null.
const VarDecl *initialised(const DeclStmt *DS, const Expr *Init) {
  for (const Decl *D : DS->decls())
    if (const auto *V = dyn_cast<VarDecl>(D))
      if (V->getInit() == Init)
        return V;
  return nullptr;
}

namespace {

/// One question of useOf: the walk up from the lvalue, and through the
/// uses of local references bound to it (at most MaxReferenceDepth deep).
class UseWalk {
public:
  UseWalk(const UseSite &Site, UseOf &Out) : Site(Site), Out(Out) {}
  /// How the value of the lvalue Use is used (its first use set).
  LeafAccess classify(const Expr *Use);

private:
  const Expr *nextLvalue(const Stmt *P, const Expr *Cur);
  LeafAccess usedBy(const Stmt *P, const Expr *Cur, LeafAccess Access);
  LeafAccess returnedUse(const ReturnStmt *R, LeafAccess Access);
  LeafAccess referenceUses(const VarDecl *V, const DeclStmt *DS,
                           LeafAccess Access);

  static constexpr unsigned MaxReferenceDepth = 4;
  const UseSite &Site;
  UseOf &Out;
  unsigned ReferenceDepth = 0; ///< references to references followed
};

} // namespace

/// Whether the value of an lvalue is read, written, or both, decided by
/// what is done with it (its value category along the way): an lvalue
/// passed on unchanged (a conditional's arm, a comma's result, a cast that
/// keeps the object) is followed; a local reference bound to it is followed
/// through the reference's uses. Anything not recognised counts as both,
/// which is always safe (gathered and scattered).
LeafAccess UseWalk::classify(const Expr *Use) {
  LeafAccess Access;
  Access.FirstUse = Use->getExprLoc();
  const Expr *Cur = Use;
  while (true) {
    const Stmt *P =
        parentThrough(Site.PM, Cur, Through::Parens | Through::NoOpCasts);
    if (!P)
      return Access; // discarded
    if (const Expr *Next = nextLvalue(P, Cur)) {
      Cur = Next;
      continue;
    }
    return usedBy(P, Cur, Access);
  }
}

/// What P makes of lvalue Cur when it passes the lvalue on: the same lvalue
/// again, an element of an array field, an accessor's result (used in place
/// of the object), a field of a sub-object. Null when P uses it.
const Expr *UseWalk::nextLvalue(const Stmt *P, const Expr *Cur) {
  ParentMap &PM = Site.PM;
  if (const Expr *Same = sameLvalue(P, Cur, PM))
    return Same;
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P);
      IC && IC->getCastKind() == CK_ArrayToPointerDecay) {
    const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(
        PM.getParent(const_cast<ImplicitCastExpr *>(IC)));
    if (AS && AS->getBase() == IC)
      return AS;
  }
  if (const Expr *Call = accessorCall(P, Cur, PM, Site.Ctx))
    return Call;
  if (const auto *ME = dyn_cast<MemberExpr>(P);
      ME && !isa<CXXMethodDecl>(ME->getMemberDecl())) {
    Out.SubFields.push_back(ME);
    return ME;
  }
  return nullptr;
}

/// How P uses lvalue Cur: Access (its first use set) with Read and Written.
LeafAccess UseWalk::usedBy(const Stmt *P, const Expr *Cur, LeafAccess Access) {
  auto Both = [&] {
    Access.Read = Access.Written = true;
    return Access;
  };
  // `(void)p->f` discards the lvalue: nothing is written (the field is
  // gathered so that the view has it).
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(P);
      EC && EC->getCastKind() == CK_ToVoid) {
    Access.Read = true;
    return Access;
  }
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
    if (IC->getCastKind() != CK_LValueToRValue)
      return Both();
    Access.Read = true;
    return Access;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(P)) { // a member function's
    Access.Read = true;
    Access.Written = !cast<CXXMethodDecl>(ME->getMemberDecl())->isConst();
    return Access;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->isAssignmentOp() && BO->getLHS() == Cur) {
      Access.Written = true;
      Access.Read = BO->isCompoundAssignmentOp();
    } else if (!(BO->getOpcode() == BO_Comma && BO->getLHS() == Cur)) {
      return Both();
    }
    return Access;
  }
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    LeafAccess ByCall = argumentUse(CE, Cur, Out.RefCall);
    Access.Read = ByCall.Read;
    Access.Written = ByCall.Written;
    return Access;
  }
  if (isa<CXXConstructExpr>(P) || isa<InitListExpr>(P)) {
    Access.Read = true;
    return Access;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(P)) {
    const VarDecl *V = initialised(DS, Cur);
    if (V && V->getType()->isReferenceType())
      return referenceUses(V, DS, Access);
    Access.Read = true;
    return Access;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(P))
    return returnedUse(R, Access);
  if (!isa<Expr>(P))
    return Access; // discarded
  return Both();
}

/// Returned by reference: read only through a reference to const; through
/// a non-const one, written where a caller writes through the result
/// (resultUse), when the callers are followed.
LeafAccess UseWalk::returnedUse(const ReturnStmt *R, LeafAccess Access) {
  const FunctionDecl *Fn = returningFunction(R, Site.PM, Site.Function);
  QualType Type = Fn ? Fn->getReturnType() : QualType();
  Access.Read = true;
  Access.Written = Type.isNull() || !Type->isReferenceType() ||
                   !Type.getNonReferenceType().isConstQualified();
  if (Access.Written && Site.CallersFollowed && Fn == Site.Function &&
      Type->isLValueReferenceType()) {
    Access.Written = false;
    Out.Returned = true;
  }
  return Access;
}

/// A local reference V bound to the lvalue: it is used as the lvalue is,
/// in each of its uses (a reference to const only reads).
LeafAccess UseWalk::referenceUses(const VarDecl *V, const DeclStmt *DS,
                                  LeafAccess Access) {
  ParentMap &PM = Site.PM;
  Access.Read = true;
  if (V->getType().getNonReferenceType().isConstQualified())
    return Access;
  const Stmt *Scope = PM.getParent(const_cast<DeclStmt *>(DS));
  if (!V->isLocalVarDecl() || V->isStaticLocal() || !Scope ||
      ReferenceDepth == MaxReferenceDepth) {
    Access.Written = true;
    return Access;
  }
  ++ReferenceDepth;
  for (const DeclRefExpr *Ref :
       findVarUses(Scope, [&](const VarDecl *W) { return W == V; })) {
    LeafAccess Through = classify(Ref);
    Access.Read |= Through.Read;
    Access.Written |= Through.Written;
  }
  --ReferenceDepth;
  return Access;
}

UseOf useOf(const UseSite &Site, const Expr *Use) {
  UseOf Result;
  Result.Access = UseWalk(Site, Result).classify(Use);
  return Result;
}

} // namespace analysis
} // namespace soaview
