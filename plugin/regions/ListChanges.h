//===- ListChanges.h - where a region's code may change a list unseen -*- C++
//-*-===//
//
// A sweep in a view region finds its lists where they were and, unless the
// region's code may change one where neither the region's refusals nor the
// run-time check of the lists' places would see it, skips reading them again
// (soaview::region_lists::kept, docs/offload.md). This is that question, for
// one expression of the region's code, its annotated loops' included.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REGIONS_LISTCHANGES_H
#define SOAVIEW_REGIONS_LISTCHANGES_H

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
class SourceManager;
} // namespace clang

namespace soaview {
class ElementTypes;

namespace regions {

class ListChanges {
public:
  ListChanges(const clang::SourceManager &SM, const ElementTypes &Elements)
      : SM(SM), Elements(Elements) {}

  /// What E may do to a list unseen, for the remark (null: nothing).
  const char *in(const clang::Expr *E) const;

private:
  const char *writeTo(const clang::Expr *LHS) const;
  const char *libraryCall(const clang::CallExpr *Call,
                          const clang::FunctionDecl *FD) const;

  const clang::SourceManager &SM;
  const ElementTypes &Elements;
};

} // namespace regions
} // namespace soaview

#endif
