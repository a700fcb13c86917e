//===- Rules.cpp - what a view can hold and hand on (Rules.h) -------------===//
#include "analysis/Rules.h"

#include "analysis/Uses.h"
#include "support/AstHelpers.h"
#include "support/ValueClasses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {
namespace analysis {

std::optional<Refusal> fieldRefusal(const ASTContext &Ctx, const FieldDecl *FD,
                                    SourceLocation Use) {
  auto Bad = [&](diag::Id Why, diag::Id Note) {
    return Refusal{
        Use, {Why, {FD->getName().str()}}, FD->getLocation(), Msg(Note)};
  };
  QualType T = FD->getType();
  if (FD->getName().starts_with(ReservedPrefix))
    return Bad(diag::err_member_reserved, diag::note_member_reserved);
  if (FD->isBitField())
    return Bad(diag::err_field_bitfield, diag::note_field_bitfield);
  if (T->isReferenceType())
    return Bad(diag::err_field_reference, diag::note_field_reference);
  if (T.isVolatileQualified() || T->isAtomicType())
    return Bad(diag::err_field_volatile, diag::note_field_volatile);
  if (std::optional<AtomicPart> A = atomicPart(Ctx, T); A && A->Member.empty())
    return Refusal{Use,
                   {diag::err_field_volatile, {FD->getName().str()}},
                   FD->getLocation(),
                   Msg(diag::note_field_atomic, {A->Type})};
  if (!T.isTriviallyCopyableType(Ctx) && !T->isRecordType())
    return Bad(diag::err_field_not_copyable, diag::note_field_memcpy);
  return std::nullopt;
}

std::optional<Refusal> bytesRefusal(const ASTContext &Ctx, const FieldDecl *FD,
                                    SourceLocation Use, diag::Id Error) {
  std::optional<NotBytes> Why = whyNotBytes(Ctx, FD->getType());
  if (!Why)
    return std::nullopt;
  if (Why->Culprit &&
      Ctx.getSourceManager().isInSystemHeader(Why->Culprit->getLocation()))
    Why = NotBytes{FD, "'" + FD->getQualifiedNameAsString() + "' " +
                           "is a library class that is not trivially copyable"};
  if (Why->Culprit)
    return Refusal{Use,
                   {Error, {FD->getName().str()}},
                   Why->Culprit->getLocation(),
                   Msg(diag::note_field_not_bytes, {Why->Why})};
  return Refusal{Use,
                 {Error, {FD->getName().str()}},
                 FD->getLocation(),
                 Msg(diag::note_field_memcpy)};
}

std::optional<Refusal> calleeRefusal(const SourceManager &SM,
                                     const FunctionDecl *FD, SourceLocation Use,
                                     StringRef What) {
  const FunctionDecl *Def = nullptr;
  // std::move, std::forward, std::addressof, ...: builtins without a body,
  // declared in a system header like any other library function.
  bool Library = isLibraryFunction(SM, FD);
  if ((!FD->hasBody(Def) || !Def) && !Library) {
    return Refusal{
        Use,
        {diag::err_callee_invisible, {FD->getQualifiedNameAsString()}},
        FD->getLocation(),
        Msg(diag::note_callee_invisible)};
  }
  if (Library || SM.isInSystemHeader(Def->getLocation()))
    return Refusal{Use,
                   {diag::err_callee_system, {FD->getQualifiedNameAsString()}},
                   FD->getLocation(),
                   Msg(diag::note_callee_system, {What.str()})};
  return std::nullopt;
}

bool keepsAddress(const SourceManager &SM, const FunctionDecl *FD,
                  const ParmVarDecl *Param, const Expr *Arg) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  QualType T = Param->getType();
  return MD && MD->isInstance() && isLibraryFunction(SM, FD) &&
         Arg->getType()->isPointerType() && T->isReferenceType() &&
         T.getNonReferenceType()->isPointerType();
}

/// A call handing on the address of part of an element must reach a body
/// soaview sees (checked where it is analysed), or a library function that
/// only treats the object as memory: one given the address of a number (an
/// array of numbers), or a builtin such as memcpy. A lock or another object
/// known by its address would be the view's copy there, not the element's.
std::optional<Refusal>
passedAddressRefusal(const ASTContext &Ctx, const Expr *Use, const Binding &B,
                     const std::vector<PassedAddress> &Passed) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const PassedAddress &Address : Passed) {
    const FunctionDecl *FD = Address.Call->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    bool System = FD && SM.isInSystemHeader(FD->getLocation());
    if (!FD || (!FD->hasBody(Def) && !System))
      return Refusal{
          Use->getExprLoc(),
          {Address.ByReference ? diag::err_field_ref_invisible
                               : diag::err_field_address_invisible,
           {dotted(B.Path), FD ? "'" + FD->getQualifiedNameAsString() + "'"
                               : std::string("an indirect call")}},
          FD ? FD->getLocation() : Use->getExprLoc(),
          Msg(diag::note_field_ref_invisible)};
    QualType Object =
        Ctx.getBaseElementType(Address.Pointee.getNonReferenceType());
    if (!System || FD->hasBody(Def) || FD->getBuiltinID() ||
        !Object->isRecordType())
      continue;
    return Refusal{
        Use->getExprLoc(),
        {diag::err_field_address_opaque,
         {dotted(B.Path),
          Object.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()),
          FD->getQualifiedNameAsString()}},
        FD->getLocation(),
        Msg(diag::note_field_address_opaque)};
  }
  return std::nullopt;
}

