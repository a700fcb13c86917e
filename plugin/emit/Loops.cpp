//===- Loops.cpp - the rewrite of one annotated loop ----------------------===//
#include "emit/Loops.h"

#include "emit/Keys.h"
#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace soaview {

namespace {

/// Edits at one offset are ordered by priority, lowest first (EditBuffer).
/// A view hoisted n levels out opens its block before those of views built
/// nearer the loop, at the same place, and closes it after theirs.
int opensAt(unsigned HoistLevels) { return -(int)HoistLevels; }
int closesAt(unsigned HoistLevels) { return (int)HoistLevels; }
/// The call of a lambda body starts after the loop's own prologue.
constexpr int AfterPrologue = 1;

constexpr llvm::StringLiteral Continue = "continue";

} // namespace

std::string LoopEmitter::specType(const LoopPlan &P) const {
  if (!P.InTemplate)
    return Emit.Names.qualifiedView(P) + "_spec";
  const LoopForm &F = P.Form;
  std::string Element =
      F.Kind != LoopFormKind::Index
          ? fill("${ElementOf}<decltype(${P}range)>",
                 {{"ElementOf", rt::ElementOf}, {"P", Emit.Names.prefix(P)}})
          : fill("${TargetElement}<decltype(${Target})>",
                 {{"TargetElement", rt::TargetElement},
                  {"Target", P.NondependentRange
                                 ? Emit.Names.prefix(P) + "target"
                                 : F.TargetName}});
  std::string Key =
      P.Keyed ? ", (" + instanceKeyPattern(P.Form.Function) + " *)nullptr" : "";
  return fill("decltype(${Selector}((${Element} *)nullptr${Key}))",
              {{"Selector", Emit.Names.selector(P)},
               {"Element", Element},
               {"Key", Key}});
}

void LoopEmitter::commentAttribute(const LoopAnnotation &Annotation,
                                   EditBuffer &Buffer) const {
  if (Annotation.Implicit)
    return; // annotate=all: nothing written
  CharSourceRange Written = CharSourceRange::getCharRange(
      Annotation.Written.getBegin(),
      Annotation.Written.getEnd().getLocWithOffset(1));
  std::string Text = Emit.Source.text(Written);
  for (size_t I; (I = Text.find("[[")) != std::string::npos;)
    Text.replace(I, 2, "/*");
  for (size_t I; (I = Text.find("]]")) != std::string::npos;)
    Text.replace(I, 2, "*/");
  Buffer.replace(Emit.Source.offset(Written.getBegin()),
                 Emit.Source.offset(Written.getEnd()), Text);
}

/// The prologue before `for`: the block's opening, the range or bounds, the
/// site and the frame (of type Frame) that gathers the view.
void LoopEmitter::prologue(CodeWriter &W, const LoopPlan &P,
                           const std::string &Frame) const {
  const LoopForm &F = P.Form;
  std::string Prefix = Emit.Names.prefix(P);
  std::string Where = Emit.Source.where(P.Annotation->ForLoc);
  if (P.HoistTo)
    W.line(
        fill("{ // soaview: hoisted ${N} level(s) out of the loop at ${Where}",
             {{"N", std::to_string(P.HoistLevels)}, {"Where", Where}}));
  else
    W.line("{ // soaview: " + Emit.remark(P).text() +
           (P.Offload ? Emit.Target.offloadedComment() : "") +
           (P.DeviceInner ? "; on the device in the offloaded loop" : ""));
  W.in();
  if (F.Kind == LoopFormKind::Index)
    return indexPrologue(W, P, Frame);
  rangePrologue(W, P);
  W.line(fill("static ${Site} ${P}site(\"${Where}\");",
              {{"Site", rt::Site}, {"P", Prefix}, {"Where", Where}}));
  W.line(fill("${Frame} ${P}frame(${P}site, ${P}range);",
              {{"Frame", Frame}, {"P", Prefix}}));
}

