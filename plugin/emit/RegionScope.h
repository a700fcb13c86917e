//===- RegionScope.h - the scope of a view region -------------*- C++ -*-===//
//
// A region's statement keeps its text; its attribute becomes the region's
// opening, on the attribute's own line, and a brace closes it after the
// statement, so that no line of the user's code moves:
//
//   { static ::soaview::site sv12_3_region_site("user.cpp:12:3");
//   ::soaview::region sv12_3_region(sv12_3_region_site); // soaview: view
//   region for (int step = 0; step < steps; ++step) { ... } }
//
// A loop the region reaches that runs as written gets the region's views
// written back before it (::soaview::region_sync()).
//
// Tests: test/Rewrite/regions.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REGIONSCOPE_H
#define SOAVIEW_REGIONSCOPE_H

namespace clang {
class Stmt;
}

namespace soaview {
struct EmitContext;
struct LoopAnnotation;
struct RegionPlan;

/// Rewrites one region; false when its file cannot be edited.
bool emitRegion(EmitContext &Emit, const RegionPlan &Region);

/// An annotated loop a region reaches that runs as written (the
/// profitability rule left it): the region's views are written back first,
///   { ::soaview::region_sync(); [[clang::soa_conversion]] for (...) ... }
bool emitRegionSync(EmitContext &Emit, const clang::Stmt *Loop,
                    const LoopAnnotation &Annotation);

} // namespace soaview

#endif
