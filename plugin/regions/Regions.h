//===- Regions.h - view regions: what they reach, what they refuse -*- C++
//-*-===//
//
// A view region (soa_conversion_region on a compound statement or a loop)
// keeps the views of the sweeps it runs from one to the next (runtime:
// soaview/region.h). This stage follows the region's statements and every
// function they call whose body is in the translation unit, and finds
//   * the annotated loops it reaches (they share the region's views and
//     always convert: the conversion cost the profitability rule weighs is
//     what the region removes), and their element types;
//   * everything else that meets those elements: a field read or written,
//     a member function of the element called, a container of elements
//     changed, a call soaview cannot follow, an OpenMP directive. Each is
//     refused with the statement, the field and the region named
//     (docs/offload.md, "View regions");
//   * whether its code, annotated loops included, may change a sweep's
//     list unseen (bytes written through a pointer, a list made inside it):
//     otherwise the runtime checks each sweep's lists once, not every run.
// Tests: test/Sema/regions.cpp, test/Rewrite/regions.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REGIONS_H
#define SOAVIEW_REGIONS_H

#include "diag/Diagnostics.h"

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"

#include <set>
#include <vector>

namespace clang {
class ASTContext;
}

namespace soaview {
class AnnotationCollector;
struct RegionAnnotation;

/// One region that passed its checks: what the emitter and the planner need.
struct RegionPlan {
  const RegionAnnotation *Annotation;
  /// Raw encodings of the `for` locations of the annotated loops it
  /// reaches (in this translation unit).
  std::set<unsigned> Loops;
  /// Their element types, for the remark.
  std::set<std::string> Elements;
  /// The first place where the region's code may change a sweep's list
  /// where soaview cannot see it, and what it does there (invalid: none;
  /// the runtime then skips the check of lists it finds where they were:
  /// soaview::region_lists::kept).
  clang::SourceLocation ListsMayChange;
  std::string ListsWhy;
};

/// The regions of the translation unit: those that pass (with at least one
/// annotated loop reached) go into the result; every problem is reported
/// into D.
std::vector<RegionPlan> analyseRegions(clang::ASTContext &Ctx,
                                       const AnnotationCollector &C,
                                       DiagStore &D);

} // namespace soaview

#endif
