//===- LoopFinder.h - annotated loops and their nests -----------*- C++ -*-===//
//
// Finds every instance of an annotated loop (one per template
// instantiation) and groups them into nests: per function, every annotated
// loop belongs to the outermost annotated loop around it.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_LOOPFINDER_H
#define SOAVIEW_LOOPFINDER_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <vector>

namespace clang {
class ASTContext;
}

namespace soaview {
class AnnotationCollector;
struct LoopAnnotation;

/// One annotated loop in one function (or instantiation).
struct LoopInstance {
  const LoopAnnotation *Annotation;
  const clang::Stmt *Loop;
  const clang::FunctionDecl *Fn;
};

/// The nests of the translation unit, in source order; each nest's loops
/// outermost first. Uninstantiated templates have no instances.
std::vector<std::vector<LoopInstance>>
findNests(clang::ASTContext &Ctx, const AnnotationCollector &Annotations);

} // namespace soaview

#endif
