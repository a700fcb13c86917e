//===- CudaChecks.h - what a loop offloaded to CUDA may use ------*- C++ -*-===//
//
// The CUDA backend turns an offloaded loop's body into a __device__ lambda
// run by a grid-stride kernel (docs/offload.md). Beyond the rules of every
// offloaded loop (checks/OffloadChecks.cpp) the body may only use values
// that a copy carries to the device, and every function it reaches must be
// compiled for the device. Tests: test/Sema/cuda.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_CUDACHECKS_H
#define SOAVIEW_CUDACHECKS_H

#include "plan/Model.h"

#include <optional>
#include <vector>

namespace clang {
class ASTContext;
}

namespace soaview {
class DiagStore;

/// Checks the offloaded loop P of Nest for the CUDA backend. Returns the
/// user functions the loop reaches that must be marked __host__ __device__,
/// or nullopt (after reporting why) when the loop cannot be translated.
std::optional<std::vector<const clang::FunctionDecl *>>
checkCudaOffload(clang::ASTContext &Ctx, const NestPlan &Nest,
                 const LoopPlan &P, DiagStore &Diags);

/// True when the declaration of FD already carries a device mark:
/// `__device__`, or a macro in its declaration specifiers (such as
/// `MYLIB_HD` expanding to `__host__ __device__` under nvcc), or constexpr
/// (nvcc's --expt-relaxed-constexpr makes those callable on the device).
bool markedForDevice(clang::ASTContext &Ctx, const clang::FunctionDecl *FD);

} // namespace soaview

#endif
