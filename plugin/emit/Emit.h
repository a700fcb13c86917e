//===- Emit.h - generate the view code for analysed loops --------*- C++ -*-===//
//
// Turns LoopPlans into text edits: a per-(site, element) "spec" struct in the
// element's namespace (proxy view, SoA buffers, gather / scatter), the loop
// rewrite around the unchanged body, and clones of the free functions the
// body calls with the element. See docs/generated-code.md.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_EMIT_H
#define SOAVIEW_EMIT_H

#include "diag/Diagnostics.h"
#include "driver/Options.h"
#include "plan/Model.h"
#include "support/EditBuffer.h"

#include "clang/Basic/SourceLocation.h"

#include <map>
#include <memory>
#include <string>

namespace clang {
class ASTContext;
}

namespace soaview {
class Backend;

class Emitter {
public:
  /// Kind: offloaded loops become CUDA kernels (soaview/cuda.h) or OpenMP
  /// target regions (when the compile has -fopenmp).
  Emitter(clang::ASTContext &Ctx, DiagStore &Diags, BackendKind Kind);
  ~Emitter();

  /// Emits the views of a nest's loops and the clones of its callees.
  bool emitNest(const NestPlan &Nest);
  /// Rewrites one loop (once per loop, shared by instantiations); call after
  /// emitNest of a nest holding it.
  bool emitLoop(const LoopPlan &Plan);
  /// Rewrites a swept nest (Nest.Sweep): the cell loop records the cells,
  /// the nest becomes one kernel over all cells; call after emitNest.
  bool emitSweep(const NestPlan &Nest);

  /// The edited files, keyed by the FileManager's name.
  std::map<std::string, std::unique_ptr<EditBuffer>> &buffers() {
    return Buffers;
  }
  /// The remark of a converted loop; Where ends it ("; offloaded (...)").
  Msg remark(const LoopPlan &Plan, const std::string &Where = "") const;
  const Backend &backend() const { return *B; }

  EditBuffer *bufferFor(clang::SourceLocation L);

private:
  class Impl;
  std::unique_ptr<Backend> B;
  std::unique_ptr<Impl> P;
  std::map<std::string, std::unique_ptr<EditBuffer>> Buffers;
};

} // namespace soaview

#endif
