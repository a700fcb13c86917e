//===- Views.cpp - the views of a nest ------------------------------------===//
//
// The entry point: each view group of a nest, in the element's namespace,
// written with the pieces of emit/ViewParts.h: the proxy (Proxy.cpp), what
// it copies of the element's class (ViewMembers.cpp), each loop's buffers
// (spec, Specs.cpp).
//===----------------------------------------------------------------------===//
#include "emit/Views.h"

#include "emit/Keys.h"
#include "emit/ViewParts.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"
#include "support/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>

using namespace clang;

namespace soaview {

namespace {

/// Views live in the element's namespace, in `soaview_gen` and in the
/// views' own namespace inside it (DeviceDeclarations::viewsNamespace()). The
/// three shapes of text put there, braces printed here:
///   forward     `inline namespace soaview_gen { namespace { struct V; } }`
///   declared    the views' namespace holds one declaration, soaview_gen
///               the InGen text after it
///   defined     the views' namespace holds InViews from the next line on
struct GenNamespaces {
  const Backend &Target;

  std::string open() const {
    return GeneratedNames::openGen() + Target.declarations().viewsNamespace();
  }
  std::string closeGen() const {
    return "} // namespace " + std::string(GeneratedNames::GenNamespace) + "\n";
  }
  std::string forward(const std::string &Struct) const {
    return open() + " struct " + Struct + "; } }\n";
  }
  std::string declared(const std::string &Struct,
                       const std::string &InGen) const {
    return open() + " struct " + Struct + "; }\n" + InGen + closeGen();
  }
  std::string defined(const std::string &InViews,
                      const std::string &InGen) const {
    return open() + "\n" + InViews + "} // namespace\n" + InGen + closeGen();
  }
};

} // namespace

//--- Both, in the element's namespace -----------------------------------------

void ViewEmitter::emit(const NestPlan &Nest, Chunks &Forward, Chunks &Main) {
  for (const ViewGroup &G : Nest.Views)
    emitGroup(Nest, G, Forward, Main);
  keyedSelectors(Nest, Main);
}

/// A loop picking its spec by its template's arguments too
/// (RecognisedLoop::Keyed) gets a selector overload per instantiation, the
/// spec declared beside it: instantiations sharing a view find it emitted
/// with another's nest, perhaps further down.
void ViewEmitter::keyedSelectors(const NestPlan &Nest, Chunks &Main) {
  for (const LoopPlan &P : Nest.Loops) {
    if (!P.Keyed)
      continue;
    std::string Spec = Emit.Names.view(P) + "_spec";
    std::string Select =
        fill("[[maybe_unused]] ${Spec} ${Selector}(${Element} *, ${Key} *);\n",
             {{"Spec", Spec},
              {"Selector", Emit.Names.selector(P)},
              {"Element", Emit.Types.name(P.View.ElementType)},
              {"Key", instanceKeyType(Emit.Types, P.Form.Function)}});
    if (!DoneSelectors.insert(Select).second)
      continue;
    Main.add(namespaceOf(P.View.Element),
             GenNamespaces{Emit.Target}.declared(Spec, Select));
  }
}

/// The test hook Options::BreakViewLine: a line that does not compile in
/// the view of the loop on that line.
void ViewEmitter::breakForTest(CodeWriter &Body, const NestPlan &Nest,
                               const ViewGroup &G) const {
  for (size_t Loop : G.Loops)
    if (Emit.BreakViewLine &&
        Emit.SM.getPresumedLineNumber(Nest.Loops[Loop].Annotation->ForLoc) ==
            Emit.BreakViewLine)
      Body.line("soaview_broken_view_code;");
}

/// Templates find their loop's spec through these declarations, by
/// argument-dependent lookup on the element type: they live in the inline
/// `soaview_gen`, outside the unnamed namespace.
std::string ViewEmitter::selectors(const NestPlan &Nest,
                                   const ViewGroup &G) const {
  std::string Select;
  for (size_t Loop : G.Loops) {
    const LoopPlan &P = Nest.Loops[Loop];
    if (P.InTemplate && !P.Keyed)
      Select +=
          fill("[[maybe_unused]] ${Spec}_spec ${Selector}(${Element} *);\n",
               {{"Spec", Emit.Names.view(P)},
                {"Selector", Emit.Names.selector(P)},
                {"Element", Emit.Types.name(P.View.ElementType)}});
  }
  return Select;
}

void ViewEmitter::emitGroup(const NestPlan &Nest, const ViewGroup &G,
                            Chunks &Forward, Chunks &Main) {
  if (!DoneViews.insert(viewName(Emit, G)).second)
    return;
  const LoopPlan &First = Nest.Loops[G.Loops.front()];
  const DeclContext *ElementNS = namespaceOf(G.Union.Element);
  // Views live in the element's namespace, in `soaview_gen` and in an
  // unnamed namespace inside it: each translation unit has its own, so a
  // file compiled twice into one program (say strict and fast-math builds)
  // does not define the same view twice. Both are inline, so that
  // argument-dependent lookup on a view also searches the element's
  // namespace (where the user's functions taking the element are).
  // nvcc cannot reopen an inline unnamed namespace (its own generated code
  // opens the unnamed namespace first, not inline): with the CUDA backend
  // the unnamed namespace is plain.
  const GenNamespaces In{Emit.Target};
  Forward.add(ElementNS, In.forward(viewName(Emit, G)));

  // The pieces writing this group, sharing the private fields it exposes.
  ExposedFields Fields;
  const FieldAccess Access(Emit, Fields);
  const CopiedMembers Copied(Emit, Access);
  const SpecEmitter SpecWriter(Emit, Access);
  const ProxyEmitter Proxy(Emit, Access, Copied);
  CodeWriter Specs;
  std::string Where;
  for (size_t Loop : G.Loops) {
    SpecWriter.spec(Specs, Nest, G, Loop);
    Where += (Where.empty() ? "" : ", ") +
             Emit.Source.where(Nest.Loops[Loop].Annotation->ForLoc);
  }
  CodeWriter Body;
  Body.line(
      fill("// soaview: view of '${Element}' for the ${Loops} at ${Where}",
           {{"Element",
             First.View.ElementType.getAsString(PrintingPolicy(Emit.Lang))},
            {"Loops", G.Loops.size() > 1 ? "loops" : "loop"},
            {"Where", Where}}));
  breakForTest(Body, Nest, G);
  SpecWriter.unionMirrors(Body, G);
  Proxy.proxy(Body, Nest, G, Proxy.proxyTree(G), viewName(Emit, G), ";");
  std::string Tags;
  if (!Fields.empty())
    Tags = fill("template <auto M, class Tag> struct ${View}_expose { friend "
                "constexpr auto ${Member}(Tag) noexcept { return M; } };\n",
                {{"View", viewName(Emit, G)},
                 {"Member", Emit.Names.memberFunction()}}) +
           Fields.declarations();
  // The proxy and the specs' at() run where the loops run.
  Main.add(ElementNS,
           In.defined(
               Tags + Emit.Target.declarations().declareTargetBegin(G.Device) +
                   Body.take() + Specs.take() +
                   Emit.Target.declarations().declareTargetEnd(G.Device),
               selectors(Nest, G)));
}

} // namespace soaview
