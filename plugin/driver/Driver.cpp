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
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"

#include "driver/EveryLoop.h"
#include "driver/Instances.h"
#include "driver/NestPipeline.h"
#include "driver/Report.h"

#include "checks/Checks.h"
#include "emit/Backend.h"
#include "emit/Emit.h"
#include "forms/SweepForm.h"
#include "frontend/Annotations.h"
#include "frontend/LoopFinder.h"
#include "plan/InstanceKey.h"
#include "plan/Planner.h"
#include "regions/Regions.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <set>

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

class FirstPass {
public:
  FirstPass(ASTContext &Ctx, const AnnotationCollector &Annotations,
            const Options &Opts, PassResult &Result)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Annotations(Annotations),
        Opts(Opts), Result(Result), Diags(*Result.Diags),
        Em(Ctx, Diags, Opts.Offload),
        Planning{canOffload(Ctx.getLangOpts(), Opts), Opts.Offload,
                 Opts.DeviceHeap, Opts.profitability()},
        Host(!Ctx.getLangOpts().OpenMPIsTargetDevice),
        Pipeline(Ctx, Annotations, Planning, Opts.Remarks && Host, Diags),
        Instances(Ctx) {
    Em.breakViewAt(Opts.BreakViewLine);
  }

  void attributeProblems();
  /// Generated code is C++17 (std::void_t, if constexpr, inline
  /// variables): an earlier standard gets one error, at the first annotated
  /// loop, and nothing is rewritten.
  void refuseStandard(const LoopInstance &First);
  /// View regions: what they reach (those loops always convert) and what
  /// they refuse; emitted by finish().
  void regions();
  /// Before anything is emitted: the loops whose instantiations with the
  /// same element types use different fields.
  void surveyInstances(const std::vector<std::vector<LoopInstance>> &Nests);
  void convert(const std::vector<LoopInstance> &N);
  void convertSweepOnHost(const std::vector<LoopInstance> &N);
  /// annotate=all: every nest that can convert converts; the others keep
  /// their code, with a remark (driver/EveryLoop).
  void convertEveryLoop(const std::vector<std::vector<LoopInstance>> &Nests) {
    auto Plan = [&](const std::vector<LoopInstance> &N, DiagStore &D) {
      return planChecked(N, std::nullopt, D);
    };
    for (const NestPlan &Nest :
         EveryLoop(SM, Diags, Host, Plan, Instances).convertible(Nests))
      emit(Nest);
  }
  /// The CUDA backend converted no offloaded loop (and nothing was
  /// refused): a warning at the top of the file, since the .cu it writes
  /// would otherwise pass for a GPU build.
  void warnNothingOffloaded();
  void finish();

private:
  void convertNest(const std::vector<LoopInstance> &N,
                   std::optional<SweepForm> Sweep);
  /// N through the stages (NestPipeline), in a view region or not.
  std::optional<NestPlan> planChecked(const std::vector<LoopInstance> &N,
                                      std::optional<SweepForm> Sweep,
                                      DiagStore &D) const {
    bool RegionSweep =
        Sweep && RegionLoops.count(Sweep->Annotation->ForLoc.getRawEncoding());
    return Pipeline.plan(N, std::move(Sweep), inRegion(N), RegionSweep, D);
  }
  void emit(const NestPlan &Nest);
  void breakGeneratedCode(const NestPlan &Nest);
  bool commentLeftAttributes();

