//===- Placement.h - where the generated code of a loop goes ----*- C++ -*-===//
#ifndef SOAVIEW_PLACEMENT_H
#define SOAVIEW_PLACEMENT_H

#include "forms/Forms.h"

namespace clang {
class ASTContext;
}

namespace soaview {

/// The declaration at namespace scope before which the views of P go: the
/// one holding the loop, or for template instantiations the one that
/// instantiates.
const clang::Decl *viewInsertionDecl(clang::ASTContext &Ctx,
                                     const RecognisedLoop &P);

} // namespace soaview

#endif
