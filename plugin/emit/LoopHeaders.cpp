//===- LoopHeaders.cpp - the header and body declarations of a loop -------===//
#include "emit/LoopHeaders.h"

#include "emit/LoopPrologue.h"
#include "emit/RuntimeNames.h"

using namespace clang;

namespace soaview {

namespace {

/// `[[maybe_unused]] const auto &[key, sv_b1] = *sv_at.it;`: the bindings
/// other than the element's, bound as written to the range's element.
std::string otherBindings(const LoopForm &F, const std::string &Prefix) {
  return fill(" [[maybe_unused]] ${Spec}[${Names}] = *${P}at.it;",
              {{"Spec", F.BindingSpec},
               {"Names", bindingNames(F, Prefix, true)},
               {"P", Prefix}});
}

/// An iterator loop's `it` in the body: a pointer to the view, so that
/// `*it` and `it->` are the view (over pointers, a pointer to a pointer to
/// it: `(*it)->x`). The body uses `it` no other way (forms/IteratorForm.cpp).
std::string iteratorDecls(const LoopForm &F, const std::string &Prefix) {
  std::string Const = F.VarIsConst ? "const " : "";
  std::string It = F.Iterator->getName().str();
  if (!F.VarIsPointer)
    return fill(" [[maybe_unused]] ${Const}auto *${It} = &${P}view;",
                {{"Const", Const}, {"It", It}, {"P", Prefix}});
  return fill(" ${Const}auto *${P}element = &${P}view; [[maybe_unused]] "
              "auto *${It} = &${P}element;",
              {{"Const", Const}, {"It", It}, {"P", Prefix}});
}

} // namespace

std::string LoopHeaders::elementDecls(const LoopPlan &P,
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
LoopText LoopHeaders::deviceLoop(const NestPlan &Nest, const LoopPlan &P,
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
      {{"Namespace", Emit.Target.runtime().DeviceNamespace},
       {"DeviceFrame", rt::DeviceFrame},
       {"P", Prefix}}));
  W.line(
      fill("const auto ${P}buffers = ${P}device.buffers();", {{"P", Prefix}}));
  W.line(fill("const std::size_t ${P}n = ${P}device.size();", {{"P", Prefix}}));
  LoopText T;
  std::string Slot = Prefix + (F.Kind == LoopFormKind::Range ? "i" : "k");
  T.Header = fill("(std::size_t ${K} = 0; ${K} < ${P}n; ++${K})",
                  {{"K", Slot}, {"P", Prefix}});
  if (P.Offload && Emit.Target.launches().bodyIsKernelLambda()) {
    T.Header = Emit.Target.launches().launchHeader(Prefix, Slot);
    T.LambdaBody = true;
  } else if (P.Offload) {
    std::string Captures = Prefix + "buffers";
    for (size_t Inner : P.DeviceInners)
      Captures += ", " + Emit.Names.prefix(Nest.Loops[Inner]) + "buffers";
    Emit.Target.launches().launchPrologue(W, Prefix, Captures);
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
LoopText LoopHeaders::hostLoop(const LoopPlan &P, bool EachSlot) const {
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
LoopText LoopHeaders::pairLoop(const NestPlan &Nest, const LoopPlan &P,
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

} // namespace soaview
