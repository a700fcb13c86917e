//===- Driver.h - first pass: annotated loops to text edits -----*- C++ -*-===//
#ifndef SOAVIEW_DRIVER_H
#define SOAVIEW_DRIVER_H

#include "driver/Options.h"

namespace clang {
class ASTContext;
}

namespace soaview {
class AnnotationCollector;

/// Finds the annotated loops of the translation unit and converts each nest:
/// recognise, analyse, check, plan, decide, emit (docs/design.md).
void runFirstPass(clang::ASTContext &Ctx,
                  const AnnotationCollector &Annotations, const Options &Opts,
                  PassResult &Result);

} // namespace soaview

#endif
