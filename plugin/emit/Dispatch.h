//===- Dispatch.h - the nest as written, for other dynamic types -*- C++
//-*-===//
#ifndef SOAVIEW_DISPATCH_H
#define SOAVIEW_DISPATCH_H

#include "emit/EmitContext.h"
#include "plan/Plan.h"

namespace soaview {

/// Before a nest with dispatch guards (NestPlan::Guards): the check of the
/// objects' dynamic types and the nest as written, run when it fails.
bool emitDispatchGuard(EmitContext &Emit, const NestPlan &Nest);

} // namespace soaview

#endif