/// An iterator loop's begin as an expression: the initializer of `auto it
/// = c.begin()`, or the iterator's type with the parentheses or braces of
/// `Walker it{&list}` or `Walker it(&list)` as written (a constructor's
/// default arguments are its own).
std::string LoopEmitter::iteratorBegin(const LoopForm &F) const {
  const VarDecl *It = F.Iterator;
  if (It->getInitStyle() == VarDecl::CInit)
    return Emit.Source.exprText(F.Begin);
  std::string Type = Emit.Types.name(It->getType().getUnqualifiedType());
  const Expr *Init = F.Begin->IgnoreImplicit();
  if (isa<InitListExpr>(Init)) // an aggregate's braces
    return Type + Emit.Source.exprText(Init);
  const auto *CE = dyn_cast<CXXConstructExpr>(Init);
  if (!CE) // `Walker it(w.begin())`, the copy elided
    return Type + "(" + Emit.Source.exprText(F.Begin) + ")";
  SourceRange Written = CE->getParenOrBraceRange();
  if (Written.isInvalid()) // `Walker it;`
    return Type + "()";
  return Type + Emit.Source.text(CharSourceRange::getTokenRange(Written));
}

/// An iterator loop's end: as written, or for a condition that asks the
/// iterator, `::soaview::while_valid([](const auto &it) { return
/// it.isValid(); })`.
std::string LoopEmitter::iteratorEnd(const LoopForm &F) const {
  if (F.End)
    return Emit.Source.exprText(F.End);
  return fill("${WhileValid}([](const auto &${It}) { return ${Cond}; })",
              {{"WhileValid", rt::WhileValid},
               {"It", F.Iterator->getName().str()},
               {"Cond", Emit.Source.exprText(F.Valid)}});
}

/// The range a range or iterator loop's frame gathers from, `sv_range`:
/// the range as written, or an iterator loop's [begin, end).
void LoopEmitter::rangePrologue(CodeWriter &W, const LoopPlan &P) const {
  const LoopForm &F = P.Form;
  std::string Prefix = Emit.Names.prefix(P);
  std::string Range =
      F.Kind == LoopFormKind::Iterator
          ? fill("${Iterators}(${Begin}, ${End})",
                 {{"Iterators", rt::Iterators},
                  {"Begin", iteratorBegin(F)},
                  {"End", iteratorEnd(F)}})
          : Emit.Source.exprText(cast<CXXForRangeStmt>(F.Loop)->getRangeInit());
  // A loop over structured bindings gathers from the binding that stands
  // for the element, picked from the range as written (its "whole"); a
  // loop over reference wrappers from the objects they refer to.
  bool Picks = F.ElementBinding || F.Wrapped;
  std::string Held = Prefix + (Picks ? "whole" : "range");
  if (P.NondependentRange) {
    // Passed through a lambda of the template, the range's type depends
    // on it: the spec's selector is looked up when it instantiates.
    W.line(
        fill("auto &&${P}held = ${Range};", {{"P", Prefix}, {"Range", Range}}));
    W.line(fill("auto &${Held} = [](auto &r) -> auto & { return r; }"
                "(${P}held);",
                {{"Held", Held}, {"P", Prefix}}));
  } else {
    W.line(
        fill("auto &&${Held} = ${Range};", {{"Held", Held}, {"Range", Range}}));
  }
  if (F.ElementBinding)
    W.line(pickedRange(F, Prefix));
  else if (F.Wrapped)
    W.line(unwrappedRange(Prefix));
}

