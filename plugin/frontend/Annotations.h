//===- Annotations.h - the soa_conversion attributes -------------*- C++
//-*-===//
//
// Registers [[clang::soa_conversion]], soa_conversion_target("name"),
// soa_conversion_hoist(n), soa_conversion_offload_compute (also spelled
// soa_conversion_compute_offload) and soa_conversion_region (on a compound
// statement or a loop) as statement attributes, and records every
// use into the AnnotationCollector active for the current parse.
//
// Clang 19 has no handleStmtAttribute for plugins: the attributes are seen in
// diagAppertainsToStmt, recorded, and dropped (docs/design.md).
// Tests: test/Sema/attributes.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_ANNOTATIONS_H
#define SOAVIEW_ANNOTATIONS_H

#include "diag/Diagnostics.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace soaview {

enum class AttrKind { Convert, Target, Hoist, Offload, Region };

const char *attrSpelling(AttrKind K);

/// One attribute as written.
struct AttrUse {
  AttrKind Kind;
  clang::SourceRange Range; ///< [[ ... ]] contents of this attribute
  std::string Target;       ///< soa_conversion_target
  int64_t Hoist = 0;        ///< soa_conversion_hoist
  bool Always =
      false; ///< soa_conversion("always"): skip the profitability rule
  /// Not written: the target inferred for an index loop annotated without
  /// one (frontend/ImplicitAnnotations.h, inferIndexTargets); Range is the
  /// loop's `for`.
  bool Inferred = false;
};

/// Everything written on one loop. Keyed by the loop's `for` location, which
/// is the same in a template pattern and all of its instantiations.
struct LoopAnnotation {
  clang::SourceLocation ForLoc;
  std::vector<AttrUse> Attrs;
  bool has(AttrKind K) const;
  /// soa_conversion("always") was written.
  bool always() const;
  const AttrUse *get(AttrKind K) const;
  /// The full range to blank out when the loop is converted: from the first
  /// "[[" to the last "]]" (invalid for an implicit annotation).
  clang::SourceRange Written;
  /// Not written: annotate=all annotated the loop (ImplicitAnnotations.h).
  bool Implicit = false;
};

/// soa_conversion_region on a statement: the statement (a compound
/// statement or a loop) and the attribute as written.
struct RegionAnnotation {
  const clang::Stmt *S;
  clang::SourceLocation Loc;
  clang::SourceRange Written;
};

/// An attribute error found while parsing (misplaced, bad argument).
struct AttrProblem {
  clang::SourceLocation Loc;
  Msg Message;
  std::optional<Msg> Note;
};

/// Receives the attributes of one parse. At most one is active at a time; in
/// the real compile none is, and the attributes are then ignored (the loops
/// were already rewritten or refused).
class AnnotationCollector {
public:
  AnnotationCollector();
  ~AnnotationCollector();
  static AnnotationCollector *active();

  void record(AttrUse Use, const clang::Stmt *S, clang::SourceLocation ForLoc,
              clang::SourceRange Brackets);
  void problem(clang::SourceLocation Loc, Msg Message,
               std::optional<Msg> Note = std::nullopt);

  void recordRegion(const clang::Stmt *S, clang::SourceLocation Loc,
                    clang::SourceRange Brackets);

  llvm::DenseMap<clang::SourceLocation, LoopAnnotation> Loops;
  std::vector<RegionAnnotation> Regions;
  std::vector<AttrProblem> Problems;

private:
  AnnotationCollector *Previous;
};

/// Called once from the plugin entry point; registration is static, this
/// only anchors the object file.
void registerAttributes();

} // namespace soaview

#endif
