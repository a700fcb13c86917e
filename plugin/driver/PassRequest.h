//===- PassRequest.h - what the first pass is asked -------------*- C++ -*-===//
//
// The request the first pass's pieces are handed (driver/Driver.cpp builds
// it once): the translation unit, its recorded attributes, the options, and
// what follows from them for every nest. The pieces hand back values
// (NestChooser's NestChoice, PassEmitter's EmittedNest and PassEdits).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_PASSREQUEST_H
#define SOAVIEW_PASSREQUEST_H

#include "driver/Options.h"
#include "plan/Planner.h"

namespace clang {
class ASTContext;
}

namespace soaview {
class AnnotationCollector;

struct PassRequest {
  clang::ASTContext &Ctx;
  const AnnotationCollector &Annotations;
  const Options &Opts;
  /// Offloaded loops become OpenMP target regions when the compile has
  /// -fopenmp, CUDA kernels with the CUDA backend; otherwise they stay on
  /// the host.
  PlanOptions Planning;
  /// With offloading the driver runs this plugin in the host and in the
  /// device compile: remarks and warnings come from the host compile only.
  bool Host;

  /// Remarks are reported: asked for, in the host compile.
  bool remarks() const { return Opts.Remarks && Host; }
};

} // namespace soaview

#endif
