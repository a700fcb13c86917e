//===- Report.cpp - what the first pass tells about converted loops -----===//
#include "driver/Report.h"

#include "emit/Backend.h"
#include "emit/RuntimeNames.h"
#include "emit/Sweeps.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace soaview {

namespace {

/// What a nest's size gate asks (plan/Plan.h, SizeGate).
std::string gateRemark(const NestPlan &Nest) {
  std::string N = std::to_string(2 * rt::MinPairsPerElement);
  bool Pair = Nest.Loops.size() == 2 && Nest.Loops[1].WalksViewOf;
  return "; runs when its ranges give at least " +
         std::to_string(rt::MinPairsPerElement) +
         " pairs per element gathered, " +
         (Pair ? "a pair nest from " + N + " elements"
               : "a square nest from " + N + " x " + N) +
         " (" + rt::PaysOff +
         ", checked when the nest starts) and its first calls measured it "
         "faster (" +
         rt::Gate + "), as written otherwise";
}

/// An offloaded sweep: how its kernel runs, and why not bare where it is
/// not (emit/Sweeps.h, SweepKernelForm).
void remarkSweep(const NestPlan &Nest, const SweepForm &Sweep,
                 const Emitter &Em, DiagStore &Diags) {
  const SweepKernelForm Form = sweepKernelForm(Nest, Em.backend().launches());
  StoredDiag &D = Diags.report(Sweep.Annotation->ForLoc,
                               {diag::remark_sweep,
                                {Em.backend().runtime().OffloadedRemark +
                                 (Form.Bare ? ", a bare kernel" : "")}});
  if (Form.WorksharingBecause.isValid())
    Diags.note(D, Form.WorksharingBecause, diag::note_sweep_worksharing);
}

} // namespace

std::vector<ReportRow> reportRows(ASTContext &Ctx, const NestPlan &Nest,
                                  bool Converted) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<ReportRow> Rows;
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
    Row.GatePairs = Nest.Gate ? rt::MinPairsPerElement : 0;
    Rows.push_back(Row);
  }
  return Rows;
}

std::vector<ConvertedLoop>
convertedLoops(ASTContext &Ctx, const DiagStore &Diags, const NestPlan &Nest) {
  std::vector<ConvertedLoop> Loops;
  if (Nest.Sweep)
    Loops.push_back({Diags.locate(Nest.Sweep->Loop->getBeginLoc()),
                     Diags.locate(Nest.Sweep->Loop->getEndLoc()),
                     "sweep over cells"});
  for (const LoopPlan &P : Nest.Loops)
    Loops.push_back(
        {Diags.locate(P.Form.Loop->getBeginLoc()),
         Diags.locate(P.Form.Loop->getEndLoc()),
         "loop over '" + qualifiedName(Ctx, P.View.ElementType) + "'"});
  return Loops;
}

void remarkConverted(const SourceManager &SM, const NestPlan &Nest,
                     const Emitter &Em, DiagStore &Diags) {
  if (Nest.Sweep && Nest.hostSweep())
    Diags.report(Nest.Sweep->Annotation->ForLoc, diag::remark_sweep_on_host);
  else if (Nest.Sweep)
    remarkSweep(Nest, *Nest.Sweep, Em, Diags);
  for (const LoopPlan &P : Nest.Loops) {
    std::string Where;
    if (P.HoistLevels)
      Where +=
          "; built " + std::to_string(P.HoistLevels) + " loop level(s) out";
    if (P.WalksViewOf)
      Where += "; a pair loop: walks the view of the loop on line " +
               std::to_string(SM.getPresumedLineNumber(
                   Nest.Loops[*P.WalksViewOf].Annotation->ForLoc)) +
               ", gathered and scattered there";
    if (P.Offload)
      Where += Em.backend().runtime().OffloadedRemark;
    else if (Nest.hostSweep() && &P == &Nest.Loops[0])
      Where += "; swept on the host";
    else if (P.Annotation->has(AttrKind::Offload))
      Where += "; not offloaded: compile with an offload target (-fopenmp "
               "with --offload-arch or -fopenmp-targets) to offload, the "
               "loop runs on the host";
    for (const DispatchGuard &G : Nest.Guards)
      Where += "; runs when '" + G.Object->getName().str() +
               "' is exactly a '" + G.Class->getQualifiedNameAsString() +
               "' (checked when the nest starts), as written otherwise";
    if (Nest.Gate)
      Where += gateRemark(Nest);
    Diags.report(P.Annotation->ForLoc, Em.remark(P, Where));
  }
}

void appendRows(std::vector<ReportRow> &To, std::vector<ReportRow> Rows) {
  To.insert(To.end(), std::make_move_iterator(Rows.begin()),
            std::make_move_iterator(Rows.end()));
}

} // namespace soaview
