//===- LoopForms.h - recognise the loop shapes soaview converts -*- C++ -*-===//
#ifndef SOAVIEW_LOOPFORMS_H
#define SOAVIEW_LOOPFORMS_H

#include "plan/Model.h"

#include "support/AstHelpers.h"

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


} // namespace soaview

#endif
