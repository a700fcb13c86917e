//===- Driver.cpp - first pass: annotated loops to text edits -------------===//
//
// Runs after the first (syntax-only) parse. The pipeline, one named step
// each (docs/design.md):
//   find nests -> decide -> recognise -> plan -> analyse -> plan device
//   and placement -> check -> emit
// Any error cancels every rewrite of the translation unit: the real compile
// then parses the user's source unchanged and reports soaview's errors.
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"

#include "analysis/Analysis.h"
#include "checks/Checks.h"
#include "checks/CudaChecks.h"
#include "emit/Backend.h"
#include "emit/Emit.h"
#include "forms/LoopForms.h"
#include "forms/SweepForm.h"
#include "frontend/Annotations.h"
#include "frontend/LoopFinder.h"
#include "plan/Planner.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <set>

using namespace clang;

namespace soaview {

namespace {

class FirstPass {
public:
  FirstPass(ASTContext &Ctx, const AnnotationCollector &C, const Options &Opts,
            PassResult &R)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), C(C), Opts(Opts), R(R),
        Diags(*R.Diags),
        Em(Ctx, Diags, Opts.Offload),
        CanOffload(Ctx.getLangOpts().OpenMP || Opts.Offload == BackendKind::Cuda),
        Host(!Ctx.getLangOpts().OpenMPIsTargetDevice) {}

  void attributeProblems();
  void convert(const std::vector<LoopInstance> &N);
  void finish();

private:
  void convertNest(const std::vector<LoopInstance> &N,
                   std::optional<SweepPlan> Sweep);
  bool sweepable(const NestPlan &Nest);
  bool recognise(const std::vector<LoopInstance> &N, NestPlan &Nest,
                 DiagStore &D);
  bool check(NestPlan &Nest, DiagStore &D);
  void emit(NestPlan &Nest);
  void reportRows(const NestPlan &Nest, bool Converted);
  void recordConverted(const NestPlan &Nest);
  void remarkConverted(const NestPlan &Nest);

