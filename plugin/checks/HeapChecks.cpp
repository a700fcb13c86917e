//===- HeapChecks.cpp - allocation in offloaded code ----------------------===//
//
// An offloaded loop's code allocates from soaview's device heap: planning
// (plan/DeviceCode.cpp) finds every allocation and what cannot be routed
// there. Refused, with the reason: an allocation that cannot be routed;
// frees inside system headers in a loop that allocates from the heap (they
// would free heap blocks with the device runtime's free); and pointer
// fields written by a loop that allocates (heap blocks cannot outlive the
// launch). Tests: test/Sema/device-heap.cpp.
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"

using namespace clang;

namespace soaview {

bool checkDeviceHeap(const NestPlan &Nest, const LoopPlan &P,
                     DiagStore &Diags) {
  const HeapUse &Heap = P.Heap;
  auto Refuse = [&](SourceLocation L, const Msg &Error, const Msg &Note) {
    StoredDiag &D = Diags.report(L, Error);
    Diags.note(D, P.OffloadAttr->Range.getBegin(), Note);
    return false;
  };
  if (Heap.Unroutable) {
    diag::Id Note = Heap.Unroutable->second.Id == diag::err_heap_realloc
                        ? diag::note_heap_realloc
                        : diag::note_heap_unroutable;
    return Refuse(Heap.Unroutable->first, Heap.Unroutable->second, Note);
  }
  if (Heap.Allocates && Heap.SystemFree)
    return Refuse(Heap.SystemFree->first,
                  {diag::err_heap_system_free,
                   {Heap.SystemFree->second->getQualifiedNameAsString()}},
                  diag::note_heap_system_free);
  if (!Heap.Allocates)
    return true;
  for (const LoopPlan &L : Nest.Loops)
    for (auto &[Path, Access] : L.View.orderedLeaves())
      if (Access.Written && Path.back()->getType()->isPointerType())
        return Refuse(
            Access.FirstUse.isValid() ? Access.FirstUse : L.Annotation->ForLoc,
            {diag::err_heap_escape, {dotted(Path)}}, diag::note_heap_escape);
  return true;
}

} // namespace soaview
