//===- EveryLoop.h - annotate=all: the nests that convert -------*- C++ -*-===//
//
// With annotate=all every nest is tried on its own: one that cannot convert
// keeps its code and gets a remark saying why, and its loops are tried
// again without the outermost. A loop's text is shared by the
// instantiations of its template, so a loop converts only where every
// instance of it converts. The first pass emits the plans this returns.
// Tests: test/Sema/annotate-all.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_EVERYLOOP_H
#define SOAVIEW_EVERYLOOP_H

#include "diag/Diagnostics.h"
#include "driver/Instances.h"
#include "frontend/LoopFinder.h"
#include "plan/Plan.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace soaview {

class EveryLoop {
public:
  /// Plans one nest through the stages, reporting to the store given.
  using PlanFn = llvm::function_ref<std::optional<NestPlan>(
      const std::vector<LoopInstance> &, DiagStore &)>;

  /// Host: whether remarks are reported (the host compile only).
  EveryLoop(const clang::SourceManager &SM, DiagStore &Diags, bool Host,
            PlanFn Plan, TemplateInstances &Instances)
      : SM(SM), Diags(Diags), Host(Host), Plan(Plan), Instances(Instances) {}

  /// The plans of every nest, or inner nest, that converts in each of its
  /// instances; remarks at the loops left as written.
  std::vector<NestPlan>
  convertible(const std::vector<std::vector<LoopInstance>> &Nests);

private:
  void tryNest(const std::vector<LoopInstance> &N);
  /// Drops the passed plans that hold a loop of a failed instance, with a
  /// remark at each of their loops, until none is left.
  void dropFailedInstances();
  void remarkNotConverted(clang::SourceLocation For, const std::string &Why,
                          const StoredLoc &At,
                          const std::vector<StoredNote> &Notes);

  const clang::SourceManager &SM;
  DiagStore &Diags;
  const bool Host;
  PlanFn Plan;
  TemplateInstances &Instances;
  std::vector<NestPlan> Passed;
  std::set<unsigned> Failed; ///< loops with an instance left as written
};

} // namespace soaview

#endif