/// An index loop's first index, trip count (counted as its condition
/// compares: soaview::index_trips) and the span of the target it visits.
void LoopEmitter::indexPrologue(CodeWriter &W, const LoopPlan &P,
                                const std::string &Frame) const {
  const LoopForm &F = P.Form;
  std::string Prefix = Emit.Names.prefix(P);
  static const char *const Bounds[] = {"below", "up_to", "until"};
  // A target whose type the pattern knows: the spec's selector is looked
  // up when the template instantiates (as in rangePrologue).
  if (P.NondependentRange)
    W.line(fill("auto &${P}target = [](auto &r) -> auto & { return r; }"
                "(${Target});",
                {{"P", Prefix}, {"Target", F.TargetName}}));
  W.line(fill(
      "const ${Index} ${P}lo = ${Lo};",
      {{"Index", Emit.Types.name(F.IndexVar->getType().getUnqualifiedType())},
       {"P", Prefix},
       {"Lo", Emit.Source.exprText(F.Lo)}}));
  W.line(fill("static ${Site} ${P}site(\"${Where}\");",
              {{"Site", rt::Site},
               {"P", Prefix},
               {"Where", Emit.Source.where(P.Annotation->ForLoc)}}));
  W.line(fill(
      "const std::size_t ${P}trips = ${Trips}<${Bound}::${Kind}>(${P}site, "
      "${P}lo, ${Hi});",
      {{"P", Prefix},
       {"Trips", rt::IndexTrips},
       {"Bound", rt::Bound},
       {"Kind", Bounds[(int)F.Bound]},
       {"Hi", Emit.Source.exprText(F.Hi)}}));
  // A neighbour-list loop gathers target[list[first + k]] (as pointers:
  // an index listed twice shares its slot).
  std::string List =
      F.IndexList ? Emit.Source.exprText(F.IndexList) + ", " : "";
  W.line(fill("${Frame} ${P}frame(${P}site, ${SpanAt}(${Target}, ${List}"
              "${P}trips, ${First}));",
              {{"Frame", Frame},
               {"P", Prefix},
               {"SpanAt", F.IndexList ? rt::IndexListAt : rt::IndexSpanAt},
               {"Target", F.TargetName},
               {"List", List},
               {"First", firstSubscript(F, Prefix)}}));
}

/// The subscript of the first iteration's element: the target's subscript
/// (`i - first`) with the index replaced by its first value, evaluated only
/// when the loop runs (as the loop evaluates it).
std::string LoopEmitter::firstSubscript(const LoopForm &F,
                                        const std::string &Prefix) const {
  struct Find : RecursiveASTVisitor<Find> {
    const VarDecl *V;
    const DeclRefExpr *Found = nullptr;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->getDecl() == V && !Found)
        Found = E;
      return true;
    }
  } Index;
  Index.V = F.IndexVar;
  Index.TraverseStmt(const_cast<Expr *>(F.Subscript));
  if (!Index.Found || strip(F.Subscript) == Index.Found)
    return Prefix + "lo";
  SourceLocation At = Emit.SM.getFileLoc(Index.Found->getLocation());
  CharSourceRange Name = CharSourceRange::getCharRange(
      At, At.getLocWithOffset((int)F.IndexVar->getName().size()));
  CharSourceRange Whole = CharSourceRange::getCharRange(
      Emit.SM.getFileLoc(F.Subscript->getBeginLoc()),
      Lexer::getLocForEndOfToken(Emit.SM.getFileLoc(F.Subscript->getEndLoc()),
                                 0, Emit.SM, Emit.Lang));
  return fill(
      "${P}trips ? (${Text}) : 0",
      {{"P", Prefix},
       {"Text", Emit.Source.withEdits(Whole, {{Name, Prefix + "lo"}})}});
}

namespace {
/// The names of a binding loop's bindings in generated code: `sv_b<k>`, or
/// the user's own for all but the element's (KeepUsers).
std::string bindingNames(const LoopForm &F, const std::string &Prefix,
                         bool KeepUsers) {
  std::string Names;
  unsigned I = 0;
  for (const BindingDecl *B : cast<DecompositionDecl>(F.LoopVar)->bindings()) {
    Names += (I ? ", " : "") + (KeepUsers && B != F.ElementBinding
                                    ? B->getName().str()
                                    : Prefix + "b" + std::to_string(I));
    ++I;
  }
  return Names;
}
} // namespace

/// `auto sv_range = ::soaview::pick(sv_whole, [](auto &&sv_e) { auto
/// &&[sv_b0, sv_b1] = sv_e; return sv_b1; });`: the element binding of each
/// element of the range as written, as a pointer.
std::string LoopEmitter::pickedRange(const LoopForm &F,
                                     const std::string &Prefix) const {
  ArrayRef<BindingDecl *> Bs = cast<DecompositionDecl>(F.LoopVar)->bindings();
  // Picked as a pointer, by value: the element the range yields may be a
  // temporary (a zip's tuple) that ends before the frame reads it, and a
  // range of pointers is checked for repeats (two tuples holding a
  // reference to one particle share its slot).
  std::string Picked =
      Prefix + "b" +
      std::to_string(llvm::find(Bs, F.ElementBinding) - Bs.begin());
  std::string Names = bindingNames(F, Prefix, false);
  return fill(
      "auto ${P}range = ${Pick}(${P}whole, [](auto &&${P}e) { "
      "auto &&[${Names}] = ${P}e; return ${Picked}; });",
      {{"P", Prefix},
       {"Pick", rt::Pick},
       {"Names", Names},
       {"Picked",
        F.VarIsPointer ? Picked : "__builtin_addressof(" + Picked + ")"}});
}

