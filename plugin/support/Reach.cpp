//===- Reach.cpp - the one walk into the functions code runs --------------===//
//
// See Reach.h. Tests: the walkers' (test/Sema/regions.cpp,
// test/Sema/cuda-*.cpp, test/Sema/heap-*.cpp, test/Sema/containers*.cpp).
//===----------------------------------------------------------------------===//
#include "support/Reach.h"

#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace soaview {
namespace {

/// A class's destructor and, recursively, its bases' and fields'.
void withParts(const ASTContext &Ctx, QualType T,
               llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Seen,
               llvm::function_ref<void(const CXXDestructorDecl *)> Each) {
  const CXXRecordDecl *RD = classWithDestructor(Ctx, T);
  if (!RD || !Seen.insert(RD).second)
    return;
  if (const CXXDestructorDecl *D = RD->getDestructor())
    Each(D);
  for (const CXXBaseSpecifier &B : RD->bases())
    withParts(Ctx, B.getType(), Seen, Each);
  for (const FieldDecl *F : RD->fields())
    withParts(Ctx, F->getType(), Seen, Each);
}

/// A user class's destructor, or those of the classes a library class holds.
void userClasses(const ASTContext &Ctx, QualType T,
                 llvm::function_ref<void(const CXXDestructorDecl *)> Each) {
  const CXXRecordDecl *RD = classWithDestructor(Ctx, T);
  if (!RD)
    return;
  if (Ctx.getSourceManager().isInSystemHeader(RD->getLocation())) {
    if (const auto *TS = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      for (const TemplateArgument &Arg : TS->getTemplateArgs().asArray())
        if (Arg.getKind() == TemplateArgument::Type)
          userClasses(Ctx, Arg.getAsType(), Each);
    return;
  }
  if (const CXXDestructorDecl *D = RD->getDestructor())
    Each(D);
}

/// The call operators of a lambda class (every specialisation of a generic
/// one's template).
void callOperators(const CXXRecordDecl *RD,
                   llvm::function_ref<void(const FunctionDecl *)> Each) {
  if (!RD->isGenericLambda())
    return Each(RD->getLambdaCallOperator());
  for (const FunctionDecl *S :
       RD->getDependentLambdaCallOperator()->specializations())
    Each(S);
}

} // namespace

void destructorsOf(const ASTContext &Ctx, QualType T, DestructorRule Rule,
                   llvm::function_ref<void(const CXXDestructorDecl *)> Each) {
  switch (Rule) {
  case DestructorRule::Own:
    if (const CXXRecordDecl *RD = classWithDestructor(Ctx, T))
      if (const CXXDestructorDecl *D = RD->getDestructor())
        Each(D);
    return;
  case DestructorRule::WithParts: {
    llvm::SmallPtrSet<const CXXRecordDecl *, 8> Seen;
    return withParts(Ctx, T, Seen, Each);
  }
  case DestructorRule::UserClasses:
    return userClasses(Ctx, T, Each);
  }
}

void runsAt(const ASTContext &Ctx, const Stmt *S, const RunRule &Rule,
            llvm::function_ref<void(const Run &)> Each) {
  auto Destroys = [&](QualType T, const VarDecl *V) {
    destructorsOf(Ctx, T, Rule.Destructors, [&](const CXXDestructorDecl *D) {
      Each({D, S, RunKind::Destroy, V});
    });
  };
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return Each({Call->getDirectCallee(), S, RunKind::Call});
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    Each({CE->getConstructor(), S, RunKind::Construct});
    if (Rule.ConstructedDestroyed)
      Destroys(CE->getType(), nullptr);
  } else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(S)) {
    if (Rule.TemporariesDestroyed)
      Destroys(BT->getType(), nullptr);
  } else if (const auto *DE = dyn_cast<CXXDeleteExpr>(S)) {
    Destroys(DE->getDestroyedType(), nullptr);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S);
             DS && Rule.LocalsDestroyed) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasLocalStorage())
        Destroys(V->getType(), V);
  } else if (const auto *Ref = dyn_cast<DeclRefExpr>(S);
             Ref && Rule.NamedLambdas) {
    const CXXRecordDecl *RD = Ref->getType()->getAsCXXRecordDecl();
    if (RD && RD->isLambda())
      callOperators(RD, [&](const FunctionDecl *Op) {
        Each({Op, S, RunKind::NamedLambda});
      });
  }
}

void definitionCode(const FunctionDecl *Def,
                    llvm::function_ref<void(const Stmt *)> Each) {
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *I : Ctor->inits()) {
      const Expr *Init = I->getInit();
      if (const auto *Default = dyn_cast_or_null<CXXDefaultInitExpr>(Init))
        Init = Default->getExpr();
      Each(Init);
    }
  Each(Def->getBody());
}

void partsDestroyed(const ASTContext &Ctx, const CXXDestructorDecl *Dt,
                    DestructorRule Rule,
                    llvm::function_ref<void(const CXXDestructorDecl *)> Each) {
  const CXXRecordDecl *RD = Dt->getParent();
  for (const FieldDecl *F : RD->fields())
    destructorsOf(Ctx, F->getType(), Rule, Each);
  for (const CXXBaseSpecifier &B : RD->bases())
    destructorsOf(Ctx, B.getType(), Rule, Each);
}

} // namespace soaview
