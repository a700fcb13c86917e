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

#include <vector>

namespace soaview {

/// Every group of Nest's loops, in the order of their first loops (the
/// plan's NestPlan::Views).
std::vector<ViewGroup> viewGroups(const NestPlan &Nest);

} // namespace soaview

#endif
