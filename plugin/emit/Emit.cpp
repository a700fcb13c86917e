//===- Emit.cpp - generate the view code for planned nests ----------------===//
//
// Generated names depend only on the loop's line and column (and file, for
// loops outside the main file), the element type and the identifiers of the
// translation unit, never on addresses or parse order, so host and device
// compiles (and repeated compiles) agree. None is reserved.
//
// Layout of what is inserted before the declaration that holds the loop (or,
// for templates, the point of instantiation), in the element's namespace,
// inside `inline namespace soaview_gen { inline namespace {`:
//   struct <E>_<line>_<col>;             the view, forward declared
//   struct <E>_<line>_<col> { ... };      the view: values + methods, one
//                                         constructor per loop sharing it
//   struct <E>_<line>_<col>_spec { ... }; per loop: buffers, gather, scatter
// Clones of the functions the loops pass elements to go beside those
// functions (emit/Clones.cpp), once the last nest is emitted.
// Tests: test/Rewrite/*.
//===----------------------------------------------------------------------===//
#include "emit/Emit.h"

#include "emit/Backend.h"
#include "emit/Chunks.h"
#include "emit/Clones.h"
#include "emit/EmitContext.h"
#include "emit/HeapRoutes.h"
#include "emit/Loops.h"
#include "emit/RegionScope.h"
#include "emit/Sweeps.h"
#include "emit/Tables.h"
#include "emit/Views.h"
#include "frontend/Annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace soaview {

Emitter::Emitter(ASTContext &Ctx, DiagStore &Diags, BackendKind Kind)
    : Target(makeBackend(Kind, Ctx.getLangOpts().OpenMP)),
      Context(std::make_unique<EmitContext>(Ctx, Diags, *Target)),
      Heap(std::make_unique<HeapRouter>(*Context)),
      Views(std::make_unique<ViewEmitter>(*Context)),
      Clones(std::make_unique<CloneEmitter>(*Context)),
      Loops(std::make_unique<LoopEmitter>(*Context, *Heap)),
      Sweeps(std::make_unique<SweepEmitter>(*Context, *Loops, *Heap)),
      Tables(std::make_unique<TableEmitter>(*Context)) {}

Emitter::~Emitter() = default;

bool Emitter::emitNest(const NestPlan &Nest) {
  SourceManager &SM = Context->SM;
  if (!Heap->routeInPlace(Nest))
    return false;
  SourceLocation AtLoc = Nest.Insert.Loc;
  Chunks Forward, Main;
  Views->emit(Nest, Forward, Main);
  if (!Clones->collect(Nest))
    return false;
  if (Target->declarations().marksDeviceFunctions() &&
      !Clones->markDeviceFunctions(Nest))
    return false;
  if (!Tables->emit(Nest))
    return false;
  Chunks All;
  All.append(Forward);
  All.append(Main);
  EditBuffer *Buffer = Context->Files.bufferFor(AtLoc);
  if (!Buffer)
    return false;
  Buffer->insert(SM.getFileOffset(AtLoc),
                 All.render(openers(Nest.Insert.Scope)) + "\n");
  return true;
}

bool Emitter::finish() { return Clones->finish(); }

bool Emitter::emitDispatchGuard(const DispatchSite &Site) {
  return soaview::emitDispatchGuard(*Context, Site);
}

bool Emitter::emitLoop(const NestPlan &Nest, const LoopPlan &Plan) {
  return Loops->emit(Nest, Plan);
}

bool Emitter::emitSweep(const NestPlan &Nest) { return Sweeps->emit(Nest); }

bool Emitter::emitRegion(const RegionPlan &Region) {
  return soaview::emitRegion(*Context, Region);
}

bool Emitter::emitRegionSync(const Stmt *Loop,
                             const LoopAnnotation &Annotation) {
  if (!RegionSyncs.insert(Annotation.ForLoc.getRawEncoding()).second)
    return true; // once for every instantiation
  return soaview::emitRegionSync(*Context, Loop, Annotation);
}

bool Emitter::commentAttribute(const LoopAnnotation &Annotation,
                               EditBuffer &Buffer) {
  if (Buffer.edited(Context->Source.offset(Annotation.Written.getBegin()),
                    Context->Source.offset(Annotation.Written.getEnd()) + 1))
    return false;
  Loops->commentAttribute(Annotation, Buffer);
  return true;
}

std::map<std::string, std::unique_ptr<EditBuffer>> &Emitter::buffers() {
  return Context->Files.buffers();
}

Msg Emitter::remark(const LoopPlan &Plan, const std::string &Where) const {
  return Context->remark(Plan, Where);
}

EditBuffer *Emitter::bufferFor(SourceLocation L) {
  return Context->Files.bufferFor(L);
}

void Emitter::breakViewAt(unsigned Line) { Context->BreakViewLine = Line; }

} // namespace soaview
