//===- IndexForm.h - recognise index loops ----------------------*- C++ -*-===//
//
// `for (i = lo; i < n; ++i)` (also `<=`, `!=`) over T*, T[N] or
// std::vector<T> named by soa_conversion_target, indexed `name[i + c]`, or
// `name[list[i + c]]` (a neighbour-list loop).
// Tests: test/Sema/loop-forms.cpp, test/Sema/neighbour-lists.cpp,
// test/Sema/other-elements.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_INDEXFORM_H
#define SOAVIEW_INDEXFORM_H

#include "forms/Forms.h"

namespace clang {
class ASTContext;
class ForStmt;
} // namespace clang

namespace soaview {

class AnnotationCollector;
class DiagStore;
struct AttrUse;

/// Fills F's index form from FS (F.Loop, F.Function set) and Target, the
/// loop's soa_conversion_target (null when it has none), or reports a
/// located error naming the form found and returns false. All is the
/// translation unit's annotations: the target may also be indexed by
/// another annotated loop over it (the N-body nest).
bool recogniseIndex(clang::ASTContext &Ctx, const clang::ForStmt *FS,
                    const AttrUse *Target, const AnnotationCollector &All,
                    LoopForm &F, DiagStore &Diags);

} // namespace soaview

#endif
