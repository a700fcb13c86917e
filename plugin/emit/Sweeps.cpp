//===- Sweeps.cpp - a nest swept over all cells at once -------------------===//
#include "emit/Sweeps.h"

#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace soaview {

namespace {
const LoopPlan *innerOf(const NestPlan &Nest) {
  return Nest.Loops.size() > 1 ? &Nest.Loops[1] : nullptr;
}
std::string rangeText(const EmitContext &Emit, const LoopPlan &L) {
  return Emit.Source.exprText(
      cast<CXXForRangeStmt>(L.Form.Loop)->getRangeInit());
}
} // namespace

/// The cell loop as written, recording each cell's ranges.
std::string SweepEmitter::recording(const NestPlan &Nest,
                                    const SweepForm &S) const {
  const LoopPlan *Inner = innerOf(Nest);
  const SourceManager &SM = Emit.SM;
  std::string Sweep = Emit.Names.prefix(S.Annotation->ForLoc);
  std::string Header = Emit.Source.text(
      CharSourceRange::getCharRange(SM.getFileLoc(S.Loop->getBeginLoc()),
                                    SM.getFileLoc(S.Body->getBeginLoc())));
  std::string Decls;
  for (const DeclStmt *DS : S.Decls)
    Decls += " " + Emit.Source.text(CharSourceRange::getTokenRange(
                       SM.getFileLoc(DS->getBeginLoc()),
                       Emit.Source.fileEnd(DS->getEndLoc())));
  std::string Local = rangeText(Emit, Nest.Loops[0]);
  std::string Record =
      Inner ? fill(" auto &&${I}range = ${Range}; ${S}sweep.cell("
                   "std::forward<decltype(${I}range)>(${I}range), ${Local});",
                   {{"I", Emit.Names.prefix(*Inner)},
                    {"Range", rangeText(Emit, *Inner)},
                    {"S", Sweep},
                    {"Local", Local}})
            : fill(" ${S}sweep.cell(${Local});",
                   {{"S", Sweep}, {"Local", Local}});
  return fill("${Kept}${Header}{${Decls}${Record} }",
              {{"Kept", keptTest(Nest, Sweep)},
               {"Header", Header},
               {"Decls", Decls},
               {"Record", Record}});
}

/// Before a loop over the cells that reads only lists (plan/KeptCells.h):
/// the runtime's word that this run would record what the last one did.
std::string SweepEmitter::keptTest(const NestPlan &Nest,
                                   const std::string &Sweep) const {
  if (Nest.KeptCellLists.empty())
    return "";
  std::string Lists;
  for (const VarDecl *V : Nest.KeptCellLists)
    Lists += (Lists.empty() ? "" : ", ") +
             fill("__builtin_addressof(${V})", {{"V", V->getNameAsString()}});
  return fill("if (!${S}sweep.cells_kept({${Lists}})) ",
              {{"S", Sweep}, {"Lists", Lists}});
}

/// Everything before the kernel's loop.
std::string SweepEmitter::prologue(const NestPlan &Nest,
                                   const SweepForm &S) const {
  const LoopPlan &L = Nest.Loops[0];
  const LoopPlan *Inner = innerOf(Nest);
  std::string Sweep = Emit.Names.prefix(S.Annotation->ForLoc);
  std::string Prefix = Emit.Names.prefix(L);
  std::string Where = Emit.Source.where(S.Annotation->ForLoc);
  const bool OnHost = Nest.hostSweep();
  CodeWriter W;
  W.line("{ // soaview: sweep over the cells of the loop at " + Where +
         (OnHost ? ": on the host, one loop over all cells (view region)"
                 : ": one gather, one transfer, one launch" +
                       Emit.Target.runtime().OffloadedComment));
  W.in();
  W.line(fill("static ${Site} ${S}site(\"${Where}\");",
              {{"Site", rt::Site}, {"S", Sweep}, {"Where", Where}}));
  std::string Scope = Heap.loopScope(L, Sweep);
  if (!Scope.empty()) // before the sweep: ends after it
    W.line(Scope);
  W.line(fill(
      "${Sweep}<${Local}, ${Inner}${NoScatter}> ${S}sweep(${S}site);",
      {{"Sweep", OnHost ? std::string(rt::HostSweep)
                        : Emit.Target.runtime().DeviceNamespace + rt::Sweep},
       {"Local", Loops.specType(L)},
       {"Inner", Inner ? Loops.specType(*Inner) : "void"},
       {"NoScatter", L.Form.VarIsCopy ? ", false" : ""},
       {"S", Sweep}}));
  W.line(recording(Nest, S));
  W.line(Sweep + "sweep.start();");
  W.line(fill("using ${P}spec = ${Spec};",
              {{"P", Prefix}, {"Spec", Loops.specType(L)}}));
  W.line(fill("const auto ${P}buffers = ${S}sweep.local_buffers();",
              {{"P", Prefix}, {"S", Sweep}}));
  std::string Captures = Prefix + "buffers";
  if (Inner) {
    std::string InnerPrefix = Emit.Names.prefix(*Inner);
    W.line(fill("using ${I}spec = ${Spec};",
                {{"I", InnerPrefix}, {"Spec", Loops.specType(*Inner)}}));
    W.line(fill("const auto ${I}buffers = ${S}sweep.inner_buffers();",
                {{"I", InnerPrefix}, {"S", Sweep}}));
    W.line(fill("const ${Index} ${S}index = ${S}sweep.index();",
                {{"Index", rt::SweepIndex}, {"S", Sweep}}));
    Captures += ", " + InnerPrefix + "buffers, " + Sweep + "index";
  }
  // n: not for a kernel's lambda, which runs over the size
  if (OnHost || !Emit.Target.launches().bodyIsKernelLambda())
    W.line(fill("const std::size_t ${P}n = ${S}sweep.size();",
                {{"P", Prefix}, {"S", Sweep}}));
  if (!OnHost)
    Emit.Target.launches().sweepLaunchPrologue(W, Sweep, Prefix, Captures);
  else if (std::string D = Emit.Target.launches().hostSweepDirective(Captures);
           !D.empty())
    W.directive(D);
  return W.take();
}

