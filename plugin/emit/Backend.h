//===- Backend.h - where converted loops run, as generated text -*- C++ -*-===//
//
// One interface for the three places a converted loop's code runs: the host
// (every loop that is not offloaded), OpenMP target regions, and CUDA
// kernels. The emitter asks the backend of the translation unit; the host
// backend is the base, and the device backends change what runs on the
// device. Device here means a loop that is offloaded, or the inner loop of
// an offloaded nest (LoopPlan::Offload, LoopPlan::DeviceInner).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_BACKEND_H
#define SOAVIEW_BACKEND_H

#include "emit/CodeWriter.h"
#include "support/Modes.h"

#include <memory>
#include <string>

namespace soaview {

/// A constant table (plan/DeviceCode.cpp, constantTable) and its copy for
/// device code.
struct DeviceTableCopy {
  std::string Name;       ///< the table's, as its definition spells it
  std::string DeviceName; ///< the copy's, declared beside the table
  std::string Init;       ///< its initializer, as written (` = {...}`)
  bool Constant = true;   ///< fits the device's constant memory
};

class Backend {
public:
  virtual ~Backend() = default;

  /// The runtime headers, inserted first in the main file: soaview.h, and
  /// the backend's own header when a loop is offloaded.
  /// AnyHeap adds the backend's device heap (allocation routed there).
  /// AnyHostSweep adds sweep.h (sweeps on the host, in view regions).
  std::string includes(bool AnyOffload, bool AnyHeap, bool AnyHostSweep) const;
  virtual const char *offloadHeader() const { return nullptr; }
  virtual const char *heapHeader() const { return nullptr; }
  /// What the remark of an offloaded loop adds ("; offloaded (...)").
  virtual std::string offloadedRemark() const { return ""; }
  /// What the generated comment before an offloaded loop adds.
  virtual std::string offloadedComment() const { return ""; }
  /// The namespace of the device frames ("::soaview::omp::").
  virtual std::string deviceNamespace() const { return ""; }
  /// The mark of functions that run in device code (view members, the
  /// spec's at(), clones of callees, user functions a kernel reaches).
  virtual std::string deviceMark(bool Device) const { return ""; }
  /// True when always_inline takes effect only on a function declared
  /// `inline` (nvcc ignores it on others, with a warning), so clones say so.
  virtual bool inlineWithAlwaysInline() const { return false; }
  /// True when fixed-size array fields are copied element by element in
  /// device code (memcpy is not available there).
  virtual bool copiesArrays(bool Device) const { return false; }
  /// Text before and after declarations compiled for the device.
  virtual std::string declareTargetBegin(bool Device) const { return ""; }
  virtual std::string declareTargetEnd(bool Device) const { return ""; }
  /// What gives device code its own copy of a constant table, right after
  /// the table's definition ("" where the backend has none).
  virtual std::string deviceTable(const DeviceTableCopy &T) const { return ""; }
  /// How device code names the copy Device where the user's code names the
  /// table as Host ("": as written, the copy has the table's name).
  virtual std::string tableReference(const std::string &Host,
                                     const std::string &Device) const {
    return "";
  }
  /// True when an offloaded loop's body becomes a lambda that a kernel
  /// calls once per element (the loop header becomes the launch).
  virtual bool bodyIsKernelLambda() const { return false; }
  /// The statements before an offloaded loop (Prefix: the loop's name
  /// prefix; Captures: the device buffers the region uses).
  virtual void launchPrologue(CodeWriter &W, const std::string &Prefix,
                              const std::string &Captures) const {}
  /// The header that replaces `for (...)` of an offloaded loop whose body
  /// becomes a lambda over slot Slot.
  virtual std::string launchHeader(const std::string &Prefix,
                                   const std::string &Slot) const {
    return "";
  }
  /// A sweep over cells (emit/Sweeps.cpp): the statements before the
  /// kernel's loop, and the header of the loop over the local slots Slot
  /// (SweepPrefix: the sweep's name prefix; Prefix: the local loop's;
  /// Captures: the device buffers and index the kernel uses).
  virtual void sweepLaunchPrologue(CodeWriter &W,
                                   const std::string &SweepPrefix,
                                   const std::string &Prefix,
                                   const std::string &Captures) const {}
  /// A sweep on the host (a view region's, in a compile that cannot
  /// offload): the directive before its loop over the local slots, whose
  /// header is this class's sweepLaunchHeader (Captures: the buffers and
  /// index the loop reads, private to each thread so that the compiler
  /// keeps them in registers and can vectorise the inner loop).
  virtual std::string hostSweepDirective(const std::string &Captures) const {
    return "";
  }
  virtual std::string sweepLaunchHeader(const std::string &SweepPrefix,
                                        const std::string &Prefix,
                                        const std::string &Slot) const {
    return fill("for (std::size_t ${K} = 0; ${K} < ${P}n; ++${K})",
                {{"K", Slot}, {"P", Prefix}});
  }
  /// How views' unnamed namespace is opened.
  virtual std::string viewsNamespace() const { return "inline namespace {"; }
  /// True when the views' namespace is not inline, so that clones found by
  /// lookup from templates are declared there too.
  virtual bool plainViewsNamespace() const { return false; }
  /// True when user functions reached from device code are marked for it.
  virtual bool marksDeviceFunctions() const { return false; }
};

/// The backend of a translation unit: CUDA when asked for, OpenMP when the
/// compile has -fopenmp, else the host.
std::unique_ptr<Backend> makeBackend(BackendKind Kind, bool OpenMP);

} // namespace soaview

#endif
