//===- Planner.h - from recognised loops to the plan of a nest ---*- C++ -*-===//
//
// Planning decides where views are built (hoisting, the nest's root) and
// where loops run (host, device); it reports nothing: the checks have run.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_PLANNER_H
#define SOAVIEW_PLANNER_H

#include "frontend/LoopFinder.h"
#include "plan/Model.h"

namespace clang {
class ASTContext;
}

namespace soaview {

/// The plan of one recognised loop: where its view is built and whether it
/// sits in a template instantiation.
LoopPlan planLoop(clang::ASTContext &Ctx, const LoopInstance &I, LoopForm F);

/// The statement the analysis walks: the outermost loop, or the loop the
/// outermost hoisted view is built before.
void planRoot(clang::ASTContext &Ctx, NestPlan &Nest);

/// Where the nest's generated code goes (viewInsertionDecl of its outer
/// loop), decided once for the checks and the emitter.
void planPlacement(clang::ASTContext &Ctx, NestPlan &Nest);

/// Which loops run on the device: offloaded loops (when the compile can
/// offload) and the inner loop of an offloaded nest.
void planDevice(NestPlan &Nest, bool CanOffload);

} // namespace soaview

#endif
