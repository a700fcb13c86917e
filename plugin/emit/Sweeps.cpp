//===- Sweeps.cpp - a nest swept over all cells at once -------------------===//
#include "emit/Sweeps.h"

#include "emit/RuntimeNames.h"
#include "emit/Views.h"
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
/// The view group loop Loop of Nest belongs to.
const ViewGroup &groupOf(const NestPlan &Nest, size_t Loop) {
  for (const ViewGroup &G : Nest.Views)
    if (llvm::is_contained(G.Loops, Loop))
      return G;
  llvm_unreachable("every loop of a nest has a view group");
}
} // namespace

/// The structs of device pointers the kernel reads: the local view's
/// buffers, and in a nest the inner view's buffers and the index. Members
/// are left empty (the structs captured whole) unless Apart.
std::vector<KernelStruct> SweepEmitter::kernelStructs(const NestPlan &Nest,
                                                      const SweepForm &S,
                                                      bool Apart) const {
  const LoopPlan *Inner = innerOf(Nest);
  std::string Sweep = Emit.Names.prefix(S.Annotation->ForLoc);
  auto Buffers = [&](size_t Loop, const char *Method) {
    std::string Prefix = Emit.Names.prefix(Nest.Loops[Loop]);
    return KernelStruct{Prefix + "spec::soa",
                        "auto",
                        Prefix,
                        "buffers",
                        Sweep + "sweep." + Method + "()",
                        Apart ? soaPointers(Emit, groupOf(Nest, Loop), Loop)
                              : std::vector<std::string>()};
  };
  std::vector<KernelStruct> Structs{Buffers(0, "local_buffers")};
  if (!Inner)
    return Structs;
  Structs.push_back(Buffers(1, "inner_buffers"));
  std::vector<std::string> Index;
  if (Apart)
    Index.assign(std::begin(rt::SweepIndexPointers),
                 std::end(rt::SweepIndexPointers));
  Structs.push_back({rt::SweepIndex, rt::SweepIndex, Sweep, "index",
                     Sweep + "sweep.index()", Index});
  return Structs;
}

/// Declares a struct of Structs in the prologue and returns what the
/// kernel captures of it: the struct, or each of its pointers, named
/// apart (the struct then holds `device_` in its name).
static std::string declareKernelStruct(CodeWriter &W, const KernelStruct &K) {
  std::string Name = K.Prefix + K.Base;
  if (K.Members.empty()) {
    W.line(fill("const ${Type} ${Name} = ${Init};",
                {{"Type", K.HostType}, {"Name", Name}, {"Init", K.Init}}));
    return Name;
  }
  std::string Whole = K.Prefix + "device_" + K.Base, Captures;
  W.line(fill("const auto ${Whole} = ${Init};",
              {{"Whole", Whole}, {"Init", K.Init}}));
  for (size_t I = 0; I < K.Members.size(); ++I) {
    std::string Arg = Name + std::to_string(I);
    W.line(fill("auto *const ${Arg} = ${Whole}.${Member};",
                {{"Arg", Arg}, {"Whole", Whole}, {"Member", K.Members[I]}}));
    Captures += (Captures.empty() ? "" : ", ") + Arg;
  }
  return Captures;
}

/// First in the kernel's loop: each struct taken apart, rebuilt from its
/// pointers under the name the loop bodies use.
std::string
SweepEmitter::rebuiltStructs(const std::vector<KernelStruct> &Structs) const {
  CodeWriter W(2); // in the kernel's loop
  for (const KernelStruct &K : Structs) {
    if (K.Members.empty())
      continue;
    if (W.str().empty())
      W.line("// soaview: the structs again, from their pointers passed "
             "one by one");
    std::string Name = K.Prefix + K.Base, Sets;
    for (size_t I = 0; I < K.Members.size(); ++I)
      Sets += fill(
          " ${Name}.${Member} = ${Name}${I};",
          {{"Name", Name}, {"Member", K.Members[I]}, {"I", std::to_string(I)}});
    W.line(fill("${Type} ${Name};${Sets}",
                {{"Type", K.Type}, {"Name", Name}, {"Sets", Sets}}));
  }
  return W.take();
}

