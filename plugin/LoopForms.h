//===- LoopForms.h - recognise the loop shapes soaview converts -*- C++ -*-===//
#ifndef SOAVIEW_LOOPFORMS_H
#define SOAVIEW_LOOPFORMS_H

#include "Model.h"

#include "clang/AST/ParentMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace clang {
class ASTContext;
}

namespace soaview {

class AnnotationCollector;
class DiagStore;
struct LoopAnnotation;

/// Checks the loop's shape and fills a LoopForm; reports a located error and
/// returns nullopt when the shape is not one soaview converts. All is the
/// translation unit's annotations: an index loop's target may also be
/// indexed by another annotated loop over it (the N-body nest).
std::optional<LoopForm> recogniseLoop(clang::ASTContext &Ctx,
                                      const clang::Stmt *Loop,
                                      const clang::FunctionDecl *Fn,
                                      const LoopAnnotation &A,
                                      const AnnotationCollector &All,
                                      DiagStore &Diags);

/// The first expression in S that may modify one of Vars (assignment,
/// increment, address taken, non-const reference or member call), or null.
const clang::Expr *findWrite(const clang::Stmt *S,
                             llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Vars);

/// The jumps of a loop body that act on the loop itself, in source order:
/// `break` and `continue` not owned by a nested loop (nor, for `break`, by a
/// switch), and every `return` and `goto`. Lambda bodies are not searched.
struct LoopJumps {
  std::vector<const clang::Stmt *> Exits; ///< break, return, goto
  std::vector<const clang::ContinueStmt *> Continues;
};
LoopJumps findLoopJumps(const clang::Stmt *Body);

/// True when the loop body means the same as the body of a lambda capturing
/// by reference whose `return` replaces the loop's `continue`: no break,
/// return or goto acting on the loop, no coroutine operators, no __func__
/// or __builtin_FUNCTION, no structured bindings or variable-length arrays
/// from outside the body (a C++17 lambda cannot capture them).
bool bodyFitsLambda(const clang::Stmt *Body);

} // namespace soaview

#endif
