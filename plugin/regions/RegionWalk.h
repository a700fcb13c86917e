//===- RegionWalk.h - the walk over what a view region runs ------*- C++
//-*-===//
//
// What a view region runs: its statements, and the bodies of the functions
// they call, construct or destroy with, wherever the translation unit has
// them. Both passes of the region stage (Regions.cpp) are this walk: the
// first (LoopCollector) stops at the annotated loops and collects them, the
// second (RegionChecker, RegionChecks.h) walks into them too and judges every
// expression. The passes differ only in the hooks below.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REGIONS_REGIONWALK_H
#define SOAVIEW_REGIONS_REGIONWALK_H

#include "diag/Diagnostics.h"
#include "support/Reach.h"

#include "clang/AST/Type.h"
#include "clang/Basic/SourceLocation.h"

#include <set>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class SourceManager;
class Stmt;
} // namespace clang

namespace soaview {
class AnnotationCollector;
struct LoopAnnotation;

namespace regions {

class RegionWalk {
public:
  RegionWalk(clang::ASTContext &Ctx, const AnnotationCollector &Annotated);
  virtual ~RegionWalk() = default;
  RegionWalk(const RegionWalk &) = delete;
  RegionWalk &operator=(const RegionWalk &) = delete;

  /// Walks S and what it runs, each function's body once (per inside or
  /// outside the annotated loops).
  void walk(const clang::Stmt *S);
  /// The annotation of loop S (null: S is not an annotated loop).
  const LoopAnnotation *annotation(const clang::Stmt *S) const;

protected:
  /// At an annotated loop: whether to walk into it (InLoop counts the
  /// annotated loops the walk is in).
  virtual bool entersLoop(const clang::Stmt *Loop, const LoopAnnotation &A) = 0;
  /// At an OpenMP directive outside the annotated loops (not walked into).
  virtual void directive(const clang::Stmt *S) {}
  /// At each expression walked; false: a call there is not followed.
  virtual bool visit(const clang::Expr *E) { return true; }
  /// At code the walk cannot follow (no body, a pointer, a virtual call):
  /// M says what it is, Note how to write it instead.
  virtual void unseen(clang::SourceLocation L, const Msg &M, const Msg &Note) {}

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  /// Inside an annotated loop: its nest's analysis refuses what it must.
  int InLoop = 0;
  std::vector<clang::SourceLocation> Through; ///< the calls that led here

private:
  /// A function definition the walk enters, and the code that runs it.
  struct Entry {
    const clang::FunctionDecl *Def;
    clang::SourceLocation From;
  };
  void follow(const clang::CallExpr *Call);
  void followFunction(const clang::FunctionDecl *FD, clang::SourceLocation L);
  void read(const Entry &E);
  bool virtualDelete(const clang::Stmt *S);

  const AnnotationCollector &Annotated;
  /// A statement runs the destructors of its temporaries and locals (a
  /// library class's: those of the user classes it holds).
  const RunRule Runs{DestructorRule::UserClasses,
                     /*ConstructedDestroyed=*/false,
                     /*TemporariesDestroyed=*/true, /*LocalsDestroyed=*/true};
  /// Depth first, where met: Through is the path.
  ReachedFunctions<std::pair<const clang::FunctionDecl *, bool>, Entry> Reach;
};

} // namespace regions
} // namespace soaview

#endif