  ASTContext &Ctx;
  SourceManager &SM;
  const AnnotationCollector &Annotations;
  const Options &Opts;
  PassResult &Result;
  DiagStore &Diags;
  Emitter Em;
  /// Offloaded loops become OpenMP target regions when the compile has
  /// -fopenmp, CUDA kernels with the CUDA backend; otherwise they stay on
  /// the host.
  const PlanOptions Planning;
  /// With offloading the driver runs this plugin in the host and in the
  /// device compile: remarks and warnings come from the host compile only.
  const bool Host;
  const NestPipeline Pipeline;
  bool AnyRewrite = false, AnyOffload = false, AnyHeap = false,
       AnyHostSweep = false;
  std::set<unsigned> LoopsEmitted; // loop text is shared by instantiations
  TemplateInstances Instances;
  /// By the outer loop's location: the dispatch checks of its nests (of
  /// every instantiation: one rewrite of a template's loop serves them all),
  /// emitted at the end.
  std::map<unsigned, DispatchSite> GuardsAt;
  std::vector<RegionPlan> Regions;
  /// The `for` locations of the annotated loops regions reach.
  std::set<unsigned> RegionLoops;
  /// A region reaches the nest: its sweeps may hold views there.
  bool inRegion(const std::vector<LoopInstance> &N) const {
    return llvm::any_of(N, [&](const LoopInstance &I) {
      return RegionLoops.count(I.Annotation->ForLoc.getRawEncoding());
    });
  }
};

void FirstPass::regions() {
  Regions = analyseRegions(Ctx, Annotations, Diags);
  for (const RegionPlan &Region : Regions) {
    RegionLoops.insert(Region.Loops.begin(), Region.Loops.end());
    if (!Opts.Remarks || !Host)
      continue;
    StoredDiag &D = Diags.report(
        Region.Annotation->Loc,
        {diag::remark_region,
         {std::to_string(Region.Loops.size()),
          llvm::join(Region.Elements.begin(), Region.Elements.end(), ", ")}});
    if (Region.ListsMayChange.isValid())
      Diags.note(D, Region.ListsMayChange,
                 {diag::note_region_lists_checked, {Region.ListsWhy}});
  }
}

void FirstPass::attributeProblems() {
  for (const AttrProblem &P : Annotations.Problems) {
    StoredDiag &D = Diags.report(P.Loc, P.Message);
    if (P.Note)
      Diags.note(D, P.Loc, *P.Note);
  }
}

void FirstPass::refuseStandard(const LoopInstance &First) {
  const LangOptions &LO = Ctx.getLangOpts();
  const char *Standard = LO.CPlusPlus14   ? "C++14"
                         : LO.CPlusPlus11 ? "C++11"
                         : LO.CPlusPlus   ? "C++98"
                                          : "C";
  StoredDiag &D = Diags.report(First.Annotation->ForLoc,
                               {diag::err_needs_cxx17, {Standard}});
  Diags.note(D, First.Annotation->ForLoc, diag::note_needs_cxx17);
}

/// One nest, or a sweep over cells whose body holds a nest.
void FirstPass::convert(const std::vector<LoopInstance> &N) {
  if (!looksLikeSweep(N))
    return convertNest(N, std::nullopt);
  if (!Planning.CanOffload)
    return convertSweepOnHost(N);
  std::optional<SweepForm> S = recogniseSweep(Ctx, N, Diags);
  if (!S)
    return;
  convertNest(std::vector<LoopInstance>(N.begin() + 1, N.end()), std::move(S));
}

/// A sweep in a compile that cannot offload. In a view region it is swept
/// on the host when it can be (one parallel loop over all cells; its views
/// stay in host memory for the region); otherwise, and outside regions,
/// its nest converts for the host, cell by cell, with a remark saying why.
void FirstPass::convertSweepOnHost(const std::vector<LoopInstance> &N) {
  std::vector<LoopInstance> Inner(N.begin() + 1, N.end());
  std::string Why = "compile with an offload target (-fopenmp with "
                    "--offload-arch or -fopenmp-targets, or the CUDA "
                    "backend) to offload";
  if (inRegion(N)) {
    DiagStore Trial(SM);
    std::optional<NestPlan> Nest;
    if (std::optional<SweepForm> S = recogniseSweep(Ctx, N, Trial))
      Nest = planChecked(Inner, std::move(S), Trial);
    if (Nest && Nest->Sweep) {
      if (Instances.place(*Nest, Diags))
        emit(*Nest);
      return;
    }
    if (Nest) // decideSweep said why
      return convertNest(Inner, std::nullopt);
    if (const StoredDiag *R = Trial.firstReason()) {
      StringRef Reason(R->Message);
      Reason.consume_front("soaview: ");
      Why = "it cannot run swept on the host: " + Reason.str();
    }
  }
  if (Opts.Remarks && Host)
    Diags.report(N[0].Annotation->ForLoc, {diag::remark_sweep_host, {Why}});
  convertNest(Inner, std::nullopt);
}

