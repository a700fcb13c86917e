//===- NestChooser.cpp - which nests convert ------------------------------===//
#include "driver/NestChooser.h"

#include "driver/EveryLoop.h"
#include "driver/Report.h"

#include "checks/Checks.h"
#include "forms/SweepForm.h"
#include "frontend/Annotations.h"
#include "regions/Regions.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

NestChooser::NestChooser(const PassRequest &Request,
                         const std::vector<RegionPlan> &Regions,
                         DiagStore &Diags)
    : Request(Request), Diags(Diags),
      Pipeline(Request.Ctx, Request.Annotations, Request.Planning,
               Request.remarks(), Diags),
      Instances(Request.Ctx) {
  for (const RegionPlan &Region : Regions)
    RegionLoops.insert(Region.Loops.begin(), Region.Loops.end());
}

void NestChooser::survey(const std::vector<std::vector<LoopInstance>> &Nests) {
  std::vector<NestPlan> Plans;
  for (const std::vector<LoopInstance> &N : Nests) {
    const FunctionDecl *Fn = N.front().Fn;
    if (looksLikeSweep(N) || (!Fn->getTemplateInstantiationPattern() &&
                              !Fn->isTemplateInstantiation()))
      continue; // sweeps keep the refusal
    DiagStore Trial(Request.Ctx.getSourceManager());
    if (std::optional<NestPlan> Nest = plan(N, std::nullopt, Trial))
      Plans.push_back(std::move(*Nest));
  }
  Instances.survey(Plans);
}

NestChoice NestChooser::choose(const std::vector<LoopInstance> &N) {
  if (!looksLikeSweep(N))
    return nest(N, std::nullopt);
  if (!Request.Planning.CanOffload)
    return sweepOnHost(N);
  std::optional<SweepForm> S = recogniseSweep(Request.Ctx, N, Diags);
  if (!S)
    return {};
  return nest(std::vector<LoopInstance>(N.begin() + 1, N.end()), std::move(S));
}

std::vector<NestPlan>
NestChooser::everyLoop(const std::vector<std::vector<LoopInstance>> &Nests) {
  auto Plan = [&](const std::vector<LoopInstance> &N, DiagStore &D) {
    return plan(N, std::nullopt, D);
  };
  return EveryLoop(Request.Ctx.getSourceManager(), Diags, Request.Host, Plan,
                   Instances)
      .convertible(Nests);
}

/// A sweep in a compile that cannot offload. In a view region it is swept
/// on the host when it can be (one parallel loop over all cells; its views
/// stay in host memory for the region); otherwise, and outside regions,
/// its nest converts for the host, cell by cell, with a remark saying why.
NestChoice NestChooser::sweepOnHost(const std::vector<LoopInstance> &N) {
  std::vector<LoopInstance> Inner(N.begin() + 1, N.end());
  std::string Why = "compile with an offload target (-fopenmp with "
                    "--offload-arch or -fopenmp-targets, or the CUDA "
                    "backend) to offload";
  if (inRegion(N)) {
    DiagStore Trial(Request.Ctx.getSourceManager());
    std::optional<NestPlan> Nest;
    if (std::optional<SweepForm> S = recogniseSweep(Request.Ctx, N, Trial))
      Nest = plan(Inner, std::move(S), Trial);
    if (Nest && Nest->Sweep)
      return placed(std::move(*Nest));
    if (Nest) // decideSweep said why
      return nest(Inner, std::nullopt);
    if (const StoredDiag *R = Trial.firstReason()) {
      StringRef Reason(R->Message);
      Reason.consume_front("soaview: ");
      Why = "it cannot run swept on the host: " + Reason.str();
    }
  }
  if (Request.remarks())
    Diags.report(N[0].Annotation->ForLoc, {diag::remark_sweep_host, {Why}});
  return nest(Inner, std::nullopt);
}

/// One nest: the profitability rule decides first; a loop it leaves as
/// written is still recognised, analysed and checked, for the report, but
/// what that finds is not reported. A swept nest is offloaded as one.
NestChoice NestChooser::nest(const std::vector<LoopInstance> &N,
                             std::optional<SweepForm> Sweep) {
  const LoopAnnotation &Annotation = *N.front().Annotation;
  const bool Pays =
      Sweep || !Request.Opts.profitability() ||
      conversionPays(Annotation, N.size(), Request.Planning.CanOffload);
  NestChoice Left;
  if (!Pays && inRegion(N))
    Left.SyncRegionAt = N.front();
  DiagStore Unreported(Request.Ctx.getSourceManager());
  DiagStore &D = Pays ? Diags : Unreported;
  std::optional<NestPlan> Nest = plan(N, std::move(Sweep), D);
  if (!Pays && Request.Host && Unreported.hasErrors())
    warnNeverConverts(Annotation, Unreported, Diags);
  else if (!Pays && Request.remarks())
    remarkUnconverted(Request.Ctx, Annotation, Diags);
  if (!Nest)
    return Left;
  if (!Pays) {
    Left.LeftRows = reportRows(Request.Ctx, *Nest, false);
    return Left;
  }
  return placed(std::move(*Nest));
}

NestChoice NestChooser::placed(NestPlan Nest) {
  NestChoice Choice;
  if (Instances.place(Nest, Diags))
    Choice.Convert = std::move(Nest);
  return Choice;
}

std::optional<NestPlan> NestChooser::plan(const std::vector<LoopInstance> &N,
                                          std::optional<SweepForm> Sweep,
                                          DiagStore &D) const {
  bool RegionSweep =
      Sweep && RegionLoops.count(Sweep->Annotation->ForLoc.getRawEncoding());
  return Pipeline.plan(N, std::move(Sweep), inRegion(N), RegionSweep, D);
}

bool NestChooser::inRegion(const std::vector<LoopInstance> &N) const {
  return llvm::any_of(N, [&](const LoopInstance &I) {
    return RegionLoops.count(I.Annotation->ForLoc.getRawEncoding());
  });
}

} // namespace soaview
