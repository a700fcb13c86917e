//===- LoopForms.h - recognise the loop shapes soaview converts -*- C++ -*-===//
#ifndef SOAVIEW_LOOPFORMS_H
#define SOAVIEW_LOOPFORMS_H

#include "forms/Forms.h"
#include "frontend/LoopFinder.h"

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
std::optional<LoopForm>
recogniseLoop(clang::ASTContext &Ctx, const clang::Stmt *Loop,
              const clang::FunctionDecl *Fn, const LoopAnnotation &A,
              const AnnotationCollector &All, DiagStore &Diags);

/// The recognised loop of instance I with form F: where its view is built
/// (soa_conversion_hoist, checked) and whether it is in a template
/// instantiation.
RecognisedLoop recognisedLoop(clang::ASTContext &Ctx, const LoopInstance &I,
                              LoopForm F);

/// The statement the analysis walks: null for the outermost loop's body,
/// or the loop the outermost hoisted view is built before.
const clang::Stmt *nestRoot(clang::ASTContext &Ctx,
                            const std::vector<RecognisedLoop> &Loops);

} // namespace soaview

#endif