/// The inner loop walks the runs of the cell's inner slots: on the host,
/// where no `break` of the loop needs one loop, as a loop over the runs around
/// a loop over each run's slots (which the compiler can vectorise, as the
/// unswept nest's inner loop); otherwise through one cursor.
void SweepEmitter::innerLoop(const NestPlan &Nest, const SweepForm &S,
                             EditBuffer &Buffer) const {
  const LoopPlan &Inner = Nest.Loops[1];
  std::string Sweep = Emit.Names.prefix(S.Annotation->ForLoc);
  std::string InnerPrefix = Emit.Names.prefix(Inner);
  Loops.commentAttribute(*Inner.Annotation, Buffer);
  const auto *RF = cast<CXXForRangeStmt>(Inner.Form.Loop);
  const bool Runs =
      Nest.hostSweep() && findLoopJumps(Inner.Form.Body).Exits.empty();
  Buffer.replace(
      Emit.Source.offset(Emit.Source.lparen(Inner.Annotation->ForLoc)),
      Emit.Source.offset(RF->getRParenLoc()) + 1,
      Runs
          ? fill("(std::size_t ${I}r = ${S}index.run_off[${S}cell], ${I}rend "
                 "= ${S}index.run_off[${S}cell + 1]; ${I}r < ${I}rend; "
                 "++${I}r) for (std::size_t ${I}k = ${S}index.run_start[${I}r]"
                 ", ${I}kend = ${I}k + ${S}index.run_len[${I}r]; ${I}k < "
                 "${I}kend; ++${I}k)",
                 {{"I", InnerPrefix}, {"S", Sweep}})
          : fill(
                "(${Cursor} ${I}k(${S}index, ${S}cell); ${I}k.more(); "
                "${I}k.next())",
                {{"Cursor", rt::RunCursor}, {"I", InnerPrefix}, {"S", Sweep}}));
  Loops.openBody(
      Inner.Form,
      Loops.elementDecls(Inner,
                         fill(Runs ? "${I}spec::at(${I}buffers, ${I}k)"
                                   : "${I}spec::at(${I}buffers, ${I}k.index())",
                              {{"I", InnerPrefix}})),
      Buffer);
  Loops.bodyEdits(Inner, Buffer);
}

bool SweepEmitter::emit(const NestPlan &Nest) {
  if (!Nest.Sweep)
    return false;
  const SweepForm &S = *Nest.Sweep;
  const LoopPlan &L = Nest.Loops[0];
  const LoopPlan *Inner = innerOf(Nest);
  EditBuffer *Buffer = Emit.Files.bufferFor(S.Annotation->ForLoc);
  if (!Buffer)
    return false;
  std::string Sweep = Emit.Names.prefix(S.Annotation->ForLoc);
  std::string Prefix = Emit.Names.prefix(L);
  Loops.commentAttribute(*S.Annotation, *Buffer);
  // The cell loop up to the local loop's ')' becomes the kernel's header;
  // the cell loop's '{' stays open as the kernel loop's (or lambda's). Two
  // edits, so that the local loop's `for` keeps its line and column (its
  // remark and diagnostics point there).
  std::string Slot = Prefix + "i";
  const bool Lambda =
      !Nest.hostSweep() && Emit.Target.launches().bodyIsKernelLambda();
  std::string Header =
      (Nest.hostSweep()
           ? hostSweepHeader(Prefix, Slot)
           : Emit.Target.launches().sweepLaunchHeader(Sweep, Prefix, Slot)) +
      (isa<CompoundStmt>(S.Body) ? " {" : "");
  SourceLocation LocalFor = L.Annotation->ForLoc;
  Buffer->replace(Emit.Source.offset(Emit.SM.getFileLoc(S.Loop->getBeginLoc())),
                  Emit.Source.offset(LocalFor),
                  prologue(Nest, S) + "  " + Header + "\n");
  Buffer->replace(Emit.Source.offset(LocalFor),
                  Emit.Source.offset(SourceText::rparen(L.Form)) + 1, "");
  std::string Cell =
      Inner ? fill(" const std::size_t ${S}cell = ${S}index.cell_of[${K}];",
                   {{"S", Sweep}, {"K", Slot}})
            : "";
  Loops.openBody(
      L.Form,
      Cell + Loops.elementDecls(L, fill("${P}spec::at(${P}buffers, ${K})",
                                        {{"P", Prefix}, {"K", Slot}})),
      *Buffer);
  if (Lambda)
    Loops.continueEdits(L, *Buffer);
  Loops.bodyEdits(L, *Buffer);
  if (Inner)
    innerLoop(Nest, S, *Buffer);
  Buffer->insert(Emit.Source.offset(Emit.Source.afterStmt(S.Loop)),
                 std::string(Lambda ? ");" : "") + " }");
  return true;
}

} // namespace soaview