  ASTContext &Ctx;
  SourceManager &SM;
  const AnnotationCollector &C;
  const Options &Opts;
  PassResult &R;
  DiagStore &Diags;
  Emitter Em;
  /// Offloaded loops become OpenMP target regions when the compile has
  /// -fopenmp, CUDA kernels with the CUDA backend; otherwise they stay on
  /// the host.
  const bool CanOffload;
  /// With offloading the driver runs this plugin in the host and in the
  /// device compile: remarks and warnings come from the host compile only.
  const bool Host;
  bool AnyRewrite = false, AnyOffload = false, AnyHeap = false;
  std::set<unsigned> LoopsEmitted; // loop text is shared by instantiations
};

void FirstPass::attributeProblems() {
  for (const AttrProblem &P : C.Problems) {
    StoredDiag &D = Diags.report(P.Loc, P.Message);
    if (P.Note)
      Diags.note(D, P.Loc, *P.Note);
  }
}

/// One nest, or a sweep over cells whose body holds a nest.
void FirstPass::convert(const std::vector<LoopInstance> &N) {
  if (!looksLikeSweep(N))
    return convertNest(N, std::nullopt);
  std::vector<LoopInstance> Inner(N.begin() + 1, N.end());
  if (!CanOffload) {
    if (Opts.Remarks && Host)
      Diags.report(N[0].A->ForLoc,
                   {diag::remark_sweep_host,
                    {"compile with -fopenmp (or the CUDA backend) to offload"}});
    return convertNest(Inner, std::nullopt);
  }
  std::optional<SweepPlan> S = recogniseSweep(Ctx, N, Diags);
  if (!S)
    return;
  convertNest(Inner, std::move(S));
}

/// One nest: the profitability rule decides first; a loop it leaves as
/// written is still recognised and analysed, for the report, but what that
/// finds is not reported. A swept nest is offloaded as one.
void FirstPass::convertNest(const std::vector<LoopInstance> &N,
                            std::optional<SweepPlan> Sweep) {
  const bool Pays = Sweep || !Opts.Profitability ||
                    conversionPays(*N.front().A, N.size(), CanOffload);
  DiagStore Unreported(SM);
  DiagStore &D = Pays ? Diags : Unreported;
  if (!Pays && Opts.Remarks && Host)
    remarkUnconverted(Ctx, *N.front().A, Diags);
  NestPlan Nest;
  if (!recognise(N, Nest, D))
    return;
  planRoot(Ctx, Nest);
  if (!analyseNest(Ctx, D, Nest))
    return;
  Nest.Sweep = std::move(Sweep);
  if (Nest.Sweep && !sweepable(Nest))
    Nest.Sweep.reset();
  planDevice(Nest, CanOffload);
  planPlacement(Ctx, Nest);
  if (!check(Nest, D))
    return;
  if (!Pays)
    return reportRows(Nest, false);
  emit(Nest);
}

/// A swept nest whose inner loop writes (the active-local order) would
/// write each element from several cells at once: it stays on the host,
/// cell by cell, with a remark saying why.
bool FirstPass::sweepable(const NestPlan &Nest) {
  if (Nest.Loops.size() < 2)
    return true;
  for (auto &[Path, A] : Nest.Loops[1].View.orderedLeaves())
    if (A.Written) {
      if (Opts.Remarks && Host)
        Diags.report(Nest.Sweep->Annotation->ForLoc,
                     {diag::remark_sweep_host,
                      {"the inner loop writes field '" + dotted(Path) +
                       "' (each element would be written from several cells "
                       "at once)"}});
      return false;
    }
  return true;
}

/// Each loop's form and the checks that need only the form; a nest converts
/// whole or not at all.
bool FirstPass::recognise(const std::vector<LoopInstance> &N, NestPlan &Nest,
                          DiagStore &D) {
  for (const LoopInstance &I : N) {
    if (!checkHoistLevel(Ctx, *I.A, I.Loop, D) ||
        !checkNotOpenMPLoop(Ctx, *I.A, I.Loop, D))
      return false;
    std::optional<LoopForm> F = recogniseLoop(Ctx, I.Loop, I.Fn, *I.A, C, D);
    if (!F || !checkContainerUnchanged(*F, *I.A, D))
      return false;
    LoopPlan P = planLoop(Ctx, I, std::move(*F));
    if (P.HoistTo && !checkHoist(Ctx, P, D))
      return false;
    Nest.InTemplate = P.InTemplate;
    Nest.Loops.push_back(std::move(P));
  }
  return true;
}

/// The checks that need the analysis: offloading (and the CUDA backend's
/// rules, which also say which functions run on the device), then the
/// warning for loops that use no field.
bool FirstPass::check(NestPlan &Nest, DiagStore &D) {
  if (Nest.Sweep && !checkSweep(Ctx, Nest, D))
    return false;
  bool OK = true;
  for (const LoopPlan &P : Nest.Loops)
    if (P.Offload)
      OK &= checkOffload(Ctx, Nest, P, D);
  if (!OK)
    return false;
  if (Opts.DeviceHeap)
    for (LoopPlan &P : Nest.Loops)
      if (P.Offload && !planDeviceHeap(Ctx, Nest, P, D))
        return false;
  if (Opts.Offload == BackendKind::Cuda)
    for (const LoopPlan &P : Nest.Loops) {
      if (!P.Offload)
        continue;
      auto Device = checkCudaOffload(Ctx, Nest, P, D);
      if (!Device) {
        OK = false;
        continue;
      }
      Nest.DeviceFunctions.insert(Nest.DeviceFunctions.end(), Device->begin(),
                                  Device->end());
    }
  return OK && checkUsesFields(Ctx, Nest, D) && checkPlacement(Ctx, Nest, D);
}

void FirstPass::emit(NestPlan &Nest) {
  if (!Em.emitNest(Nest))
    return;
  if (Nest.Sweep)
    Em.emitSweep(Nest);
  else
    for (LoopPlan &P : Nest.Loops)
      if (LoopsEmitted.insert(P.Annotation->ForLoc.getRawEncoding()).second)
        Em.emitLoop(P);
  AnyRewrite = true;
  for (LoopPlan &P : Nest.Loops)
    AnyOffload |= P.Offload;
  AnyHeap |= !Nest.HeapRoutes.empty();
  recordConverted(Nest);
  reportRows(Nest, true);
  if (Opts.Remarks && Host)
    remarkConverted(Nest);
}

/// One row of the paper's Table 1 per loop (soaview-translate --report).
void FirstPass::reportRows(const NestPlan &Nest, bool Converted) {
  for (const LoopPlan &P : Nest.Loops) {
    ReportRow Row;
    PresumedLoc PL = SM.getPresumedLoc(P.Annotation->ForLoc);
    Row.Where = llvm::sys::path::filename(PL.getFilename()).str() + ":" +
                std::to_string(PL.getLine()) + ":" +
                std::to_string(PL.getColumn());
    Row.Element = qualifiedName(Ctx, P.View.ElementType);
    ViewSize S = viewSize(Ctx, P);
    Row.InFields = S.InFields;
    Row.OutFields = S.OutFields;
    Row.GatherBytes = S.GatherBytes;
    Row.ScatterBytes = S.ScatterBytes;
    Row.Hoist = P.HoistLevels;
    Row.Offload = P.Annotation->has(AttrKind::Offload);
    Row.Converted = Converted;
    R.Report.push_back(Row);
  }
}

/// Remembers where the nest's loops are, so that errors in their generated
/// code can be blamed on them (GeneratedCodeGuard); with the test hook,
/// breaks that code.
void FirstPass::recordConverted(const NestPlan &Nest) {
  if (Nest.Sweep)
    R.Converted.push_back({Diags.locate(Nest.Sweep->Loop->getBeginLoc()),
                           Diags.locate(Nest.Sweep->Loop->getEndLoc()),
                           "sweep over cells"});
  for (const LoopPlan &P : Nest.Loops) {
    SourceLocation Begin = P.Form.Loop->getBeginLoc();
    if (Opts.BreakGeneratedCode)
      if (EditBuffer *B = Em.bufferFor(Begin))
        B->insert(SM.getFileOffset(SM.getFileLoc(Begin)),
                  "soaview_broken_generated_code();");
    R.Converted.push_back(
        {Diags.locate(Begin), Diags.locate(P.Form.Loop->getEndLoc()),
         "loop over '" + qualifiedName(Ctx, P.View.ElementType) + "'"});
  }
}

void FirstPass::remarkConverted(const NestPlan &Nest) {
  if (Nest.Sweep)
    Diags.report(Nest.Sweep->Annotation->ForLoc,
                 {diag::remark_sweep, {Em.backend().offloadedRemark()}});
  for (const LoopPlan &P : Nest.Loops) {
    std::string Where;
    if (P.HoistLevels)
      Where += "; built " + std::to_string(P.HoistLevels) + " loop level(s) out";
    if (P.Offload)
      Where += Em.backend().offloadedRemark();
    else if (P.Annotation->has(AttrKind::Offload))
      Where += "; not offloaded: compile with -fopenmp to offload, the loop "
               "runs on the host";
    Diags.report(P.Annotation->ForLoc, Em.remark(P, Where));
  }
}

void FirstPass::finish() {
  for (auto &[Name, B] : Em.buffers())
    if (B->conflicts())
      Diags.report(SM.getLocForStartOfFile(SM.getMainFileID()),
                   {diag::err_internal_overlapping_edits, {Name}});
  if (Diags.hasErrors() || !AnyRewrite)
    return;
  // The runtime headers go first in the main file.
  FileID Main = SM.getMainFileID();
  if (EditBuffer *MB = Em.bufferFor(SM.getLocForStartOfFile(Main)))
    MB->insert(0, Em.backend().includes(AnyOffload, AnyHeap));
  R.Buffers = std::move(Em.buffers());
  R.MainFile = SM.getFileEntryRefForID(Main)->getName().str();
}

} // namespace

bool profitabilityFromEnvironment() {
  const char *E = std::getenv("SOAVIEW_CONVERT");
  return !(E && StringRef(E) == "always");
}

void runFirstPass(ASTContext &Ctx, const AnnotationCollector &C,
                  const Options &Opts, PassResult &R) {
  R.Diags = std::make_unique<DiagStore>(Ctx.getSourceManager());
  FirstPass FP(Ctx, C, Opts, R);
  FP.attributeProblems();
  for (const std::vector<LoopInstance> &Nest : findNests(Ctx, C))
    FP.convert(Nest);
  FP.finish();
}

unsigned PassResult::mapOffset(StringRef File, unsigned Offset) const {
  auto It = Buffers.find(File.str());
  if (It == Buffers.end())
    return Offset;
  return It->second->mapOffset(Offset);
}

} // namespace soaview
