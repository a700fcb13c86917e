//===- Emit.h - generate the view code for analysed loops --------*- C++ -*-===//
//
// Turns LoopPlans into text edits: a per-(site, element) "spec" struct in the
// element's namespace (proxy view, SoA buffers, gather / scatter), the loop
// rewrite around the unchanged body, and clones of the free functions the
// body calls with the element. See docs/generated-code.md.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_EMIT_H
#define SOAVIEW_EMIT_H

#include "EditBuffer.h"
#include "Model.h"

#include "clang/Basic/SourceLocation.h"

#include <map>
#include <memory>
#include <string>

namespace clang {
class ASTContext;
}

namespace soaview {
class DiagStore;

class Emitter {
public:
  /// Cuda: offloaded loops become CUDA kernels (soaview/cuda.h) instead of
  /// OpenMP target regions.
  Emitter(clang::ASTContext &Ctx, DiagStore &Diags, bool Cuda = false);
  ~Emitter();

  /// Emits the views of a nest's loops and the clones of its callees.
  bool emitNest(const NestPlan &Nest);
  /// Rewrites one loop (once per loop, shared by instantiations); call after
  /// emitNest of a nest holding it.
  bool emitLoop(const LoopPlan &Plan);

  /// The edited files, keyed by the FileManager's name.
  std::map<std::string, std::unique_ptr<EditBuffer>> &buffers() {
    return Buffers;
  }
  /// The remark text of a plan.
  std::string remark(const LoopPlan &Plan) const;

  EditBuffer *bufferFor(clang::SourceLocation L);

private:
  class Impl;
  std::unique_ptr<Impl> P;
  std::map<std::string, std::unique_ptr<EditBuffer>> Buffers;
};

} // namespace soaview

#endif
