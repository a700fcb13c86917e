//===- LoopPrologue.cpp - what opens before an annotated loop -------------===//
#include "emit/LoopPrologue.h"

#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace soaview {

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

namespace {

/// `auto sv_range = ::soaview::pick(sv_whole, [](auto &&sv_e) { auto
/// &&[sv_b0, sv_b1] = sv_e; return sv_b1; });`: the element binding of each
/// element of the range as written, as a pointer.
std::string pickedRange(const LoopForm &F, const std::string &Prefix) {
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
std::string unwrappedRange(const std::string &Prefix) {
  return fill("auto ${P}range = ${Pick}(${P}whole, [](auto &&${P}e) { "
              "return __builtin_addressof(${P}e.get()); });",
              {{"P", Prefix}, {"Pick", rt::Pick}});
}

} // namespace

/// The prologue before `for`: the block's opening, the range or bounds, the
/// site and the frame (of type Frame) that gathers the view.
void LoopPrologue::prologue(CodeWriter &W, const LoopPlan &P,
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
           (P.Offload ? Emit.Target.runtime().OffloadedComment : "") +
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
std::string LoopPrologue::iteratorBegin(const LoopForm &F) const {
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
std::string LoopPrologue::iteratorEnd(const LoopForm &F) const {
  if (F.End)
    return Emit.Source.exprText(F.End);
  return fill("${WhileValid}([](const auto &${It}) { return ${Cond}; })",
              {{"WhileValid", rt::WhileValid},
               {"It", F.Iterator->getName().str()},
               {"Cond", Emit.Source.exprText(F.Valid)}});
}

/// The range a range or iterator loop's frame gathers from, `sv_range`:
/// the range as written, or an iterator loop's [begin, end).
void LoopPrologue::rangePrologue(CodeWriter &W, const LoopPlan &P) const {
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
void LoopPrologue::indexPrologue(CodeWriter &W, const LoopPlan &P,
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
std::string LoopPrologue::firstSubscript(const LoopForm &F,
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
void LoopPrologue::repeatsFallback(CodeWriter &W, const LoopPlan &P,
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

} // namespace soaview
