//===- Uses.h - how the value of an lvalue is used --------------*- C++ -*-===//
//
// Private to analysis/. One question, answered as a value: is the value of
// an lvalue (a field access, a call's result) read, written or both? The
// answer follows the lvalue up the AST of the body it is in, through the
// forms that pass it on unchanged (parentheses, casts that keep the object,
// a conditional's arm, a comma, an array element, an accessor's result, a
// sub-object's field, a local reference bound to it) to what is done with
// it (docs/semantics.md, "What counts as a write").
// Tests: test/Rewrite/accessor-reads.cpp,
// test/Exec/constructs/accessor-reads.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_USES_H
#define SOAVIEW_USES_H

#include "analysis/View.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"

#include <vector>

namespace soaview {
namespace analysis {

/// How an lvalue is used, and what the walk found on its way.
struct UseOf {
  /// Read, written (its first use set).
  LeafAccess Access;
  /// A call that receives a non-const reference or pointer to the lvalue,
  /// which it could keep (null when none).
  const clang::CallExpr *RefCall = nullptr;
  /// Returned by non-const lvalue reference from the body's function, whose
  /// callers are followed: not counted as written, the callers decide.
  bool Returned = false;
  /// Fields of sub-objects the walk passed through (`p->pos.x` from
  /// `p->pos`): accesses of the same element, not of another object.
  std::vector<const clang::MemberExpr *> SubFields;
};

/// The body an lvalue is used in.
struct UseSite {
  const clang::ASTContext &Ctx;
  clang::ParentMap &PM;
  /// The function whose body it is (null: the nest's own function).
  const clang::FunctionDecl *Function = nullptr;
  /// Whether the function's callers are followed, so that a reference it
  /// returns can be judged where it is used (Returned).
  bool CallersFollowed = false;
};

/// How the value of Use is used in Site (docs/semantics.md). Anything not
/// recognised counts as read and written, which is always safe (gathered
/// and scattered).
UseOf useOf(const UseSite &Site, const clang::Expr *Use);

/// Whether the lvalue Use is passed on as an lvalue (to a call, a member
/// function, a reference, a constructor, a return) rather than only read or
/// assigned (LeafAccess::RefSensitive).
bool passedOn(const clang::Expr *Use, clang::ParentMap &PM);

/// The local variable that Init initialises in DS, or null.
const clang::VarDecl *initialised(const clang::DeclStmt *DS,
                                  const clang::Expr *Init);

} // namespace analysis
} // namespace soaview

#endif