/// `auto sv_range = ::soaview::pick(sv_whole, [](auto &&sv_e) { return
/// __builtin_addressof(sv_e.get()); });`: the objects a range of
/// `std::reference_wrapper`s refers to, as pointers (an object held twice
/// shares its slot, as in a range of pointers).
std::string LoopEmitter::unwrappedRange(const std::string &Prefix) const {
  return fill("auto ${P}range = ${Pick}(${P}whole, [](auto &&${P}e) { "
              "return __builtin_addressof(${P}e.get()); });",
              {{"P", Prefix}, {"Pick", rt::Pick}});
}

/// `[[maybe_unused]] const auto &[key, sv_b1] = *sv_at.it;`: the bindings
/// other than the element's, bound as written to the range's element.
std::string LoopEmitter::otherBindings(const LoopForm &F,
                                       const std::string &Prefix) const {
  return fill(" [[maybe_unused]] ${Spec}[${Names}] = *${P}at.it;",
              {{"Spec", F.BindingSpec},
               {"Names", bindingNames(F, Prefix, true)},
               {"P", Prefix}});
}

/// An iterator loop's `it` in the body: a pointer to the view, so that
/// `*it` and `it->` are the view (over pointers, a pointer to a pointer to
/// it: `(*it)->x`). The body uses `it` no other way (forms/IteratorForm.cpp).
std::string LoopEmitter::iteratorDecls(const LoopForm &F,
                                       const std::string &Prefix) const {
  std::string Const = F.VarIsConst ? "const " : "";
  std::string It = F.Iterator->getName().str();
  if (!F.VarIsPointer)
    return fill(" [[maybe_unused]] ${Const}auto *${It} = &${P}view;",
                {{"Const", Const}, {"It", It}, {"P", Prefix}});
  return fill(" ${Const}auto *${P}element = &${P}view; [[maybe_unused]] "
              "auto *${It} = &${P}element;",
              {{"Const", Const}, {"It", It}, {"P", Prefix}});
}

std::string LoopEmitter::elementDecls(const LoopPlan &P,
                                      const std::string &ViewInit) const {
  const LoopForm &F = P.Form;
  std::string Prefix = Emit.Names.prefix(P);
  std::string View =
      fill(" auto ${Ref}${P}view = ${Init};",
           {{"Ref", P.Packed ? "&" : ""}, {"P", Prefix}, {"Init", ViewInit}});
  if (F.Kind == LoopFormKind::Iterator)
    return View + iteratorDecls(F, Prefix);
  if (F.VarIsWrapper) // `r.get()` is the view
    return View +
           fill(" [[maybe_unused]] auto ${Var} = ::std::${Ref}(${P}view);",
                {{"Var", F.LoopVar->getName()},
                 {"Ref", F.VarIsConst ? "cref" : "ref"},
                 {"P", Prefix}});
  if (F.Kind == LoopFormKind::Range)
    return View + fill(" ${Const}${Declarator}${Var} = ${Address}${P}view;",
                       {{"Const", F.VarIsConst ? "const " : ""},
                        {"Declarator", F.VarIsPointer ? "auto *" : "auto &"},
                        {"Var", F.elementVar()->getName()},
                        {"Address", F.VarIsPointer ? "&" : ""},
                        {"P", Prefix}});
  std::string Alias = F.ShadowedUses.empty()
                          ? ""
                          : fill(" auto &${P}target = ${Target};",
                                 {{"P", Prefix}, {"Target", F.TargetName}});
  // The body keeps its text, `buf[i]`, and finds the view through an
  // object of the target's name: a shadow by design, so -Wshadow is off
  // for that declaration alone (clang and GCC know the pragma).
  // Uses that reach no element of the loop (`buf[k]`, `buf.size()`) name
  // the target through an alias declared before the shadow.
  std::string Original = F.OriginalUses.empty()
                             ? ""
                             : fill(" auto &${P}elements = ${Target};",
                                    {{"P", Prefix}, {"Target", F.TargetName}});
  return View + Original +
         fill(" _Pragma(\"GCC diagnostic push\") _Pragma(\"GCC diagnostic "
              "ignored \\\"-Wshadow\\\"\") ${Shadow}<decltype(${P}view)> "
              "${Target}{${P}view}; _Pragma(\"GCC diagnostic pop\")",
              {{"Shadow", rt::IndexShadow},
               {"P", Prefix},
               {"Target", F.TargetName}}) +
         Alias;
}

