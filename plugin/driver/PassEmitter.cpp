//===- PassEmitter.cpp - the first pass's text edits ----------------------===//
#include "driver/PassEmitter.h"

#include "driver/Report.h"

#include "emit/Backend.h"
#include "frontend/Annotations.h"
#include "regions/Regions.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

PassEmitter::PassEmitter(const PassRequest &Request, DiagStore &Diags)
    : Request(Request), SM(Request.Ctx.getSourceManager()), Diags(Diags),
      Em(Request.Ctx, Diags, Request.Opts.Offload) {
  Em.breakViewAt(Request.Opts.BreakViewLine);
}

void PassEmitter::syncRegion(const LoopInstance &Loop) {
  Em.emitRegionSync(Loop.Loop, *Loop.Annotation);
}

std::optional<EmittedNest> PassEmitter::emit(const NestPlan &Nest) {
  if (!Em.emitNest(Nest))
    return std::nullopt;
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
  if (Request.Opts.BreakGeneratedCode)
    breakGeneratedCode(Nest);
  EmittedNest Out;
  Out.Loops = convertedLoops(Request.Ctx, Diags, Nest);
  Out.Rows = reportRows(Request.Ctx, Nest, true);
  if (Request.remarks())
    remarkConverted(SM, Nest, Em, Diags);
  return Out;
}

std::optional<PassEdits>
PassEmitter::finish(const std::vector<RegionPlan> &Regions) {
  for (auto &[At, Site] : GuardsAt)
    Em.emitDispatchGuard(Site);
  if (!Diags.hasErrors())
    for (const RegionPlan &Region : Regions)
      AnyRewrite |= Em.emitRegion(Region);
  if (AnyRewrite)
    Em.finish();
  bool Commented = Request.Opts.CommentLeftAttributes && !Diags.hasErrors() &&
                   commentLeftAttributes();
  for (auto &[Name, Buffer] : Em.buffers())
    if (Buffer->conflicts())
      Diags.report(SM.getLocForStartOfFile(SM.getMainFileID()),
                   {diag::err_internal_overlapping_edits, {Name}});
  if (Diags.hasErrors() || (!AnyRewrite && !Commented))
    return std::nullopt;
  // The runtime headers go first in the main file.
  FileID Main = SM.getMainFileID();
  EditBuffer *MainBuffer = Em.bufferFor(SM.getLocForStartOfFile(Main));
  if (AnyRewrite && MainBuffer)
    MainBuffer->insert(
        0, Em.backend().runtime().includes(AnyOffload, AnyHeap, AnyHostSweep));
  return PassEdits{std::move(Em.buffers()),
                   SM.getFileEntryRefForID(Main)->getName().str()};
}

/// The test hook (Options::BreakGeneratedCode): a call to an undeclared
/// function before each converted loop.
void PassEmitter::breakGeneratedCode(const NestPlan &Nest) {
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
bool PassEmitter::commentLeftAttributes() {
  bool Any = false;
  for (const auto &[Loc, Annotation] : Request.Annotations.Loops) {
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

} // namespace soaview
