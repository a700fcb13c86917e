//===- CudaChecks.h - what a loop offloaded to CUDA may use ------*- C++
//-*-===//
//
// The CUDA backend turns an offloaded loop's body into a __device__ lambda
// run by a grid-stride kernel (docs/offload.md). Beyond the rules of every
// offloaded loop (checks/OffloadChecks.cpp) the body may only use values
// that a copy carries to the device, and every function it reaches must be
// compiled for the device. Tests: test/Sema/cuda.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_CUDACHECKS_H
#define SOAVIEW_CUDACHECKS_H

#include "plan/Plan.h"

namespace clang {
class ASTContext;
}

namespace soaview {
class DiagStore;

/// Checks the offloaded loop P for the CUDA backend: the function
/// holding it, and what its kernel reaches (P.Reach, planned by
/// plan/DeviceCode.cpp). False after reporting why it cannot be translated.
bool checkCudaOffload(clang::ASTContext &Ctx, const LoopPlan &P,
                      DiagStore &Diags);

} // namespace soaview

#endif
