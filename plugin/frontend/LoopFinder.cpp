//===- LoopFinder.cpp - annotated loops and their nests -------------------===//
#include "frontend/LoopFinder.h"

#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <map>

using namespace clang;

namespace soaview {

namespace {

class LoopFinder : public RecursiveASTVisitor<LoopFinder> {
public:
  explicit LoopFinder(const AnnotationCollector &Annotations)
      : Annotations(Annotations) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    return within(
        FD, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    return within(
        FD, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(FD); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *FD) {
    return within(FD, [&] {
      return RecursiveASTVisitor::TraverseCXXConstructorDecl(FD);
    });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *FD) {
    return within(
        FD, [&] { return RecursiveASTVisitor::TraverseCXXDestructorDecl(FD); });
  }

  bool VisitForStmt(ForStmt *S) { return found(S, S->getForLoc()); }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    return found(S, S->getForLoc());
  }
  bool VisitWhileStmt(WhileStmt *S) { return found(S, S->getBeginLoc()); }
  bool VisitDoStmt(DoStmt *S) { return found(S, S->getBeginLoc()); }

  std::map<unsigned, std::vector<LoopInstance>> Loops; // by ForLoc encoding

private:
  template <class F> bool within(FunctionDecl *FD, F Fn) {
    Stack.push_back(FD);
    bool R = Fn();
    Stack.pop_back();
    return R;
  }
  bool found(Stmt *S, SourceLocation L) {
    auto It = Annotations.Loops.find(L);
    if (Stack.empty() || It == Annotations.Loops.end())
      return true;
    const FunctionDecl *FD = Stack.back();
    if (FD->isDependentContext())
      return true; // patterns: their instantiations are visited instead
    Loops[L.getRawEncoding()].push_back({&It->second, S, FD});
    return true;
  }
  const AnnotationCollector &Annotations;
  std::vector<const FunctionDecl *> Stack;
};

/// Every instance of every annotated loop, loops in source order.
std::vector<LoopInstance> allInstances(ASTContext &Ctx,
                                       const AnnotationCollector &Annotations) {
  SourceManager &SM = Ctx.getSourceManager();
  LoopFinder LF(Annotations);
  LF.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::vector<const LoopAnnotation *> Order;
  for (auto &KV : Annotations.Loops)
    Order.push_back(&KV.second);
  llvm::sort(Order, [&](const LoopAnnotation *A, const LoopAnnotation *B) {
    return SM.isBeforeInTranslationUnit(A->ForLoc, B->ForLoc);
  });
  std::vector<LoopInstance> All;
  for (const LoopAnnotation *A : Order) {
    auto It = LF.Loops.find(A->ForLoc.getRawEncoding());
    if (It != LF.Loops.end())
      All.insert(All.end(), It->second.begin(), It->second.end());
  }
  return All;
}

} // namespace

std::vector<std::vector<LoopInstance>>
findNests(ASTContext &Ctx, const AnnotationCollector &Annotations) {
  SourceManager &SM = Ctx.getSourceManager();
  std::vector<LoopInstance> All = allInstances(Ctx, Annotations);
  std::vector<std::vector<LoopInstance>> Nests;
  for (const LoopInstance &I : All) {
    bool Nested = false;
    for (const LoopInstance &O : All)
      Nested |= O.Fn == I.Fn && contains(SM, O.Loop, I.Loop);
    if (Nested)
      continue;
    std::vector<LoopInstance> N{I};
    for (const LoopInstance &J : All)
      if (J.Fn == I.Fn && contains(SM, I.Loop, J.Loop))
        N.push_back(J);
    Nests.push_back(std::move(N));
  }
  return Nests;
}

} // namespace soaview
