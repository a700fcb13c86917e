//===- Emit.h - generate the view code for planned nests ---------*- C++
//-*-===//
//
// Turns NestPlans into text edits: per loop a view and its spec in the
// element's namespace (emit/Views.cpp, ViewMembers.cpp, Specs.cpp), clones
// of the functions the loops pass elements to (emit/Clones.cpp), the loop
// rewritten around its unchanged body (emit/Loops.cpp), or one sweep over
// all cells (emit/Sweeps.cpp), allocation routed to the device heap
// (emit/HeapRoutes.cpp), constant tables declared for the device
// (emit/Tables.cpp). Every piece is written through emit/CodeWriter.h;
// the backend (emit/Backend.h) says what changes where loops run on a
// device. See docs/generated-code.md.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_EMIT_H
#define SOAVIEW_EMIT_H

#include "diag/Diagnostics.h"
#include "emit/Dispatch.h"
#include "plan/Plan.h"
#include "support/EditBuffer.h"
#include "support/Modes.h"

#include "clang/Basic/SourceLocation.h"

#include <map>
#include <memory>
#include <set>
#include <string>

namespace clang {
class ASTContext;
}

namespace soaview {
class Backend;
struct EmitContext;
class HeapRouter;
class ViewEmitter;
class CloneEmitter;
class LoopEmitter;
class SweepEmitter;
class TableEmitter;

struct RegionPlan;
struct LoopAnnotation;

class Emitter {
public:
  /// Kind: offloaded loops become CUDA kernels (soaview/cuda.h) or OpenMP
  /// target regions (when the compile has -fopenmp).
  Emitter(clang::ASTContext &Ctx, DiagStore &Diags, BackendKind Kind);
  ~Emitter();

  /// Emits the views of a nest's loops and the clones of its callees.
  bool emitNest(const NestPlan &Nest);
  /// The dispatch check before a nest and the nest as written (once per
  /// site, after every nest was emitted).
  bool emitDispatchGuard(const DispatchSite &Site);
  /// Rewrites one loop of Nest (once per loop, shared by instantiations);
  /// call after emitNest of a nest holding it.
  bool emitLoop(const NestPlan &Nest, const LoopPlan &Plan);
  /// Rewrites a swept nest (Nest.Sweep): the cell loop records the cells,
  /// the nest becomes one kernel over all cells; call after emitNest.
  bool emitSweep(const NestPlan &Nest);

  /// Opens and closes a view region around its statement (emit/RegionScope.h).
  bool emitRegion(const RegionPlan &Region);
  /// Before an annotated loop a region reaches that runs as written (once
  /// per loop): the region's views written back.
  bool emitRegionSync(const clang::Stmt *Loop,
                      const LoopAnnotation &Annotation);

  /// Writes what serves every nest (the clones of the functions they pass
  /// elements to); call after the last nest.
  bool finish();

  /// The edited files, keyed by the FileManager's name.
  std::map<std::string, std::unique_ptr<EditBuffer>> &buffers();
  /// The remark of a converted loop; Where ends it ("; offloaded (...)").
  Msg remark(const LoopPlan &Plan, const std::string &Where = "") const;
  const Backend &backend() const { return *Target; }

  EditBuffer *bufferFor(clang::SourceLocation L);
  /// Turns the attributes of a loop left as written into a comment of the
  /// same length, as in a converted loop (soaview-translate's output is for
  /// compilers that do not know them). False when the attributes' text was
  /// edited already (a converted loop, a sweep's nest).
  bool commentAttribute(const LoopAnnotation &Annotation, EditBuffer &Buffer);
  /// Test hook (Options::BreakViewLine).
  void breakViewAt(unsigned Line);

private:
  std::unique_ptr<Backend> Target;
  std::unique_ptr<EmitContext> Context;
  std::unique_ptr<HeapRouter> Heap;
  std::unique_ptr<ViewEmitter> Views;
  std::unique_ptr<CloneEmitter> Clones;
  std::unique_ptr<LoopEmitter> Loops;
  std::unique_ptr<SweepEmitter> Sweeps;
  std::unique_ptr<TableEmitter> Tables;
  std::set<unsigned> RegionSyncs; ///< loops given a region_sync()
};

} // namespace soaview

#endif
