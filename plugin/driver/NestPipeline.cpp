//===- NestPipeline.cpp - one nest through the stages (NestPipeline.h) ----===//
#include "driver/NestPipeline.h"

#include "analysis/Analysis.h"
#include "checks/Checks.h"
#include "checks/CudaChecks.h"
#include "forms/LoopForms.h"
#include "forms/PairForm.h"
#include "forms/SweepForm.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace soaview {

std::optional<NestPlan> NestPipeline::plan(const std::vector<LoopInstance> &N,
                                           std::optional<SweepForm> Sweep,
                                           bool InRegion, bool RegionSweep,
                                           DiagStore &D) const {
  std::optional<RecognisedNest> Recognised = recognise(N, D);
  if (!Recognised)
    return std::nullopt;
  Recognised->RegionSweep = Sweep && RegionSweep;
  std::optional<AnalysedNest> Analysed = analyseNest(Ctx, D, *Recognised);
  if (!Analysed || !checkViews(*Recognised, *Analysed, D))
    return std::nullopt;
  Recognised->Sweep = std::move(Sweep);
  decideSweep(*Recognised, *Analysed);
  PlanOptions Options = Planning;
  Options.InRegion = InRegion;
  NestPlan Nest =
      planNest(Ctx, std::move(*Recognised), std::move(*Analysed), Options);
  if (!check(Nest, D))
    return std::nullopt;
  return Nest;
}

/// Each loop's form and the checks that need only the form; a nest converts
/// whole or not at all.
std::optional<RecognisedNest>
NestPipeline::recognise(const std::vector<LoopInstance> &N,
                        DiagStore &D) const {
  RecognisedNest Nest;
  for (const LoopInstance &I : N) {
    if (!checkHoistLevel(Ctx, *I.Annotation, I.Loop, D) ||
        !checkNotOpenMPLoop(Ctx, *I.Annotation, I.Loop, D) ||
        !checkNotConstexpr(*I.Annotation, I.Fn, D))
      return std::nullopt;
    std::optional<LoopForm> F =
        recogniseLoop(Ctx, I.Loop, I.Fn, *I.Annotation, Annotations, D);
    if (!F || !checkElementNameable(*F, *I.Annotation, D) ||
        !checkContainerUnchanged(Ctx, *F, *I.Annotation, D))
      return std::nullopt;
    RecognisedLoop L = recognisedLoop(Ctx, I, std::move(*F));
    if (L.HoistTo && !checkHoist(Ctx, L, D))
      return std::nullopt;
    Nest.InTemplate = L.InTemplate;
    Nest.Loops.push_back(std::move(L));
  }
  if (!recognisePairs(Ctx, Nest, D))
    return std::nullopt;
  Nest.Root = nestRoot(Ctx, Nest.Loops);
  return Nest;
}

/// A sweep whose nest cannot run swept stays on the host, with a remark.
void NestPipeline::decideSweep(RecognisedNest &Recognised,
                               const AnalysedNest &Analysed) const {
  if (!Recognised.Sweep)
    return;
  std::optional<std::string> Why = sweepStaysOnHost(Recognised, Analysed);
  if (!Why)
    return;
  if (Remarks)
    Diags.report(Recognised.Sweep->Annotation->ForLoc,
                 {diag::remark_sweep_host, {*Why}});
  Recognised.Sweep.reset();
}

/// The checks of the plan: the sweep, offloading (and the CUDA backend's
/// rules), allocation on the device, then the warning for loops that use no
/// field and the place of the generated code.
bool NestPipeline::check(const NestPlan &Nest, DiagStore &D) const {
  if (Nest.Sweep && !checkSweep(Ctx, Nest, D))
    return false;
  if (!checkPairPlacement(Nest, D))
    return false;
  bool OK = true;
  for (const LoopPlan &P : Nest.Loops) // a host sweep runs in parallel too
    if (P.Offload || (&P == &Nest.Loops[0] && Nest.hostSweep()))
      OK &= checkOffload(Ctx, Nest, P, D);
  if (!OK)
    return false;
  if (Planning.DeviceHeap)
    for (const LoopPlan &P : Nest.Loops)
      if (P.Offload && !checkDeviceHeap(Nest, P, D))
        return false;
  if (Planning.Backend == BackendKind::Cuda)
    for (const LoopPlan &P : Nest.Loops)
      if (P.Offload)
        OK &= checkCudaOffload(Ctx, P, D);
  if (!OK || !checkUsesFields(Ctx, Nest, D) || !checkPlacement(Ctx, Nest, D))
    return false;
  warnGuardsDerived(Ctx, Nest, D);
  return true;
}

} // namespace soaview
