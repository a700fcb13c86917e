//===- Placement.h - where the generated code of a loop goes ----*- C++ -*-===//
#ifndef SOAVIEW_PLACEMENT_H
#define SOAVIEW_PLACEMENT_H

#include "forms/Forms.h"

namespace clang {
class ASTContext;
class DeclContext;
} // namespace clang

namespace soaview {

/// A place at namespace scope for generated declarations: the start of a
/// declaration, or of an explicit instantiation (which Clang keeps no
/// declaration for), and the namespace around it.
struct InsertionPoint {
  clang::SourceLocation Loc; ///< a file location
  const clang::DeclContext *Scope = nullptr;
};

/// Where the views of Loop go: before the declaration at namespace scope that
/// holds the loop, or for template instantiations before the declaration
/// or explicit instantiation that instantiates.
InsertionPoint viewInsertionPoint(clang::ASTContext &Ctx,
                                  const RecognisedLoop &Loop);

} // namespace soaview

#endif
