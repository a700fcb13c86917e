//===- Dispatch.h - the nest as written, for other dynamic types -*- C++
//-*-===//
#ifndef SOAVIEW_DISPATCH_H
#define SOAVIEW_DISPATCH_H

#include "emit/EmitContext.h"
#include "plan/Plan.h"

namespace soaview {

/// A nest with dispatch checks: the statement copied as written, and the
/// checks of every instantiation of it (one rewrite of a template's loop
/// serves them all).
struct DispatchSite {
  /// The enclosing loop a view is hoisted out of, or the outer loop.
  const clang::Stmt *Nest = nullptr;
  /// The outer loop's annotation when Nest is the outer loop (the copy
  /// starts at its attribute).
  const LoopAnnotation *Outer = nullptr;
  std::vector<DispatchGuard> Guards;
  /// The ranges whose sizes decide whether the nest pays (plan/Plan.h).
  std::optional<SizeGate> Gate;
  /// A view region reaches the nest: the copy writes its views back first.
  bool InRegion = false;
};

/// Adds Nest's checks to Site (one per object, by name; its size gate).
void addDispatchSite(const NestPlan &Nest, DispatchSite &Site);

/// Before the nest: the checks (the objects' dynamic types, the size gate)
/// and the nest as written, run when one fails.
bool emitDispatchGuard(EmitContext &Emit, const DispatchSite &Site);

} // namespace soaview

#endif
