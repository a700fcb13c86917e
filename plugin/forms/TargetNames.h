//===- TargetNames.h - where an index loop's target name is used -*- C++
//-*-===//
//
// Helpers of index-loop recognition (forms/IndexForm.cpp): the uses of a
// target's name, whether a use belongs to another annotated loop over the
// same target, and which bounds may be evaluated once more.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_TARGETNAMES_H
#define SOAVIEW_TARGETNAMES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

#include <vector>

namespace soaview {

class AnnotationCollector;

/// Collects every reference to a named declaration.
class UseFinder : public clang::RecursiveASTVisitor<UseFinder> {
public:
  explicit UseFinder(llvm::StringRef Name) : Name(Name) {}
  std::vector<const clang::Expr *> Uses;
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    if (E->getDecl()->getName() == Name)
      Uses.push_back(E);
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *E) {
    if (E->getMemberDecl()->getName() == Name &&
        llvm::isa<clang::FieldDecl>(E->getMemberDecl()))
      Uses.push_back(E);
    return true;
  }

private:
  llvm::StringRef Name;
};

/// A loop bound soaview may evaluate once more: no side effects, where calls
/// are allowed only to const member functions (`v.size()`) and constexpr
/// functions.
bool pureBound(const clang::Expr *E, clang::ASTContext &Ctx);

/// True when Index is the index variable of another annotated index loop
/// whose target is Name, with or without an offset (`bodies[j]`,
/// `bodies[j - 1]` in the loop over `bodies[i]`): that use belongs to the
/// other loop's view.
bool otherLoopsIndex(clang::ASTContext &Ctx, const clang::Expr *Index,
                     const clang::VarDecl *Own, llvm::StringRef Name,
                     const AnnotationCollector &All);

/// True when E lies in the body of an annotated loop over target Name that
/// is nested in Own.
bool insideOtherTargetLoop(clang::ASTContext &Ctx, const clang::Expr *E,
                           const clang::Stmt *Own, llvm::StringRef Name,
                           const AnnotationCollector &All);

/// True when Loop lies in the body of another annotated loop over target
/// Name, in the same function: that loop's view shadows Name there.
bool enclosedByTargetLoop(clang::ASTContext &Ctx, const clang::Stmt *Loop,
                          llvm::StringRef Name, const AnnotationCollector &All);

} // namespace soaview

#endif