/// One nest: the profitability rule decides first; a loop it leaves as
/// written is still recognised, analysed and checked, for the report, but
/// what that finds is not reported. A swept nest is offloaded as one.
void FirstPass::convertNest(const std::vector<LoopInstance> &N,
                            std::optional<SweepForm> Sweep) {
  const bool Pays =
      Sweep || !Opts.profitability() ||
      conversionPays(*N.front().Annotation, N.size(), Planning.CanOffload);
  if (!Pays && inRegion(N))
    Em.emitRegionSync(N.front().Loop, *N.front().Annotation);
  DiagStore Unreported(SM);
  DiagStore &D = Pays ? Diags : Unreported;
  std::optional<NestPlan> Nest = planChecked(N, std::move(Sweep), D);
  if (!Pays && Host && Unreported.hasErrors())
    warnNeverConverts(*N.front().Annotation, Unreported, Diags);
  else if (!Pays && Opts.Remarks && Host)
    remarkUnconverted(Ctx, *N.front().Annotation, Diags);
  if (!Nest)
    return;
  if (!Pays)
    return appendRows(Result.Report, reportRows(Ctx, *Nest, false));
  if (Instances.place(*Nest, Diags))
    emit(*Nest);
}

void FirstPass::emit(const NestPlan &Nest) {
  if (!Em.emitNest(Nest))
    return;
  if (!Nest.Guards.empty() || Nest.Gate)
    addDispatchSite(
        Nest, GuardsAt[Nest.Loops[0].Annotation->ForLoc.getRawEncoding()]);
  if (Nest.Sweep)
    Em.emitSweep(Nest);
  else
    for (const LoopPlan &P : Nest.Loops)
      if (LoopsEmitted.insert(P.Annotation->ForLoc.getRawEncoding()).second)
        Em.emitLoop(Nest, P);
  AnyRewrite = true;
  AnyOffload |= Nest.offloads();
  AnyHostSweep |= Nest.hostSweep();
  AnyHeap |= !Nest.heapRoutes().empty();
  if (Opts.BreakGeneratedCode)
    breakGeneratedCode(Nest);
  for (ConvertedLoop &L : convertedLoops(Ctx, Diags, Nest))
    Result.Converted.push_back(std::move(L));
  appendRows(Result.Report, reportRows(Ctx, Nest, true));
  if (Opts.Remarks && Host)
    remarkConverted(SM, Nest, Em, Diags);
}

void FirstPass::surveyInstances(
    const std::vector<std::vector<LoopInstance>> &Nests) {
  std::vector<NestPlan> Plans;
  for (const std::vector<LoopInstance> &N : Nests) {
    const FunctionDecl *Fn = N.front().Fn;
    if (looksLikeSweep(N) || (!Fn->getTemplateInstantiationPattern() &&
                              !Fn->isTemplateInstantiation()))
      continue; // sweeps keep the refusal
    DiagStore Trial(SM);
    if (std::optional<NestPlan> Nest = planChecked(N, std::nullopt, Trial))
      Plans.push_back(std::move(*Nest));
  }
  Instances.survey(Plans);
}

/// The test hook (Options::BreakGeneratedCode): a call to an undeclared
/// function before each converted loop.
void FirstPass::breakGeneratedCode(const NestPlan &Nest) {
  for (const LoopPlan &P : Nest.Loops) {
    SourceLocation Begin = P.Form.Loop->getBeginLoc();
    if (EditBuffer *Buffer = Em.bufferFor(Begin))
      Buffer->insert(SM.getFileOffset(SM.getFileLoc(Begin)),
                     "soaview_broken_generated_code();");
  }
}

