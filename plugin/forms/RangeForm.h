//===- RangeForm.h - recognise range loops ----------------------*- C++ -*-===//
//
// `for (auto &p : range)` over anything with begin/end whose elements are
// structs or pointers to structs: `auto &p`, `auto *p`, `P p`, `P *&p`, a
// `std::reference_wrapper<P>` (`auto &r`, `P &e`), or the one binding of
// `auto &[key, p]` that is the element.
// Tests: test/Sema/loop-forms.cpp, test/Sema/reference-wrappers.cpp,
// test/Sema/structured-bindings.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_RANGEFORM_H
#define SOAVIEW_RANGEFORM_H

#include "forms/Forms.h"

namespace clang {
class ASTContext;
class CXXForRangeStmt;
} // namespace clang

namespace soaview {

class DiagStore;

/// Fills F's range form from RF (F.Loop, F.Function set), or reports a
/// located error naming the form found and returns false.
bool recogniseRange(clang::ASTContext &Ctx, const clang::CXXForRangeStmt *RF,
                    LoopForm &F, DiagStore &Diags);

} // namespace soaview

#endif