/// A loop on the device: host gather, device copies, the loop over the
/// device buffers (an OpenMP target region or a kernel's lambda); the device
/// frame copies the written fields back before the scatter. The inner loop
/// of an offloaded nest builds its device frame before the target region
/// and runs inside it.
LoopEmitter::LoopText LoopEmitter::deviceLoop(const NestPlan &Nest,
                                              const LoopPlan &P,
                                              const std::string &Spec) const {
  const LoopForm &F = P.Form;
  std::string Prefix = Emit.Names.prefix(P);
  CodeWriter W(1);
  std::string Scope = Heap.loopScope(P, Prefix);
  if (!Scope.empty()) // before the device frame: ends after it
    W.line(Scope);
  W.line(fill("using ${P}spec = ${Spec};", {{"P", Prefix}, {"Spec", Spec}}));
  W.line(fill(
      "${Namespace}${DeviceFrame}<${P}spec> ${P}device(${P}site, ${P}frame);",
      {{"Namespace", Emit.Target.deviceNamespace()},
       {"DeviceFrame", rt::DeviceFrame},
       {"P", Prefix}}));
  W.line(
      fill("const auto ${P}buffers = ${P}device.buffers();", {{"P", Prefix}}));
  W.line(fill("const std::size_t ${P}n = ${P}device.size();", {{"P", Prefix}}));
  LoopText T;
  std::string Slot = Prefix + (F.Kind == LoopFormKind::Range ? "i" : "k");
  T.Header = fill("(std::size_t ${K} = 0; ${K} < ${P}n; ++${K})",
                  {{"K", Slot}, {"P", Prefix}});
  if (P.Offload && Emit.Target.bodyIsKernelLambda()) {
    T.Header = Emit.Target.launchHeader(Prefix, Slot);
    T.LambdaBody = true;
  } else if (P.Offload) {
    std::string Captures = Prefix + "buffers";
    for (size_t Inner : P.DeviceInners)
      Captures += ", " + Emit.Names.prefix(Nest.Loops[Inner]) + "buffers";
    Emit.Target.launchPrologue(W, Prefix, Captures);
  }
  T.Prologue = W.take();
  std::string Index;
  if (F.Kind == LoopFormKind::Index) {
    std::string Type =
        Emit.Types.name(F.IndexVar->getType().getUnqualifiedType());
    Index = fill(" const ${T} ${I} = static_cast<${T}>(${P}lo + ${K});",
                 {{"T", Type},
                  {"I", F.IndexVar->getName()},
                  {"P", Prefix},
                  {"K", Slot}});
  }
  T.BodyDecls = Index + elementDecls(P, fill("${P}spec::at(${P}buffers, ${K})",
                                             {{"P", Prefix}, {"K", Slot}}));
  return T;
}

/// A loop on the host, over the frame's slots.
LoopEmitter::LoopText LoopEmitter::hostLoop(const LoopPlan &P,
                                            bool EachSlot) const {
  const LoopForm &F = P.Form;
  std::string Prefix = Emit.Names.prefix(P);
  LoopText T;
  if (EachSlot) {
    T.Header = fill("${P}slots.each([&](std::size_t ${P}slot) "
                    "__attribute__((always_inline))",
                    {{"P", Prefix}});
    T.BodyDecls =
        elementDecls(P, fill("${P}slots.at(${P}slot)", {{"P", Prefix}}));
    T.LambdaBody = true;
  } else if (F.ElementBinding) {
    T.Header = fill("(auto ${P}at = ${Cursor}(${P}range); ${P}at.i < "
                    "${P}frame.size(); ${P}at.next())",
                    {{"P", Prefix}, {"Cursor", rt::Cursor}});
    T.BodyDecls =
        elementDecls(P, fill("${P}frame.at(${P}at.i)", {{"P", Prefix}})) +
        otherBindings(F, Prefix);
  } else if (F.Kind != LoopFormKind::Index) {
    T.Header =
        fill("(std::size_t ${P}i = 0; ${P}i < ${P}frame.size(); ++${P}i)",
             {{"P", Prefix}});
    T.BodyDecls = elementDecls(P, fill("${P}frame.at(${P}i)", {{"P", Prefix}}));
  } else {
    T.BodyDecls = elementDecls(
        P, fill("${P}frame.at(static_cast<std::size_t>(${I} - ${P}lo))",
                {{"P", Prefix}, {"I", F.IndexVar->getName()}}));
  }
  return T;
}

