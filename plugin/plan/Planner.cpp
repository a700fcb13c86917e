//===- Planner.cpp - from recognised loops to the plan of a nest ----------===//
#include "plan/Planner.h"

#include "frontend/Annotations.h"
#include "plan/Placement.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

LoopPlan planLoop(ASTContext &Ctx, const LoopInstance &I, LoopForm F) {
  LoopPlan P;
  P.Annotation = I.A;
  P.Form = std::move(F);
  if (const AttrUse *H = I.A->get(AttrKind::Hoist)) {
    P.HoistTo = enclosingLoops(Ctx, I.Loop)[H->Hoist - 1]; // checked
    P.HoistLevels = (unsigned)H->Hoist;
  }
  P.InTemplate = I.Fn->getTemplateInstantiationPattern() != nullptr ||
                 I.Fn->isTemplateInstantiation();
  return P;
}

void planRoot(ASTContext &Ctx, NestPlan &Nest) {
  SourceManager &SM = Ctx.getSourceManager();
  for (const LoopPlan &P : Nest.Loops)
    if (P.HoistTo && (!Nest.Root || contains(SM, P.HoistTo, Nest.Root)) &&
        contains(SM, P.HoistTo, Nest.Loops[0].Form.Loop))
      Nest.Root = P.HoistTo;
}

void planPlacement(ASTContext &Ctx, NestPlan &Nest) {
  Nest.InsertBefore = viewInsertionDecl(Ctx, Nest.Loops[0]);
}

void planDevice(NestPlan &Nest, bool CanOffload) {
  for (LoopPlan &P : Nest.Loops) {
    P.Offload = P.Annotation->has(AttrKind::Offload) && CanOffload;
    P.OffloadAttr = P.Offload ? P.Annotation->get(AttrKind::Offload) : nullptr;
  }
  if (Nest.Sweep && CanOffload) { // the sweep offloads the cell's nest
    Nest.Loops[0].Offload = true;
    Nest.Loops[0].OffloadAttr = Nest.Sweep->Annotation->get(AttrKind::Offload);
  }
  if (Nest.Loops.size() == 2 && Nest.Loops[0].Offload) {
    Nest.Loops[1].DeviceInner = true;
    Nest.Loops[0].DeviceInners.push_back(&Nest.Loops[1]);
  }
}

} // namespace soaview
