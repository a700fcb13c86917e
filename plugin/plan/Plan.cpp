//===- Plan.cpp - what a nest's plan says, and the size of a view ---------===//
#include "plan/Plan.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace soaview {

std::vector<HeapRoute> NestPlan::heapRoutes() const {
  std::vector<HeapRoute> Routes;
  for (const LoopPlan &P : Loops)
    Routes.insert(Routes.end(), P.Heap.Routes.begin(), P.Heap.Routes.end());
  return Routes;
}

std::vector<const FunctionDecl *> NestPlan::deviceFunctions() const {
  std::vector<const FunctionDecl *> Marked;
  for (const LoopPlan &P : Loops)
    for (const ReachedFunction &R : P.Reach.Functions)
      if (R.NeedsMark)
        Marked.push_back(R.FD);
  return Marked;
}

std::vector<const Expr *> NestPlan::identities() const {
  std::vector<const Expr *> All;
  for (const LoopPlan &P : Loops)
    All.insert(All.end(), P.Identities.begin(), P.Identities.end());
  return All;
}

std::vector<const MemberExpr *> NestPlan::qualifiedMembers() const {
  std::vector<const MemberExpr *> All;
  for (const LoopPlan &P : Loops)
    All.insert(All.end(), P.Qualified.begin(), P.Qualified.end());
  return All;
}

std::vector<const DeclRefExpr *> NestPlan::tableRefs() const {
  std::vector<const DeclRefExpr *> All;
  for (const LoopPlan &P : Loops) {
    llvm::append_range(All, P.Reach.TableRefs);
    for (const ReachedFunction &R : P.Reach.Functions)
      llvm::append_range(All, R.TableRefs);
  }
  return All;
}

bool NestPlan::offloads() const {
  for (const LoopPlan &P : Loops)
    if (P.Offload)
      return true;
  return false;
}

ViewSize viewSize(const ASTContext &Ctx, const LoopPlan &P) {
  ViewSize S;
  for (auto &[Path, A] : P.View.Leaves) {
    uint64_t Bytes =
        P.InPlace.count(Path)
            ? 0 // reached in the element, not moved
            : Ctx.getTypeSizeInChars(Path.back()->getType()).getQuantity();
    S.GatherBytes += Bytes;
    if (A.Read)
      S.InFields++;
    if (A.Written) {
      S.OutFields++;
      S.ScatterBytes += Bytes;
    }
  }
  if (P.Form.Kind == LoopFormKind::Range && P.Form.VarIsCopy)
    S.ScatterBytes = 0;
  return S;
}

} // namespace soaview
