//===- Modes.h - the backend and conversion modes every stage may read ---===//
//
// Chosen by the driver (driver/Options.h, driver/Arguments.h) and read by
// the stages below it: the planner and the emitter take the backend, the
// driver alone the conversion mode.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_MODES_H
#define SOAVIEW_MODES_H

namespace soaview {

/// What offloaded loops become: OpenMP target regions (compiled by clang
/// with -fopenmp and an offload target) or CUDA kernels (the translated file
/// is compiled by nvcc; soaview-translate --backend=cuda).
enum class BackendKind { OpenMP, Cuda };

/// Which annotated loops convert: those the profitability rule says can pay
/// (the default), every one (convert=always, SOAVIEW_CONVERT=always), or
/// none (convert=never: soaview is off and the file compiles as written).
enum class ConvertMode { Profitable, Always, Never };

} // namespace soaview

#endif
