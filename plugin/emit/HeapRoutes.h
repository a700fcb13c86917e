//===- HeapRoutes.h - allocation routed to the device heap ------*- C++ -*-===//
//
// The edits that route an offloaded loop's allocation (LoopPlacement::Heap,
// found by plan/DeviceCode.cpp) to soaview's device heap, as
// soaview/heap_route.h lists them: the C functions renamed, new placed on
// the heap, delete a call. They go in place (the loop's body and the user
// functions it reaches: host calls of those keep the standard allocation)
// and into the copies soaview makes of code (clones, view methods).
// Tests: test/Rewrite/device-heap.cpp, test/Offload/host-offload.test.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_HEAPROUTES_H
#define SOAVIEW_HEAPROUTES_H

#include "emit/EmitContext.h"

#include <set>

namespace soaview {

/// The edits of the routes that fall in R (text soaview copies).
void routeEditsIn(const EmitContext &Emit, const std::vector<HeapRoute> &Routes,
                  clang::CharSourceRange R, TextEdits &Edits);

class HeapRouter {
public:
  explicit HeapRouter(EmitContext &Emit) : Emit(Emit) {}

  /// Every route of the nest, in place (once each: template instantiations
  /// and nests share the text).
  bool routeInPlace(const NestPlan &Nest);
  /// The scope around an offloaded loop that allocates: binds the device
  /// heap before the launch, reports what ran out after it (the statement
  /// that declares it; empty when P does not allocate).
  std::string loopScope(const LoopPlan &P, const std::string &Prefix) const;

private:
  EmitContext &Emit;
  std::set<unsigned> RoutedInPlace; ///< file locations already rewritten
};

} // namespace soaview

#endif
