//===- Dispatch.cpp - the nest as written, for other dynamic types --------===//
//
// A nest whose own code calls a virtual member function with an element
// (`functor.apply(*p)` through a reference to a functor class) was analysed
// with the override of the object's static type. It runs converted only when
// the object's dynamic type is that type, checked once when it starts. A
// nest with a size gate (plan/Plan.h) runs converted only when its ranges
// give enough pairs per element gathered and, once its first calls have
// measured both versions, when converted was the faster (soaview/gate.h):
//
//   { static ::soaview::gate sv12_3_gate("user.cpp:12:3");
//   ::soaview::trial sv12_3_trial(sv12_3_gate, ::soaview::range_size(local),
//                                 ::soaview::range_size(active));
//   if (!(::soaview::exact_type(functor) && sv12_3_trial.converted())) {
//   #line 12 "user.cpp"
//     <the nest as written, its soaview attributes commented out>
//   } else <the converted nest> }
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

/// The priority of the trial block's end: after the ends of the converted
/// nest's blocks at the same place (emit/Loops.cpp: 0 to its hoist levels).
constexpr int AfterNestEnds = 1000;

/// `::soaview::range_size(c.local)`, `::soaview::trip_count(0, n)`.
std::string extent(EmitContext &Emit, const GateExtent &E) {
  if (E.Range)
    return fill(
        "${Size}(${Range})",
        {{"Size", rt::RangeSize}, {"Range", Emit.Source.exprText(E.Range)}});
  return fill("${Trips}(${Lo}, ${Hi})", {{"Trips", rt::TripCount},
                                         {"Lo", Emit.Source.exprText(E.Lo)},
                                         {"Hi", Emit.Source.exprText(E.Hi)}});
}

/// The size gate's measuring objects (soaview/gate.h), named after the
/// nest: `{ static gate P_gate("f:L:C"); trial P_trial(P_gate, n, m); `.
std::string openTrial(EmitContext &Emit, const SizeGate &Gate,
                      SourceLocation At) {
  return fill("{ static ${Gate} ${P}gate(\"${Where}\"); ${Trial} "
              "${P}trial(${P}gate, ${Outer}, ${Inner}); "
              "// soaview: the nest's version, measured\n",
              {{"Gate", rt::Gate},
               {"Trial", rt::Trial},
               {"P", Emit.Names.prefix(At)},
               {"Where", Emit.Source.where(At)},
               {"Outer", extent(Emit, Gate.Outer)},
               {"Inner", extent(Emit, Gate.Inner)}});
}

/// The checks, one per object (`::soaview::exact_type(f)`), then the size
/// gate's.
std::string condition(EmitContext &Emit, const DispatchSite &Site,
                      SourceLocation At) {
  std::string Cond;
  for (const DispatchGuard &G : Site.Guards)
    Cond += fill("${And}${Check}(${Object})",
                 {{"And", Cond.empty() ? "" : " && "},
                  {"Check", G.IsPointer ? rt::ExactPointee : rt::ExactType},
                  {"Object", (G.isMember() ? "this->" : "") +
                                 G.Object->getName().str()}});
  if (Site.Gate)
    Cond += fill(
        "${And}${P}trial.converted()",
        {{"And", Cond.empty() ? "" : " && "}, {"P", Emit.Names.prefix(At)}});
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
           "ranges too small to pay for the views, or measured faster";
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
  SourceLocation End = Emit.Source.afterStmt(Site.Nest);
  CharSourceRange Range = CharSourceRange::getCharRange(Begin, End);
  EditBuffer *Buffer = Emit.Files.bufferFor(Begin);
  if (!Buffer)
    return false;
  SourceLocation At = Emit.SM.getFileLoc(Site.Nest->getBeginLoc());
  // The `if` after the trial's line starts where the nest did.
  unsigned Column = Emit.SM.getPresumedColumnNumber(Begin);
  if (Site.Gate) // the trial's block ends after the converted nest's own
    Buffer->insert(Emit.Source.offset(End), " }", AfterNestEnds);
  Buffer->insert(Emit.Source.offset(Begin),
                 fill("${Trial}if (!(${Cond})) { // soaview: the loop as "
                      "written, for ${Why}\n${Sync}${Line}${Copy}\n} else ",
                      {{"Trial", Site.Gate ? openTrial(Emit, *Site.Gate, At) +
                                                 std::string(Column - 1, ' ')
                                           : ""},
                       {"Cond", condition(Emit, Site, At)},
                       {"Why", reasons(Site)},
                       {"Sync", Site.InRegion ? std::string(rt::RegionSync) +
                                                    "(); // soaview: a view "
                                                    "region's views, written "
                                                    "back\n"
                                              : ""},
                       {"Line", Emit.Source.lineDirective(Begin)},
                       {"Copy", Emit.Source.plainCopy(Range)}}),
                 std::numeric_limits<int>::min());
  return true;
}

} // namespace soaview
