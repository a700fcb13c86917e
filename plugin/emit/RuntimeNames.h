//===- RuntimeNames.h - the runtime names generated code uses ---*- C++ -*-===//
//
// One table of every name of runtime/include/soaview/*.h that the emitter
// writes, so that a rename in the runtime is one edit here.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_RUNTIMENAMES_H
#define SOAVIEW_RUNTIMENAMES_H

namespace soaview {
namespace rt {
// Headers (first in the main file).
inline constexpr const char *Header = "soaview/soaview.h";
inline constexpr const char *OmpHeader = "soaview/omp.h";
inline constexpr const char *CudaHeader = "soaview/cuda.h";
inline constexpr const char *OmpHeapHeader = "soaview/heap_omp.h";
inline constexpr const char *CudaHeapHeader = "soaview/heap_cuda.h";
/// How CUDA device code names a constant table's device copy (cuda.h).
inline constexpr const char *DeviceTable = "SOAVIEW_DEVICE_TABLE";
inline constexpr const char *SweepHeader = "soaview/sweep.h";
// soaview.h
inline constexpr const char *Site = "::soaview::site";
inline constexpr const char *Region = "::soaview::region";
inline constexpr const char *RegionListsKept = "::soaview::region_lists::kept";
inline constexpr const char *RegionSync = "::soaview::region_sync";
inline constexpr const char *Frame = "::soaview::frame";
inline constexpr const char *PackedFrame = "::soaview::packed_frame";
inline constexpr const char *Arena = "::soaview::arena";
inline constexpr const char *OutSlot = "::soaview::out_slot";
inline constexpr const char *Identity = "::soaview::identity";
/// On every clone: a view is the loop's values for one iteration, which
/// the compiler keeps in registers only where the function receiving it is
/// inlined (a call that is not must build it in memory).
inline constexpr const char *AlwaysInline = "__attribute__((always_inline))";
inline constexpr const char *ExactType = "::soaview::exact_type";
inline constexpr const char *ExactPointee = "::soaview::exact_pointee";
inline constexpr const char *PaysOff = "::soaview::pays_off";
// gate.h
inline constexpr const char *Gate = "::soaview::gate";
inline constexpr const char *Trial = "::soaview::trial";
/// soaview::min_pairs_per_element (soaview/frame.h), for the remark.
inline constexpr unsigned MinPairsPerElement = 48;
inline constexpr const char *RangeSize = "::soaview::range_size";
inline constexpr const char *TripCount = "::soaview::trip_count";
inline constexpr const char *CopyArray = "::soaview::copy_array";
inline constexpr const char *ElementAt = "::soaview::element_at";
inline constexpr const char *ElementOf = "::soaview::element_of_t";
inline constexpr const char *InstanceKey = "::soaview::instance_key";
inline constexpr const char *ValueKey = "::soaview::value_key";
inline constexpr const char *Pick = "::soaview::pick";
inline constexpr const char *Cursor = "::soaview::cursor";
inline constexpr const char *TargetElement = "::soaview::target_element_t";
inline constexpr const char *IndexShadow = "::soaview::index_shadow";
inline constexpr const char *IndexTrips = "::soaview::index_trips";
inline constexpr const char *IndexSpanAt = "::soaview::index_span_at";
inline constexpr const char *IndexListAt = "::soaview::index_list_at";
inline constexpr const char *Bound = "::soaview::bound";
inline constexpr const char *Iterators = "::soaview::iterators";
inline constexpr const char *WhileValid = "::soaview::while_valid";
// omp.h and cuda.h: the device frames, in their backend's namespace.
inline constexpr const char *OmpNamespace = "::soaview::omp::";
inline constexpr const char *CudaNamespace = "::soaview::cuda::";
inline constexpr const char *HostFrame = "host_frame";
inline constexpr const char *DeviceFrame = "device_frame";
// sweep.h (the sweep class itself is the backend's, in omp.h and cuda.h).
inline constexpr const char *Sweep = "sweep";
inline constexpr const char *HostSweep = "::soaview::host_sweep";
inline constexpr const char *SweepIndex = "::soaview::sweep_index";
/// sweep_index's pointers, in its order (a kernel that takes them apart
/// rebuilds it: emit/Sweeps.cpp; soaview/sweep_index.h asserts the count).
inline constexpr const char *SweepIndexPointers[] = {"cell_of", "run_off",
                                                     "run_start", "run_len"};
inline constexpr const char *RunCursor = "::soaview::run_cursor";
// heap_route.h (with heap_omp.h or heap_cuda.h): allocation routed to the
// device heap, and the scope around a loop that allocates.
inline constexpr const char *HeapNamespace = "::soaview::heap::";
inline constexpr const char *HeapOnDevice = "::soaview::heap::on_device";
inline constexpr const char *HeapDeleteObject =
    "::soaview::heap::delete_object";
inline constexpr const char *HeapDeleteArray = "::soaview::heap::delete_array";
inline constexpr const char *HeapLoopScope = "::soaview::heap::loop_scope";
} // namespace rt
} // namespace soaview

#endif
