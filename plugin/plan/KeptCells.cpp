//===- KeptCells.cpp - sweeps whose cells a kept region records once -----===//
//
// See KeptCells.h.
//===----------------------------------------------------------------------===//
#include "plan/KeptCells.h"

#include "support/ElementTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace soaview {
namespace {

const VarDecl *varOf(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

bool inSystemHeader(const ASTContext &Ctx, const Decl *D) {
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.isInSystemHeader(SM.getFileLoc(D->getLocation()));
}

/// A list of the cells: a variable (not a pointer) of a standard
/// container type that holds Elem.
bool cellLists(const ASTContext &Ctx, const VarDecl *V,
               const CXXRecordDecl *Elem) {
  const CXXRecordDecl *RD =
      V->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return RD && inSystemHeader(Ctx, RD) &&
         ElementTypes(Ctx, {Elem}).holds(V->getType());
}

/// `Lists[C]` with a standard container's operator[]: Lists.
const VarDecl *subscripted(const ASTContext &Ctx, const Expr *E,
                           const VarDecl *C) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E->IgnoreParenImpCasts());
  if (!Op || Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2 ||
      varOf(Op->getArg(1)) != C || !Op->getDirectCallee() ||
      !inSystemHeader(Ctx, Op->getDirectCallee()))
    return nullptr;
  return varOf(Op->getArg(0));
}

/// `C < Lists.size()` with a standard container's size(): Lists.
const VarDecl *sizeBound(const ASTContext &Ctx, const Expr *E,
                         const VarDecl *C) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(E);
  if (!B || B->getOpcode() != BO_LT || varOf(B->getLHS()) != C)
    return nullptr;
  const auto *Size =
      dyn_cast<CXXMemberCallExpr>(B->getRHS()->IgnoreParenImpCasts());
  const CXXMethodDecl *M = Size ? Size->getMethodDecl() : nullptr;
  if (!M || !M->getIdentifier() || M->getName() != "size" ||
      Size->getNumArgs() != 0 || !inSystemHeader(Ctx, M))
    return nullptr;
  return varOf(Size->getImplicitObjectArgument());
}

/// `for (std::size_t C = 0; C < Lists.size(); ++C)`: C, and Lists.
std::pair<const VarDecl *, const VarDecl *> countedLoop(const ASTContext &Ctx,
                                                        const Stmt *Loop) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  const auto *Init = For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
  const auto *C = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  if (!C || !C->getType()->isIntegerType() || !C->getInit() ||
      !isa<IntegerLiteral>(C->getInit()->IgnoreParenImpCasts()))
    return {};
  const auto *Inc = dyn_cast_or_null<UnaryOperator>(For->getInc());
  if (!Inc || !Inc->isIncrementOp() || varOf(Inc->getSubExpr()) != C)
    return {};
  return {C, sizeBound(Ctx, For->getCond(), C)};
}

/// The list a loop of the nest takes its cell's range from (`Lists[C]`).
const VarDecl *rangeList(const ASTContext &Ctx, const RecognisedLoop &L,
                         const VarDecl *C) {
  const auto *Range = dyn_cast<CXXForRangeStmt>(L.Form.Loop);
  return Range ? subscripted(Ctx, Range->getRangeInit(), C) : nullptr;
}

} // namespace

std::vector<const VarDecl *> keptCellLists(const ASTContext &Ctx,
                                           const SweepForm &S,
                                           const RecognisedLoop &Local,
                                           const RecognisedLoop *Inner) {
  if (!S.Decls.empty())
    return {}; // declarations in the cell loop may read anything
  auto [C, Bound] = countedLoop(Ctx, S.Loop);
  if (!C || !Bound)
    return {};
  std::vector<const VarDecl *> Lists = {Bound};
  for (const RecognisedLoop *L : {&Local, Inner})
    if (L) {
      const VarDecl *V = rangeList(Ctx, *L, C);
      if (!V)
        return {};
      if (!llvm::is_contained(Lists, V))
        Lists.push_back(V);
    }
  const CXXRecordDecl *Elem = Local.Form.Element;
  for (const VarDecl *V : Lists)
    if (V == C || !Elem || !cellLists(Ctx, V, Elem))
      return {};
  return Lists;
}

} // namespace soaview