/// A symmetric pair loop: no frame of its own; it walks the frame of the
/// loop around it (OuterLoop), an index loop by its index (`ps[j]` is slot
/// `j - lo`), an iterator loop from that loop's slot plus PairStart
/// (forms/PairForm.cpp).
LoopEmitter::LoopText LoopEmitter::pairLoop(const NestPlan &Nest,
                                            const LoopPlan &P,
                                            const LoopPlan &OuterLoop) const {
  const LoopForm &F = P.Form;
  std::string Prefix = Emit.Names.prefix(P);
  std::string Outer = Emit.Names.prefix(OuterLoop);
  LoopText T;
  if (F.Kind == LoopFormKind::Index) {
    T.BodyDecls = elementDecls(
        P, fill("${O}frame.at(static_cast<std::size_t>(${J} - ${O}lo))",
                {{"O", Outer}, {"J", F.IndexVar->getName()}}));
    return T;
  }
  T.Header =
      fill("(std::size_t ${P}i = ${O}i + ${C}; ${P}i < "
           "${O}frame.size(); ++${P}i)",
           {{"P", Prefix}, {"O", Outer}, {"C", std::to_string(P.PairStart)}});
  T.BodyDecls = elementDecls(
      P, fill("${O}frame.at(${P}i)", {{"O", Outer}, {"P", Prefix}}));
  return T;
}

LoopEmitter::LoopText LoopEmitter::loopText(const NestPlan &Nest,
                                            const LoopPlan &P) const {
  const LoopForm &F = P.Form;
  if (P.WalksViewOf)
    return pairLoop(Nest, P, Nest.Loops[*P.WalksViewOf]);
  std::string Spec = specType(P);
  bool Scatter = !(F.Kind == LoopFormKind::Range && F.VarIsCopy);
  std::string Args = Spec + (Scatter ? "" : ", false");
  // Offloaded views gather into pinned host memory (fast device copies).
  std::string Frame =
      Emit.onDevice(P)
          ? Emit.Target.deviceNamespace() + rt::HostFrame + "<" + Args + ">"
      : P.Packed ? std::string(rt::PackedFrame) + "<" + Spec + ">"
                 : std::string(rt::Frame) + "<" + Args + ">";
  // A host loop over pointers that writes its elements picks each
  // element's slot through the frame's repeat map (remap), an indirection
  // that keeps the compiler from vectorising the loop. Its body becomes a
  // lambda that each() of the frame's slots calls with the slot: directly
  // indexed when the range holds no element twice. The slots are a local
  // copy, so that a hoisted loop's overlap checks leave the loops around. Not
  // for a loop around a loop with a run-time trip count (the outer loop of a
  // nest): the compiler would not vectorise it, and each() would only compile
  // its body twice.
  const bool EachSlot =
      !Emit.onDevice(P) && F.Kind == LoopFormKind::Range && !F.ElementBinding &&
      (F.VarIsPointer || F.Wrapped) && Scatter && P.View.writes() &&
      !hasRuntimeLoop(F.Body, Emit.Ast) && bodyFitsLambda(F.Body);
  LoopText T =
      Emit.onDevice(P) ? deviceLoop(Nest, P, Spec) : hostLoop(P, EachSlot);
  CodeWriter W;
  prologue(W, P, Frame);
  if (EachSlot) // a value: kept in registers through the loops around
    W.line(fill("const auto ${P}slots = ${P}frame.slots();",
                {{"P", Emit.Names.prefix(P)}}));
  if (P.RepeatsRunAsWritten) // hostLoop adds no prologue of its own here
    repeatsFallback(W, P, Nest.InRegion);
  T.Prologue = W.take() + T.Prologue;
  return T;
}

