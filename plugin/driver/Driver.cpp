//===- Driver.cpp - first pass: annotated loops to text edits -------------===//
//
// Runs after the first (syntax-only) parse. The pipeline, one named step
// each, every stage handing the next the product it alone writes
// (docs/design.md):
//   find nests -> decide -> recognise (RecognisedNest) -> analyse
//   (AnalysedNest) -> check the views -> plan (NestPlan) -> check the plan
//   -> emit
// Any error cancels every rewrite of the translation unit: the real compile
// then parses the user's source unchanged and reports soaview's errors.
// The pieces take the request (driver/PassRequest.h) and hand back values:
// which nests convert (driver/NestChooser), their text edits
// (driver/PassEmitter), the diagnostics of no nest (driver/PassDiagnostics).
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"

#include "driver/NestChooser.h"
#include "driver/PassDiagnostics.h"
#include "driver/PassEmitter.h"
#include "driver/PassRequest.h"
#include "driver/Report.h"

#include "frontend/LoopFinder.h"
#include "regions/Regions.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace clang;

namespace soaview {

namespace {

/// Offloaded loops have a device to run on: the CUDA backend, or OpenMP
/// with an offload target (-fopenmp-targets, --offload-arch; the device
/// compile itself). With -fopenmp alone a target region would run on the
/// host through libomptarget, which such a link does not have.
bool canOffload(const LangOptions &LO, const Options &Opts) {
  return Opts.Offload == BackendKind::Cuda ||
         (LO.OpenMP &&
          (LO.OpenMPIsTargetDevice || !LO.OMPTargetTriples.empty()));
}

/// What the planner takes from the plugin's arguments (InRegion is the
/// regions' to set).
PlanOptions planOptions(const LangOptions &LO, const Options &Opts) {
  PlanOptions Planning;
  Planning.CanOffload = canOffload(LO, Opts);
  Planning.Backend = Opts.Offload;
  Planning.DeviceHeap = Opts.DeviceHeap;
  Planning.SizeGates = Opts.profitability();
  Planning.BareKernels = Opts.BareKernels;
  return Planning;
}

PassRequest request(ASTContext &Ctx, const AnnotationCollector &Annotations,
                    const Options &Opts) {
  const LangOptions &LO = Ctx.getLangOpts();
  return {Ctx, Annotations, Opts, planOptions(LO, Opts),
          !LO.OpenMPIsTargetDevice};
}

void handOn(std::optional<EmittedNest> Nest, PassResult &Result) {
  if (!Nest)
    return;
  for (ConvertedLoop &L : Nest->Loops)
    Result.Converted.push_back(std::move(L));
  appendRows(Result.Report, std::move(Nest->Rows));
}

void handOn(std::optional<PassEdits> Files, PassResult &Result) {
  if (!Files)
    return;
  Result.Buffers = std::move(Files->Buffers);
  Result.MainFile = std::move(Files->MainFile);
}

/// Every nest: chosen (NestChooser), then emitted in the order chosen.
void convertNests(const std::vector<std::vector<LoopInstance>> &Nests,
                  NestChooser &Chooser, PassEmitter &Out, PassResult &Result,
                  bool AnnotateAll) {
  if (AnnotateAll) {
    for (const NestPlan &Nest : Chooser.everyLoop(Nests))
      handOn(Out.emit(Nest), Result);
    return;
  }
  for (const std::vector<LoopInstance> &N : Nests) {
    NestChoice Choice = Chooser.choose(N);
    if (Choice.SyncRegionAt)
      Out.syncRegion(*Choice.SyncRegionAt);
    appendRows(Result.Report, std::move(Choice.LeftRows));
    if (Choice.Convert)
      handOn(Out.emit(*Choice.Convert), Result);
  }
}

} // namespace

void runFirstPass(ASTContext &Ctx, const AnnotationCollector &Annotations,
                  const Options &Opts, PassResult &Result) {
  Result.Diags = std::make_unique<DiagStore>(Ctx.getSourceManager());
  DiagStore &Diags = *Result.Diags;
  const PassRequest Request = request(Ctx, Annotations, Opts);
  PassEmitter Out(Request, Diags);
  // convert=never: soaview is off: the source as written, attributes
  // accepted (soaview-translate: as comments).
  if (Opts.Convert == ConvertMode::Never)
    return handOn(Out.finish({}), Result);
  reportAttributeProblems(Annotations, Diags);
  std::vector<std::vector<LoopInstance>> Nests = findNests(Ctx, Annotations);
  if (!Nests.empty() && !Ctx.getLangOpts().CPlusPlus17)
    return refuseStandard(Ctx.getLangOpts(), Nests.front().front(), Diags);
  // View regions: what they reach (those loops always convert) and what
  // they refuse; emitted at the end.
  std::vector<RegionPlan> Regions = analyseRegions(Ctx, Annotations, Diags);
  if (Request.remarks())
    remarkRegions(Regions, Diags);
  NestChooser Chooser(Request, Regions, Diags);
  Chooser.survey(Nests);
  convertNests(Nests, Chooser, Out, Result, Opts.AnnotateAll);
  warnNothingOffloaded(Request, Out.anyOffload(), Diags);
  handOn(Out.finish(Regions), Result);
}

unsigned PassResult::mapOffset(StringRef File, unsigned Offset) const {
  auto It = Buffers.find(File.str());
  if (It == Buffers.end())
    return Offset;
  return It->second->mapOffset(Offset);
}

SourceLocation PassResult::userLocation(const StoredLoc &L, SourceManager &SM,
                                        FileManager &FM, bool AsWritten) const {
  auto Rewritten = Buffers.find(L.File);
  if (!AsWritten || !L.valid() || Rewritten == Buffers.end())
    return resolve(L, SM, FM, [&](StringRef File, unsigned Offset) {
      return mapOffset(File, Offset);
    });
  auto [Copy, New] = WrittenCopies.insert({L.File, FileID()});
  if (New)
    Copy->second = SM.createFileID(llvm::MemoryBuffer::getMemBufferCopy(
        Rewritten->second->original(), L.File));
  return SM.getLocForStartOfFile(Copy->second).getLocWithOffset(L.Offset);
}

} // namespace soaview
