//===- Planner.cpp - from an analysed nest to its plan --------------------===//
#include "plan/Planner.h"

#include "analysis/Analysis.h"
#include "frontend/Annotations.h"
#include "plan/DeviceCode.h"
#include "plan/KeptCells.h"
#include "plan/Placement.h"
#include "plan/ViewGroups.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

std::optional<std::string> sweepStaysOnHost(const RecognisedNest &Recognised,
                                            const AnalysedNest &Analysed) {
  if (Recognised.Loops.size() < 2)
    return std::nullopt;
  for (auto &[Path, Access] : Analysed.Loops[1].View.orderedLeaves())
    if (Access.Written)
      return "the inner loop writes field '" + dotted(Path) +
             "' (each element would be written from several cells at once)";
  for (const SharedField &S : sharedFields(Recognised, Analysed))
    if (S.InPlace)
      return "field '" + dotted(S.Path) +
             "' is written through the local elements and read through the "
             "inner loop (the views share it in the element, in host memory)";
  return std::nullopt;
}

namespace {

/// Which loops run on the device: offloaded loops (when the compile can
/// offload), the local loop of a swept nest (when it can), and the inner
/// loop of an offloaded nest.
std::vector<LoopPlacement> placeLoops(const RecognisedNest &Recognised,
                                      bool CanOffload) {
  std::vector<LoopPlacement> Places(Recognised.Loops.size());
  for (size_t I = 0; I < Recognised.Loops.size(); ++I) {
    const LoopAnnotation &Annotation = *Recognised.Loops[I].Annotation;
    Places[I].Offload = Annotation.has(AttrKind::Offload) && CanOffload;
    Places[I].OffloadAttr =
        Places[I].Offload ? Annotation.get(AttrKind::Offload) : nullptr;
  }
  if (Recognised.Sweep) { // the sweep offloads the cell's nest, or runs it on
                          // the host in parallel (a host sweep: its checks name
                          // the sweep's attribute too)
    Places[0].Offload = CanOffload;
    Places[0].OffloadAttr =
        Recognised.Sweep->Annotation->get(AttrKind::Offload);
  }
  if (Recognised.Loops.size() == 2 && Places[0].Offload) {
    Places[1].DeviceInner = true;
    Places[0].DeviceInners.push_back(1);
  }
  return Places;
}

/// The statement S has an `if`, `continue` or `break`: work that most
/// iterations may skip.
bool branches(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitIfStmt(IfStmt *) { return !(Found = true); }
    bool VisitContinueStmt(ContinueStmt *) { return !(Found = true); }
    bool VisitBreakStmt(BreakStmt *) { return !(Found = true); }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// The buffers a view reads from: one per field, one per component of a
/// small array (splitComponents).
size_t bufferCount(const ASTContext &Ctx, const ViewModel &V) {
  size_t N = 0;
  for (auto &[Path, Access] : V.orderedLeaves()) {
    QualType Elem;
    N += std::max(1u, splitComponents(Ctx, Path.back()->getType(), Elem));
  }
  return N + V.Wholes.size();
}

/// An inner loop reading from more buffers than this builds its views once
/// (packed): measured on SWIFT's force loops (13 to 16 buffers: 1.1-1.2x
/// slower than plain from the buffers, plain speed packed) and the SPH
/// example's (11 buffers: 5-7% faster from the buffers than packed);
/// docs/benchmarks.md, "Packed views".
constexpr size_t MinPackedBuffers = 13;

/// Packed views (LoopPlacement::Packed) for read-only range loops inside
/// another converted loop, on the host, that read many buffers and whose
/// body (or a function receiving their elements) branches. A loop without
/// branches keeps the buffers, which let the compiler vectorise it.
bool packs(const ASTContext &Ctx, const NestPlan &Nest, size_t K) {
  const LoopPlan &P = Nest.Loops[K];
  if (K == 0 || P.Offload || P.DeviceInner || Nest.Sweep || P.View.writes() ||
      P.Form.Kind != LoopFormKind::Range || P.Form.VarIsCopy ||
      bufferCount(Ctx, P.View) < MinPackedBuffers)
    return false;
  if (branches(P.Form.Body))
    return true;
  for (const CalleeUse &U : Nest.Callees)
    if (llvm::is_contained(U.ParamViews, (int)K) && U.FD->hasBody() &&
        branches(U.FD->getBody()))
      return true;
  return false;
}

/// A range expression that only names its container: variables, members,
/// `this`, dereferences and subscripts by such names or constants, no call.
/// Evaluating it once more (the size gate) changes nothing.
bool namesContainer(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (E->getType().isVolatileQualified())
    return false; // reading it is a side effect
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isa<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl()) &&
           (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
            namesContainer(ME->getBase()));
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref && namesContainer(UO->getSubExpr());
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return namesContainer(AS->getBase()) &&
           (isa<IntegerLiteral>(AS->getIdx()->IgnoreParenImpCasts()) ||
            namesContainer(AS->getIdx()));
  return false;
}

/// `c.size()` of a library container (const, no arguments) on a named
/// container: evaluating it again changes nothing.
bool librarySize(const Expr *E, const SourceManager &SM) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts());
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  return MD && MC->getNumArgs() == 0 && MD->isConst() &&
         MD->getName() == "size" && SM.isInSystemHeader(MD->getLocation()) &&
         namesContainer(MC->getImplicitObjectArgument());
}

