//===- DeviceCode.h - the code an offloaded loop runs -----------*- C++ -*-===//
//
// Planning of device code: the allocation an offloaded loop's code does (to
// be routed to soaview's device heap) and, for the CUDA backend, every user
// function its kernel reaches and what the kernel uses that only the host
// has. Found here, judged by checks/HeapChecks.cpp and checks/CudaChecks.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_DEVICECODE_H
#define SOAVIEW_DEVICECODE_H

#include "plan/Plan.h"

namespace clang {
class ASTContext;
}

namespace soaview {

/// The allocation in Body and everything it reaches (HeapUse).
HeapUse findHeapUse(clang::ASTContext &Ctx, const clang::Stmt *Body);

/// What the kernel of Nest's offloaded loop P runs (DeviceReach); Nest's
/// heap routes are already planned (the placement arguments they replace
/// are not compiled for the device).
DeviceReach reachDeviceCode(clang::ASTContext &Ctx, const NestPlan &Nest,
                            const LoopPlan &P);

/// True when the declaration of FD already carries a device mark:
/// `__device__`, or a macro in its declaration specifiers (such as
/// `MYLIB_HD` expanding to `__host__ __device__` under nvcc), or constexpr
/// (nvcc's --expt-relaxed-constexpr makes those callable on the device).
bool markedForDevice(clang::ASTContext &Ctx, const clang::FunctionDecl *FD);

} // namespace soaview

#endif
