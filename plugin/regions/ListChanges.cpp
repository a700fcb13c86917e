//===- ListChanges.cpp - where a region's code may change a list unseen ---===//
//
// See ListChanges.h. Tests: test/Rewrite/regions.cpp, test/Sema/regions.cpp.
//===----------------------------------------------------------------------===//
#include "regions/ListChanges.h"

#include "regions/LibraryCalls.h"
#include "support/ElementTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview::regions {

/// What E may do to a sweep's list that neither the refusals nor the
/// run-time check of the lists' places would see: write bytes through a
/// pointer, write a value that holds elements (a list's entry), make or
/// free the storage of such a value (a list made in the region may reuse
/// another's storage), or have a library function or a trivial member
/// function do so.
const char *ListChanges::in(const Expr *E) const {
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAssignmentOp() ? writeTo(BO->getLHS()) : nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isIncrementDecrementOp() ? writeTo(UO->getSubExpr()) : nullptr;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return Elements.holdsDeep(CE->getType())
               ? "construction of an object that holds elements"
               : nullptr;
  if (const auto *NE = dyn_cast<CXXNewExpr>(E))
    return Elements.holdsDeep(NE->getAllocatedType())
               ? "new-expression of an object that holds elements"
               : nullptr;
  if (const auto *DE = dyn_cast<CXXDeleteExpr>(E))
    return Elements.holdsDeep(DE->getDestroyedType())
               ? "delete-expression of an object that holds elements"
               : nullptr;
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD ? libraryCall(Call, FD) : nullptr;
}

/// A write to LHS: of bytes, or of a value that holds elements, in
/// anything but a variable of the code's own.
const char *ListChanges::writeTo(const Expr *LHS) const {
  const Expr *L = LHS->IgnoreParenImpCasts();
  if (ownVariable(L))
    return nullptr;
  if (isByte(L->getType()))
    return "write of bytes through a pointer";
  return Elements.holdsDeep(L->getType())
             ? "write of a value that holds elements"
             : nullptr;
}

/// A call the walk does not follow into (the library's, a builtin, a
/// trivial member function) that may change a list: a non-const member
/// function of an object that holds elements (not an accessor), a pointer
/// argument it may write bytes through, or a value that holds elements
/// made (not a search or an iterator's step).
const char *ListChanges::libraryCall(const CallExpr *Call,
                                     const FunctionDecl *FD) const {
  const auto *M = dyn_cast<CXXMethodDecl>(FD);
  const bool Library =
      FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation());
  if (!Library && !(M && M->isTrivial()))
    return nullptr; // followed: its body is walked
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Object = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(Call) && M && !M->isStatic())
    Object = Call->getArg(0);
  if (Object && M && !M->isConst() && (M->isTrivial() || !isAccessor(M)) &&
      Elements.holdsDeep(Object->getType()))
    return "member function call on an object that holds elements";
  const unsigned First = isa<CXXOperatorCallExpr>(Call) && Object ? 1 : 0;
  for (unsigned I = 0; First + I < Call->getNumArgs() && I < FD->getNumParams();
       ++I) {
    QualType P = FD->getParamDecl(I)->getType();
    if (!P->isPointerType() || P->getPointeeType().isConstQualified())
      continue;
    QualType To = P->getPointeeType();
    const Expr *Arg = Call->getArg(First + I)->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(Arg);
    if ((To->isVoidType() || isByte(To)) &&
        !(UO && UO->getOpcode() == UO_AddrOf && ownVariable(UO->getSubExpr())))
      return "call that may write bytes through a pointer";
  }
  QualType Made = FD->getReturnType();
  if (!M && !Made->isReferenceType() && !Made->isPointerType() &&
      !searches(libraryName(FD)) && Elements.holdsDeep(Made))
    return "call that makes an object that holds elements";
  return nullptr;
}

} // namespace soaview::regions
