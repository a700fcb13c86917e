//===- ViewGroups.h - which loops of a nest share a view ---------*- C++
//-*-===//
//
// The plan's grouping of a nest's loops into views (emit/Views.h writes
// one proxy per group): the loops over one element type share one view,
// each with a constructor from its own spec, unless a loop would leave a
// member of the others unset whose type cannot be left so.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_VIEWGROUPS_H
#define SOAVIEW_VIEWGROUPS_H

#include "plan/Plan.h"

#include <map>
#include <set>
#include <vector>

namespace soaview {

/// The loops of a nest that share one view: those over one element type.
struct ViewGroup {
  /// The loop the view is named after (emit/Names.h, view()).
  const LoopPlan *NamedAfter = nullptr;
  /// The loops (indices into NestPlan::Loops), each with the fields it
  /// gathers: its own, widened to a whole record where another loop of the
  /// group uses that record whole.
  std::vector<size_t> Loops;
  std::map<size_t, std::vector<std::pair<FieldPath, LeafAccess>>> Fields;
  /// Every loop's fields, methods and aliases together.
  ViewModel Union;
  /// Some loop of the group runs on a device.
  bool Device = false;
  /// Fields every loop's constructor binds a reference member to, in the
  /// element itself (LoopPlacement::InPlace): no buffer, no write-back.
  std::set<FieldPath> InPlace;
};

/// The group of Nest's loops that loop Loop's view serves.
ViewGroup viewGroupOf(const NestPlan &Nest, size_t Loop);

} // namespace soaview

#endif