/// A bound of an index loop the gate may evaluate again: a constant, a
/// name (namesContainer) or a library container's size().
bool reEvaluable(const Expr *E, const SourceManager &SM) {
  const Expr *Bare = E->IgnoreParenImpCasts();
  return !E->getBeginLoc().isMacroID() && !E->getEndLoc().isMacroID() &&
         (isa<IntegerLiteral>(Bare) || namesContainer(E) || librarySize(E, SM));
}

/// The extent of a loop the gate counts: its range, or its index bounds
/// (`i < hi` only).
std::optional<GateExtent> gateExtent(const LoopForm &F,
                                     const SourceManager &SM) {
  const Expr *Range =
      F.Kind == LoopFormKind::Range || F.Kind == LoopFormKind::Iterator
          ? F.RangeInit
          : nullptr;
  if (Range && namesContainer(Range) && !Range->getBeginLoc().isMacroID() &&
      !Range->getEndLoc().isMacroID() &&
      (F.Kind == LoopFormKind::Range || F.Begin != F.RangeInit))
    return GateExtent{Range, nullptr, nullptr};
  if (F.Kind == LoopFormKind::Index && F.Bound == IndexBound::Below &&
      !F.IndexList && reEvaluable(F.Lo, SM) && reEvaluable(F.Hi, SM))
    return GateExtent{nullptr, F.Lo, F.Hi};
  return std::nullopt;
}

/// The size gate of a host nest of two loops (plan/Plan.h, SizeGate): the
/// inner loop's view hoisted out of the outer loop (two range loops), or a
/// symmetric pair loop walking the outer loop's view, when the profitability
/// rule applies to every loop of it and the nest can be copied as written
/// (no label, no static local).
std::optional<SizeGate> sizeGate(const SourceManager &SM, const NestPlan &Nest,
                                 const PlanOptions &Planning) {
  if (!Planning.SizeGates || Nest.Sweep || Nest.offloads() ||
      Nest.Loops.size() != 2)
    return std::nullopt;
  const LoopPlan &Outer = Nest.Loops[0], &Inner = Nest.Loops[1];
  bool Hoisted = Inner.HoistTo == Outer.Form.Loop &&
                 Outer.Form.Kind == LoopFormKind::Range &&
                 Inner.Form.Kind == LoopFormKind::Range;
  bool Pair = Inner.WalksViewOf == size_t(0);
  if (!(Hoisted || Pair) ||
      !copiesAsWritten(Nest.Root ? Nest.Root : Outer.Form.Loop))
    return std::nullopt;
  for (const LoopPlan &P : Nest.Loops)
    if (P.Annotation->always())
      return std::nullopt;
  std::optional<GateExtent> Out = gateExtent(Outer.Form, SM);
  std::optional<GateExtent> In = Pair ? Out : gateExtent(Inner.Form, SM);
  if (!Out || !In)
    return std::nullopt;
  return SizeGate{*Out, *In};
}

/// Whether an offloaded loop's code allocates or frees (found as the device
/// heap would route it). With device-heap=off that is left to OpenMP's
/// device runtime, which a bare kernel does not start.
bool allocatesOnDevice(ASTContext &Ctx, const NestPlan &Nest) {
  for (const LoopPlan &P : Nest.Loops)
    if (P.Offload && !findHeapUse(Ctx, P.Form.Body).Routes.empty())
      return true;
  return false;
}

} // namespace

NestPlan planNest(ASTContext &Ctx, RecognisedNest Recognised,
                  AnalysedNest Analysed, const PlanOptions &Planning) {
  std::vector<LoopPlacement> Places =
      placeLoops(Recognised, Planning.CanOffload);
  for (const SharedField &S : sharedFields(Recognised, Analysed))
    if (S.InPlace)
      for (LoopPlacement &P : Places)
        P.InPlace.insert(S.Path);
  NestPlan Nest;
  if (Recognised.Sweep && Recognised.RegionSweep)
    Nest.KeptCellLists = keptCellLists(
        Ctx, *Recognised.Sweep, Recognised.Loops[0],
        Recognised.Loops.size() > 1 ? &Recognised.Loops[1] : nullptr);
  for (size_t I = 0; I < Recognised.Loops.size(); ++I)
    Nest.Loops.emplace_back(std::move(Recognised.Loops[I]),
                            std::move(Analysed.Loops[I]), std::move(Places[I]));
  Nest.Callees = std::move(Analysed.Callees);
  Nest.Foreign = std::move(Analysed.Foreign);
  Nest.Guards = std::move(Analysed.Guards);
  Nest.InTemplate = Recognised.InTemplate;
  Nest.Root = Recognised.Root;
  Nest.Sweep = std::move(Recognised.Sweep);
  Nest.Insert = viewInsertionPoint(Ctx, Nest.Loops[0]);
  for (size_t K = 0; K < Nest.Loops.size(); ++K)
    Nest.Loops[K].Packed = packs(Ctx, Nest, K);
  if (Planning.DeviceHeap)
    for (LoopPlan &P : Nest.Loops)
      if (P.Offload)
        P.Heap = findHeapUse(Ctx, P.Form.Body);
  for (LoopPlan &P : Nest.Loops) // what device code uses of the host
    if (P.Offload) {
      P.Reach = reachDeviceCode(Ctx, Nest, P);
      P.Reach.CopiesTables = Planning.Backend == BackendKind::OpenMP;
    }
  Nest.Gate = sizeGate(Ctx.getSourceManager(), Nest, Planning);
  Nest.InRegion = Planning.InRegion;
  Nest.BareKernels = Planning.BareKernels &&
                     (Planning.DeviceHeap || !allocatesOnDevice(Ctx, Nest));
  Nest.Views = viewGroups(Nest);
  return Nest;
}

} // namespace soaview