/// The cell loop as written, recording each cell's ranges.
std::string SweepEmitter::recording(const NestPlan &Nest,
                                    const SweepForm &S) const {
  const LoopPlan *Inner = innerOf(Nest);
  const SourceManager &SM = Emit.SM;
  std::string Sweep = Emit.Names.prefix(S.Annotation->ForLoc);
  // A cell loop without braces has the nest for its body: its header ends
  // before the nest's attributes.
  const SourceRange NestAttrs = Nest.Loops[0].Annotation->Written;
  SourceLocation BodyBegin = S.Body == S.NestStmt && NestAttrs.isValid()
                                 ? NestAttrs.getBegin()
                                 : S.Body->getBeginLoc();
  std::string Header = Emit.Source.text(CharSourceRange::getCharRange(
      SM.getFileLoc(S.Loop->getBeginLoc()), SM.getFileLoc(BodyBegin)));
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
std::string SweepEmitter::prologue(const NestPlan &Nest, const SweepForm &S,
                                   const std::vector<KernelStruct> &Structs,
                                   bool Bare) const {
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
  std::string Captures = declareKernelStruct(W, Structs[0]);
  if (Inner) {
    W.line(
        fill("using ${I}spec = ${Spec};", {{"I", Emit.Names.prefix(*Inner)},
                                           {"Spec", Loops.specType(*Inner)}}));
    for (size_t K = 1; K < Structs.size(); ++K)
      Captures += ", " + declareKernelStruct(W, Structs[K]);
  }
  // n: not for a kernel's lambda, which runs over the size
  if (OnHost || !Emit.Target.launches().bodyIsKernelLambda())
    W.line(fill("const std::size_t ${P}n = ${S}sweep.size();",
                {{"P", Prefix}, {"S", Sweep}}));
  if (!OnHost)
    Emit.Target.launches().sweepLaunchPrologue(W, Sweep, Prefix, Captures,
                                               Bare);
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

SweepKernelForm sweepKernelForm(const NestPlan &Nest,
                                const LoopLaunches &Launches) {
  SweepKernelForm Form;
  const LoopPlan &L = Nest.Loops[0];
  // Apart only where the kernel has an inner loop, which reads the
  // pointers again for every inner element (a kernel that reads each once
  // gains nothing, and held as arguments they can take more registers).
  // A sweep is never in a template (forms/SweepForm.cpp), so each spec's
  // fields are known here.
  Form.Apart = Nest.Sweep && innerOf(Nest) && !Nest.hostSweep() &&
               Launches.passesPointersApart();
  // Unless bare-kernels=off (Nest.BareKernels), such a kernel runs without
  // OpenMP's device runtime where its code uses nothing of OpenMP and does
  // not allocate on the device (soaview/omp_bare.h).
  if (!Form.Apart || !Nest.BareKernels || !Nest.heapRoutes().empty())
    return Form;
  Form.Bare = L.Reach.OpenMPUse.isInvalid();
  Form.WorksharingBecause = L.Reach.OpenMPUse;
  return Form;
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
  const SweepKernelForm Form = sweepKernelForm(Nest, Emit.Target.launches());
  const bool Apart = Form.Apart, Bare = Form.Bare;
  std::vector<KernelStruct> Structs = kernelStructs(Nest, S, Apart);
  // Structs rebuilt in the kernel's loop need it to have braces.
  const bool Braces = isa<CompoundStmt>(S.Body) || Apart;
  std::string Header =
      (Nest.hostSweep() ? hostSweepHeader(Prefix, Slot)
                        : Emit.Target.launches().sweepLaunchHeader(
                              Sweep, Prefix, Slot, Bare)) +
      (Braces ? " {" : "");
  SourceLocation LocalFor = L.Annotation->ForLoc;
  Buffer->replace(Emit.Source.offset(Emit.SM.getFileLoc(S.Loop->getBeginLoc())),
                  Emit.Source.offset(LocalFor),
                  prologue(Nest, S, Structs, Bare) + "  " + Header + "\n" +
                      rebuiltStructs(Structs));
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
                 std::string(Lambda ? ");" : "") +
                     (Braces && !isa<CompoundStmt>(S.Body) ? " }" : "") + " }");
  return true;
}

} // namespace soaview
