//===- NestPipeline.h - one nest through the stages -------------*- C++ -*-===//
//
// The first pass's stages for one nest (docs/design.md): recognise each
// loop's form (RecognisedNest), analyse the fields it uses (AnalysedNest),
// check the views, plan (NestPlan), check the plan. The product is the
// checked NestPlan, or nothing after the reasons were reported into the
// caller's store (a trial's, for annotate=all and the template survey).
// Tests: test/Rewrite/*, test/Sema/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_NESTPIPELINE_H
#define SOAVIEW_NESTPIPELINE_H

#include "analysis/View.h"
#include "diag/Diagnostics.h"
#include "forms/Forms.h"
#include "frontend/LoopFinder.h"
#include "plan/Plan.h"
#include "plan/Planner.h"

#include <optional>
#include <vector>

namespace clang {
class ASTContext;
}

namespace soaview {

class AnnotationCollector;

class NestPipeline {
public:
  /// Remarks (about sweeps that stay on the host) go to RemarkStore when
  /// Remarks is set, whichever store a nest's errors go to.
  NestPipeline(clang::ASTContext &Ctx, const AnnotationCollector &Annotations,
               const PlanOptions &Planning, bool Remarks,
               DiagStore &RemarkStore)
      : Ctx(Ctx), Annotations(Annotations), Planning(Planning),
        Remarks(Remarks), Diags(RemarkStore) {}

  /// N (a sweep's nest when Sweep is set) through the stages; InRegion: a
  /// view region reaches it; RegionSweep: the sweep is a view region's (its
  /// views share the region's buffers). nullopt after reporting into D why
  /// it cannot convert.
  std::optional<NestPlan> plan(const std::vector<LoopInstance> &N,
                               std::optional<SweepForm> Sweep, bool InRegion,
                               bool RegionSweep, DiagStore &D) const;

private:
  std::optional<RecognisedNest> recognise(const std::vector<LoopInstance> &N,
                                          DiagStore &D) const;
  void decideSweep(RecognisedNest &Recognised,
                   const AnalysedNest &Analysed) const;
  bool check(const NestPlan &Nest, DiagStore &D) const;

  clang::ASTContext &Ctx;
  const AnnotationCollector &Annotations;
  const PlanOptions Planning;
  const bool Remarks;
  DiagStore &Diags;
};

} // namespace soaview

#endif