namespace {

/// The value-keeping parent of E: past parentheses and casts other than
/// the ones that read the value or decay an array (E becomes its child).
const Stmt *valueParent(const Expr *&E, ParentMap &PM) {
  return parentThrough(PM, E, Through::Parens | Through::ValueCasts);
}

/// Whether a pointer value E (an address of part of an element) is only
/// used within the statement: dereferenced, subscripted, compared, passed
/// to a call.
bool pointerUseIsLocal(const Expr *E, ParentMap &PM,
                       std::vector<PassedAddress> &Passed) {
  QualType Pointee = E->getType()->getPointeeType();
  const Stmt *P = valueParent(E, PM);
  if (!P)
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(P))
    return U->getOpcode() == UO_Deref;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P))
    return AS->getBase() == E;
  if (const auto *ME = dyn_cast<MemberExpr>(P))
    return ME->getBase() == E;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isComparisonOp();
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    Passed.push_back({CE, Pointee});
    return true; // the callee may not keep it (docs/semantics.md)
  }
  return false;
}

/// A use of a local reference to part of an element stays local: it is
/// used like the field itself, except that its address is not taken and no
/// other reference is bound to it.
bool referenceUseIsLocal(const Expr *E, const Stmt *P, ParentMap &PM,
                         std::vector<PassedAddress> &Passed) {
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
    if (UO->getOpcode() == UO_AddrOf)
      return false;
  if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P))
    if (IC->getCastKind() == CK_ArrayToPointerDecay &&
        !pointerUseIsLocal(IC, PM, Passed))
      return false;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P))
    for (const Decl *X : DS->decls())
      if (const auto *W = dyn_cast<VarDecl>(X))
        if (W->getInit() == E && W->getType()->isReferenceType())
          return false;
  return true;
}

/// Whether every use of local variable V (a pointer or reference to part
/// of an element) stays within the iteration.
bool localUsesStayLocal(const VarDecl *V, const Stmt *Body, ParentMap &PM,
                        std::vector<PassedAddress> &Passed) {
  for (const DeclRefExpr *D :
       findVarUses(Body, [&](const VarDecl *W) { return W == V; })) {
    const Expr *E = D;
    const Stmt *P = valueParent(E, PM);
    if (V->getType()->isReferenceType()) {
      if (!referenceUseIsLocal(E, P, PM, Passed))
        return false;
      continue;
    }
    if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P))
      if (IC->getCastKind() == CK_LValueToRValue) {
        if (!pointerUseIsLocal(IC, PM, Passed))
          return false;
        continue;
      }
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
      if (BO->getOpcode() == BO_Assign && BO->getLHS() == E)
        continue; // reassigned: what it gets is checked where it comes from
    return false;
  }
  return true;
}

/// Whether a local pointer or reference V bound in DS keeps the address
/// within the iteration.
bool localStaysLocal(const VarDecl *V, const DeclStmt *DS, ParentMap &PM,
                     std::vector<PassedAddress> &Passed) {
  const Stmt *Scope = PM.getParent(const_cast<DeclStmt *>(DS));
  return V->isLocalVarDecl() && !V->isStaticLocal() &&
         localUsesStayLocal(V, Scope ? Scope : DS, PM, Passed);
}

} // namespace

bool addressStaysLocal(const Expr *Use, ParentMap &PM,
                       std::vector<PassedAddress> &Passed) {
  // Find the address or reference taken of the field, if any.
  const Expr *Cur = Use;
  while (true) {
    const Stmt *P =
        parentThrough(PM, Cur, Through::Parens | Through::NoOpCasts);
    if (!P)
      return true;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P)) {
      if (AS->getBase() != Cur)
        return true; // the field is the index: its value is read
      Cur = AS;      // an element of an array field: follow it
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (ME->getBase() == Cur && !isa<CXXMethodDecl>(ME->getMemberDecl())) {
        Cur = ME;
        continue;
      }
      return true;
    }
    const Expr *Addr = nullptr;
    if (const auto *U = dyn_cast<UnaryOperator>(P)) {
      if (U->getOpcode() != UO_AddrOf)
        return true;
      Addr = U;
    } else if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() != CK_ArrayToPointerDecay)
        return true;
      const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(
          PM.getParent(const_cast<ImplicitCastExpr *>(IC)));
      if (AS && AS->getBase() == IC) {
        Cur = AS; // `p->a[k]`: follow the element
        continue;
      }
      Addr = IC;
    } else if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      // `T &r = p->f;`: a local reference to the field.
      const VarDecl *V = initialised(DS, Cur);
      if (V && V->getType()->isReferenceType())
        return localStaysLocal(V, DS, PM, Passed);
      return true;
    } else {
      return true;
    }
    if (pointerUseIsLocal(Addr, PM, Passed))
      return true;
    const Expr *E = Addr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(valueParent(E, PM)))
      if (const VarDecl *V = initialised(DS, E))
        return localStaysLocal(V, DS, PM, Passed);
    return false;
  }
}

} // namespace analysis
} // namespace soaview
