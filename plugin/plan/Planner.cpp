//===- Planner.cpp - from an analysed nest to its plan --------------------===//
#include "plan/Planner.h"

#include "frontend/Annotations.h"
#include "plan/DeviceCode.h"
#include "plan/Placement.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace soaview {

std::optional<std::string> sweepStaysOnHost(const RecognisedNest &R,
                                            const AnalysedNest &A) {
  if (R.Loops.size() < 2)
    return std::nullopt;
  for (auto &[Path, Access] : A.Loops[1].View.orderedLeaves())
    if (Access.Written)
      return "the inner loop writes field '" + dotted(Path) +
             "' (each element would be written from several cells at once)";
  return std::nullopt;
}

namespace {

/// Which loops run on the device: offloaded loops (when the compile can
/// offload), the local loop of a swept nest, and the inner loop of an
/// offloaded nest.
std::vector<LoopPlacement> placeLoops(const RecognisedNest &R,
                                      bool CanOffload) {
  std::vector<LoopPlacement> Places(R.Loops.size());
  for (size_t I = 0; I < R.Loops.size(); ++I) {
    const LoopAnnotation &A = *R.Loops[I].Annotation;
    Places[I].Offload = A.has(AttrKind::Offload) && CanOffload;
    Places[I].OffloadAttr =
        Places[I].Offload ? A.get(AttrKind::Offload) : nullptr;
  }
  if (R.Sweep && CanOffload) { // the sweep offloads the cell's nest
    Places[0].Offload = true;
    Places[0].OffloadAttr = R.Sweep->Annotation->get(AttrKind::Offload);
  }
  if (R.Loops.size() == 2 && Places[0].Offload) {
    Places[1].DeviceInner = true;
    Places[0].DeviceInners.push_back(1);
  }
  return Places;
}

} // namespace

NestPlan planNest(ASTContext &Ctx, RecognisedNest R, AnalysedNest A,
                  const PlanOptions &O) {
  std::vector<LoopPlacement> Places = placeLoops(R, O.CanOffload);
  NestPlan Nest;
  for (size_t I = 0; I < R.Loops.size(); ++I)
    Nest.Loops.emplace_back(std::move(R.Loops[I]), std::move(A.Loops[I]),
                            std::move(Places[I]));
  Nest.Callees = std::move(A.Callees);
  Nest.Foreign = std::move(A.Foreign);
  Nest.InTemplate = R.InTemplate;
  Nest.Root = R.Root;
  Nest.Sweep = std::move(R.Sweep);
  Nest.InsertBefore = viewInsertionDecl(Ctx, Nest.Loops[0]);
  if (O.DeviceHeap)
    for (LoopPlan &P : Nest.Loops)
      if (P.Offload)
        P.Heap = findHeapUse(Ctx, P.Form.Body);
  if (O.Backend == BackendKind::Cuda)
    for (LoopPlan &P : Nest.Loops)
      if (P.Offload)
        P.Reach = reachDeviceCode(Ctx, Nest, P);
  return Nest;
}

} // namespace soaview
