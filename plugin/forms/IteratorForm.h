//===- IteratorForm.h - recognise iterator loops ----------------*- C++ -*-===//
//
// `for (auto it = c.begin(); it != c.end(); ++it)` with the element reached
// only as `*it` or `it->`: converted as the range [begin, end) it walks.
// Tests: test/Sema/iterator-loops.cpp, test/Exec/constructs/iterators.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_ITERATORFORM_H
#define SOAVIEW_ITERATORFORM_H

#include "forms/Forms.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class ASTContext;
class ForStmt;
} // namespace clang

namespace soaview {

class DiagStore;

/// Fills F's iterator form from FS (F.Loop, F.Function set), or reports a
/// located error naming the form found and returns false. The iterator may
/// also start an inner loop that Annotated accepts (`auto jt =
/// std::next(it)`: a symmetric pair loop, checked by forms/PairForm.cpp).
bool recogniseIterator(
    clang::ASTContext &Ctx, const clang::ForStmt *FS, LoopForm &F,
    DiagStore &Diags,
    llvm::function_ref<bool(const clang::ForStmt *)> Annotated);

} // namespace soaview

#endif
