//===- Dispatch.cpp - the nest as written, for other dynamic types --------===//
//
// A nest whose own code calls a virtual member function with an element
// (`functor.apply(*p)` through a reference to a functor class) was analysed
// with the override of the object's static type. It runs converted only when
// the object's dynamic type is that type, checked once when it starts. A
// nest with a size gate (plan/Plan.h) runs converted only when its ranges
// give enough pairs per element gathered:
//
//   if (!(::soaview::exact_type(functor) &&
//         ::soaview::pays_off(::soaview::range_size(local),
//                             ::soaview::range_size(active)))) { // ...
//   #line 12 "user.cpp"
//     <the nest as written, its soaview attributes commented out>
//   } else <the converted nest>
//
// Tests: test/Exec/constructs/virtual-functors.cpp, size-gate.cpp,
// test/Rewrite/dispatch-guard.cpp, size-gate.cpp.
//===----------------------------------------------------------------------===//
#include "emit/Dispatch.h"

#include "emit/CodeWriter.h"
#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"

#include <limits>

using namespace clang;

namespace soaview {
namespace {

/// Text with every `[[clang::soa_conversion...]]` turned into a comment:
/// the copy is plain code.
std::string commentAnnotations(std::string Text) {
  for (size_t I = 0; (I = Text.find("[[", I)) != std::string::npos;) {
    size_t Name = Text.find_first_not_of(" \t", I + 2);
    size_t End = Text.find("]]", I);
    if (Name == std::string::npos || End == std::string::npos)
      break;
    if (!llvm::StringRef(Text).substr(Name).starts_with(
            "clang::soa_conversion")) {
      I += 2;
      continue;
    }
    Text.replace(I, 2, "/*");
    Text.replace(End, 2, "*/");
    I = End + 2;
  }
  return Text;
}

/// The checks, one per object (`::soaview::exact_type(f)`), then the size
/// gate's.
std::string condition(EmitContext &Emit, const DispatchSite &Site) {
  std::string Cond;
  for (const DispatchGuard &G : Site.Guards)
    Cond += fill("${And}${Check}(${Object})",
                 {{"And", Cond.empty() ? "" : " && "},
                  {"Check", G.IsPointer ? rt::ExactPointee : rt::ExactType},
                  {"Object", (G.isMember() ? "this->" : "") +
                                 G.Object->getName().str()}});
  if (Site.Gate)
    Cond += fill("${And}${PaysOff}(${Size}(${Outer}), ${Size}(${Inner}))",
                 {{"And", Cond.empty() ? "" : " && "},
                  {"PaysOff", rt::PaysOff},
                  {"Size", rt::RangeSize},
                  {"Outer", Emit.Source.exprText(Site.Gate->Outer)},
                  {"Inner", Emit.Source.exprText(Site.Gate->Inner)}});
  return Cond;
}

/// What the copy is for: "other dynamic types of 'f'", "ranges too small
/// to pay".
std::string reasons(const DispatchSite &Site) {
  std::string Objects;
  for (const DispatchGuard &G : Site.Guards)
    Objects +=
        (Objects.empty() ? "'" : ", '") + G.Object->getName().str() + "'";
  std::string Why;
  if (!Objects.empty())
    Why = "other dynamic types of " + Objects;
  if (Site.Gate)
    Why += std::string(Why.empty() ? "" : " and ") +
           "ranges too small to pay for the views";
  return Why;
}

} // namespace

void addDispatchSite(const NestPlan &Nest, DispatchSite &Site) {
  const LoopPlan &Outer = Nest.Loops[0];
  Site.Nest = Nest.Root ? Nest.Root : Outer.Form.Loop;
  Site.Outer = Site.Nest == Outer.Form.Loop && !Outer.Annotation->Implicit
                   ? Outer.Annotation
                   : nullptr;
  for (const DispatchGuard &G : Nest.Guards)
    if (llvm::none_of(Site.Guards, [&](const DispatchGuard &O) {
          return O.Object->getName() == G.Object->getName();
        }))
      Site.Guards.push_back(G);
  if (Nest.Gate && !Site.Gate)
    Site.Gate = Nest.Gate;
  Site.InRegion |= Nest.InRegion;
}

bool emitDispatchGuard(EmitContext &Emit, const DispatchSite &Site) {
  if (Site.Guards.empty() && !Site.Gate)
    return true;
  SourceLocation Begin = Emit.SM.getFileLoc(
      Site.Outer ? Site.Outer->Written.getBegin() : Site.Nest->getBeginLoc());
  CharSourceRange Range =
      CharSourceRange::getCharRange(Begin, Emit.Source.afterStmt(Site.Nest));
  EditBuffer *Buffer = Emit.Files.bufferFor(Begin);
  if (!Buffer)
    return false;
  Buffer->insert(Emit.Source.offset(Begin),
                 fill("if (!(${Cond})) { // soaview: the loop as written, for "
                      "${Why}\n${Sync}${Line}${Copy}\n} else ",
                      {{"Cond", condition(Emit, Site)},
                       {"Why", reasons(Site)},
                       {"Sync", Site.InRegion ? std::string(rt::RegionSync) +
                                                    "(); // soaview: a view "
                                                    "region's views, written "
                                                    "back\n"
                                              : ""},
                       {"Line", Emit.Source.lineDirective(Begin)},
                       {"Copy", commentAnnotations(Emit.Source.text(Range))}}),
                 std::numeric_limits<int>::min());
  return true;
}

} // namespace soaview