/// The outer loop of a pair nest over pointers, when its frame finds an
/// object the range holds twice (two live views of it would disagree,
/// forms/PairForm.cpp): the frame writes nothing back, and the nest runs as
/// written (in a view region, after the region's views are written back),
/// before the converted loop's `for`:
///
///   if (sv12_3_frame.has_repeats()) { sv12_3_frame.discard(); // ...
///   #line 12 "user.cpp"
///     <the nest as written, its soaview attributes commented out>
///   } else
void LoopEmitter::repeatsFallback(CodeWriter &W, const LoopPlan &P,
                                  bool InRegion) const {
  SourceLocation For = Emit.SM.getFileLoc(P.Annotation->ForLoc);
  CharSourceRange Nest =
      CharSourceRange::getCharRange(For, Emit.Source.afterStmt(P.Form.Loop));
  std::string Prefix = Emit.Names.prefix(P);
  W.line(fill("if (${P}frame.has_repeats()) { ${P}frame.discard(); // "
              "soaview: an object the range holds twice: the nest as written",
              {{"P", Prefix}}));
  if (InRegion) // as the dispatch guard's copy (emit/Dispatch.cpp)
    W.line(std::string(rt::RegionSync) +
           "(); // soaview: a view region's views, written back");
  W.raw(Emit.Source.lineDirective(For) + Emit.Source.plainCopy(Nest) + "\n");
  W.line("} else");
}

/// The header replaces `(...)`, or with a lambda body `for (...)` (the call
/// starts after the prologue); the prologue goes before the loop, or before
/// the loop a hoisted view is built before. A hoisted view lives until that
/// loop ends; its block opens before (and closes after) the blocks of the
/// loops in between.
void LoopEmitter::placeHeader(const LoopPlan &P, const LoopText &T,
                              EditBuffer &Buffer) const {
  const LoopForm &F = P.Form;
  SourceLocation For = P.Annotation->ForLoc;
  if (!T.Header.empty()) {
    unsigned RParenEnd = Emit.Source.offset(SourceText::rparen(F)) + 1;
    if (T.LambdaBody)
      Buffer.replace(Emit.Source.offset(For), RParenEnd, T.Header,
                     AfterPrologue);
    else
      Buffer.replace(Emit.Source.offset(Emit.Source.lparen(For)), RParenEnd,
                     T.Header);
  }
  SourceLocation PrologueAt =
      P.HoistTo ? Emit.SM.getFileLoc(P.HoistTo->getBeginLoc()) : For;
  if (!T.Prologue.empty()) // a pair loop has none
    Buffer.insert(Emit.Source.offset(PrologueAt), T.Prologue,
                  opensAt(P.HoistLevels));
  std::string Prefix = Emit.Names.prefix(P);
  auto Rename = [&](const DeclRefExpr *U, StringRef To) {
    unsigned Begin = Emit.Source.offset(Emit.SM.getFileLoc(U->getLocation()));
    Buffer.replace(Begin, Begin + (unsigned)F.TargetName.size(),
                   (Prefix + To).str());
  };
  for (const DeclRefExpr *U : F.ShadowedUses)
    Rename(U, "target");
  for (const LoopForm::OriginalUse &U : F.OriginalUses)
    Rename(U.Name, "elements");
}

/// The view's declarations at the top of the body, and the blocks' (and a
/// lambda's call's) ends after it.
void LoopEmitter::placeBody(const LoopPlan &P, const LoopText &T,
                            EditBuffer &Buffer) const {
  const Stmt *Body = P.Form.Body;
  std::string Close = P.HoistTo || P.WalksViewOf ? "" : " }";
  if (T.LambdaBody) // the lambda and the call end after the body
    Close = ");" + Close;
  openBody(P.Form, T.BodyDecls, Buffer);
  if (!Close.empty())
    Buffer.insert(Emit.Source.offset(Emit.Source.afterStmt(Body)), Close);
  if (T.LambdaBody)
    continueEdits(P, Buffer);
  if (P.HoistTo)
    Buffer.insert(Emit.Source.offset(Emit.Source.afterStmt(P.HoistTo)), " }",
                  closesAt(P.HoistLevels));
}