/// Options::CommentLeftAttributes: the attributes of the loops left as
/// written become comments, in the main file and in the files rewritten
/// anyway (a header soaview-translate would otherwise have to write). True
/// when one was.
bool FirstPass::commentLeftAttributes() {
  bool Any = false;
  for (const auto &[Loc, Annotation] : Annotations.Loops) {
    if (Annotation.Implicit || Annotation.Written.isInvalid() ||
        LoopsEmitted.count(Annotation.ForLoc.getRawEncoding()))
      continue;
    SourceLocation At = SM.getFileLoc(Annotation.Written.getBegin());
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(At));
    bool Rewritten = FE && Em.buffers().count(FE->getName().str());
    if (!SM.isWrittenInMainFile(At) && !Rewritten)
      continue;
    if (EditBuffer *Buffer = Em.bufferFor(At))
      Any |= Em.commentAttribute(Annotation, *Buffer);
  }
  return Any;
}

void FirstPass::warnNothingOffloaded() {
  if (Planning.Backend != BackendKind::Cuda || AnyOffload || !Host ||
      Diags.hasErrors())
    return;
  SourceLocation Top = SM.getLocForStartOfFile(SM.getMainFileID());
  StoredDiag &D = Diags.report(Top, diag::warn_cuda_nothing_offloaded);
  Diags.note(D, Top, diag::note_cuda_nothing_offloaded);
}

void FirstPass::finish() {
  for (auto &[At, Site] : GuardsAt)
    Em.emitDispatchGuard(Site);
  if (!Diags.hasErrors())
    for (const RegionPlan &Region : Regions)
      AnyRewrite |= Em.emitRegion(Region);
  if (AnyRewrite)
    Em.finish();
  bool Commented = Opts.CommentLeftAttributes && !Diags.hasErrors() &&
                   commentLeftAttributes();
  for (auto &[Name, Buffer] : Em.buffers())
    if (Buffer->conflicts())
      Diags.report(SM.getLocForStartOfFile(SM.getMainFileID()),
                   {diag::err_internal_overlapping_edits, {Name}});
  if (Diags.hasErrors() || (!AnyRewrite && !Commented))
    return;
  // The runtime headers go first in the main file.
  FileID Main = SM.getMainFileID();
  EditBuffer *MainBuffer = Em.bufferFor(SM.getLocForStartOfFile(Main));
  if (AnyRewrite && MainBuffer)
    MainBuffer->insert(
        0, Em.backend().includes(AnyOffload, AnyHeap, AnyHostSweep));
  Result.Buffers = std::move(Em.buffers());
  Result.MainFile = SM.getFileEntryRefForID(Main)->getName().str();
}

} // namespace

void runFirstPass(ASTContext &Ctx, const AnnotationCollector &Annotations,
                  const Options &Opts, PassResult &Result) {
  Result.Diags = std::make_unique<DiagStore>(Ctx.getSourceManager());
  FirstPass Pass(Ctx, Annotations, Opts, Result);
  if (Opts.Convert == ConvertMode::Never)
    return Pass.finish(); // soaview is off: the source as written, attributes
                          // accepted (soaview-translate: as comments)
  Pass.attributeProblems();
  std::vector<std::vector<LoopInstance>> Nests = findNests(Ctx, Annotations);
  if (!Nests.empty() && !Ctx.getLangOpts().CPlusPlus17)
    return Pass.refuseStandard(Nests.front().front());
  Pass.regions();
  Pass.surveyInstances(Nests);
  if (Opts.AnnotateAll)
    Pass.convertEveryLoop(Nests);
  else
    for (const std::vector<LoopInstance> &Nest : Nests)
      Pass.convert(Nest);
  Pass.warnNothingOffloaded();
  Pass.finish();
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
