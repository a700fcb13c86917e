//===- Instances.h - one template loop, several instantiations --*- C++ -*-===//
//
// A loop's text, views included, is shared by the instantiations of its
// template. Where instantiations with one element type use different fields
// or member functions, each distinct use gets a view of its own, picked by
// the template's arguments (the loop is keyed); elsewhere every
// instantiation must use the same (the view of one location and element type
// is one type). The first pass surveys the nests of instantiations before it
// emits anything, then places each nest it converts.
// Tests: test/Rewrite/template-instances.cpp, test/Sema/templates.cpp,
// test/Exec/constructs/explicit-instantiations.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_INSTANCES_H
#define SOAVIEW_INSTANCES_H

#include "diag/Diagnostics.h"
#include "plan/Plan.h"

#include "clang/Basic/SourceLocation.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
}

namespace soaview {

class TemplateInstances {
public:
  explicit TemplateInstances(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// Before anything is emitted: given the plans of the nests in template
  /// instantiations, the loops whose instantiations with the same element
  /// types use different fields become keyed.
  void survey(const std::vector<NestPlan> &Plans);
  /// Numbers a keyed nest's use among its loop's (LoopPlan::Use, Keyed);
  /// false, reporting into D, when the instantiation cannot share its
  /// loop's text with those placed before.
  bool place(NestPlan &Nest, DiagStore &D);

private:
  bool keyable(const NestPlan &Nest, DiagStore &D) const;
  bool sameAsOthers(const NestPlan &Nest, DiagStore &D, bool FormOnly = false);

  clang::ASTContext &Ctx;
  /// By loop location and element type: what the first instantiation's
  /// view uses, and where that instantiation was made.
  std::map<std::pair<unsigned, std::string>,
           std::pair<std::string, clang::SourceLocation>>
      ViewsAt;
  /// The loops (by location) whose spec is picked by their template's
  /// arguments too, and by loop the distinct uses of the nests holding it:
  /// an instantiation's view is its uses' index.
  std::set<unsigned> KeyedLoops;
  std::map<unsigned, std::vector<std::string>> UsesAt;
};

} // namespace soaview

#endif