/// The view's declarations open the body on the line of the loop's header:
/// the body's first statement keeps a line of its own (a `#line` puts it
/// back at its place when it shared the header's line).
void LoopEmitter::openBody(const LoopForm &F, const std::string &Decls,
                           EditBuffer &Buffer) const {
  const Stmt *Body = F.Body;
  auto Line = [&](SourceLocation L) {
    return Emit.SM.getPresumedLineNumber(Emit.SM.getFileLoc(L));
  };
  if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
    SourceLocation Next =
        CS->body_empty() ? CS->getRBracLoc() : CS->body_front()->getBeginLoc();
    bool OwnLine = Line(Next) != Line(CS->getLBracLoc());
    Buffer.insert(Emit.Source.offset(CS->getLBracLoc()) + 1,
                  Decls + (OwnLine ? "" : "\n"));
    return;
  }
  SourceLocation RParen = SourceText::rparen(F);
  SourceLocation Begin = Emit.SM.getFileLoc(Body->getBeginLoc());
  if (Line(Begin) != Line(RParen))
    Buffer.insert(Emit.Source.offset(RParen) + 1, " {" + Decls);
  else
    Buffer.insert(Emit.Source.offset(Begin), "{" + Decls + "\n");
  Buffer.insert(Emit.Source.offset(Emit.Source.afterStmt(Body)), " }");
}

void LoopEmitter::bodyEdits(const LoopPlan &P, EditBuffer &Buffer) const {
  const SourceManager &SM = Emit.SM;
  const Stmt *Body = P.Form.Body;
  SourceLocation BodyEnd = Emit.Source.afterStmt(Body);
  TextEdits Edits;
  Emit.identityEdits(
      CharSourceRange::getCharRange(Body->getBeginLoc(), BodyEnd), P.Identities,
      Edits);
  for (auto &[R, Text] : Edits) {
    Buffer.insert(SM.getFileOffset(R.getBegin()),
                  std::string(rt::Identity) + "(");
    Buffer.insert(SM.getFileOffset(R.getEnd()), ")");
  }
  TextEdits Unqualified;
  Emit.unqualifyEdits(
      CharSourceRange::getCharRange(Body->getBeginLoc(), BodyEnd), P.Qualified,
      Unqualified);
  for (auto &[R, Text] : Unqualified)
    Buffer.replace(SM.getFileOffset(R.getBegin()), SM.getFileOffset(R.getEnd()),
                   "");
  // `T &e = r` of a reference wrapper `r`: `auto &e = r.get()`.
  for (const Expr *R : P.Form.WrapperConversions)
    Buffer.insert(SM.getFileOffset(Lexer::getLocForEndOfToken(
                      SM.getFileLoc(R->getEndLoc()), 0, SM, Emit.Lang)),
                  ".get()");
  for (const VarDecl *V : P.View.Aliases) {
    if (!SM.isBeforeInTranslationUnit(Body->getBeginLoc(), V->getLocation()) ||
        !SM.isBeforeInTranslationUnit(V->getLocation(), BodyEnd))
      continue;
    if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
      CharSourceRange Type =
          recordTypeRange(TSI->getTypeLoc(), P.View.Element, SM, Emit.Lang);
      if (Type.isValid())
        Buffer.replace(SM.getFileOffset(Type.getBegin()),
                       SM.getFileOffset(Type.getEnd()), "auto");
    }
  }
}

void LoopEmitter::continueEdits(const LoopPlan &P, EditBuffer &Buffer) const {
  for (const ContinueStmt *C : findLoopJumps(P.Form.Body).Continues) {
    unsigned Begin = Emit.Source.offset(Emit.SM.getFileLoc(C->getBeginLoc()));
    Buffer.replace(Begin, Begin + Continue.size(), "return");
  }
}

bool LoopEmitter::emit(const NestPlan &Nest, const LoopPlan &P) {
  EditBuffer *Buffer = Emit.Files.bufferFor(P.Annotation->ForLoc);
  if (!Buffer)
    return false;
  commentAttribute(*P.Annotation, *Buffer);
  LoopText T = loopText(Nest, P);
  placeHeader(P, T, *Buffer);
  placeBody(P, T, *Buffer);
  bodyEdits(P, *Buffer);
  return true;
}

} // namespace soaview
