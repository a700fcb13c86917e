//===- Backend.h - where converted loops run, as generated text -*- C++ -*-===//
//
// What changes with the three places a converted loop's code runs: the host
// (every loop that is not offloaded), OpenMP target regions, and CUDA
// kernels. The emitter asks the backend of the translation unit, which holds
// three facets: the runtime generated code includes and names
// (OffloadRuntime, plain data), how code compiled for the device is marked
// and declared (DeviceDeclarations), and how offloaded loops and sweeps
// launch (LoopLaunches), the last two small interfaces that host, OpenMP and
// CUDA implement; the device backends change what runs on the device.
// Device here means a loop that is offloaded, or the inner loop of an
// offloaded nest (LoopPlan::Offload, LoopPlan::DeviceInner).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_BACKEND_H
#define SOAVIEW_BACKEND_H

#include "emit/CodeWriter.h"
#include "support/Modes.h"

#include <memory>
#include <string>
#include <utility>

namespace soaview {

/// A constant table (plan/DeviceCode.cpp, constantTable) and its copy for
/// device code.
struct DeviceTableCopy {
  std::string Name;       ///< the table's, as its definition spells it
  std::string DeviceName; ///< the copy's, declared beside the table
  std::string Init;       ///< its initializer, as written (` = {...}`)
  bool Constant = true;   ///< fits the device's constant memory
};

/// The runtime generated code uses: the headers it includes, the namespace
/// of its device frames, and how remarks and comments name offloading.
/// Plain data, one per backend (the host's: all empty).
struct OffloadRuntime {
  /// The runtime headers, inserted first in the main file: soaview.h, and
  /// the backend's own header when a loop is offloaded.
  /// AnyHeap adds the backend's device heap (allocation routed there).
  /// AnyHostSweep adds sweep.h (sweeps on the host, in view regions).
  std::string includes(bool AnyOffload, bool AnyHeap, bool AnyHostSweep) const;

  const char *OffloadHeader = nullptr; ///< the backend's header, if any
  const char *HeapHeader = nullptr;    ///< its device heap's, if any
  /// What the remark of an offloaded loop adds ("; offloaded (...)").
  std::string OffloadedRemark;
  /// What the generated comment before an offloaded loop adds.
  std::string OffloadedComment;
  /// The namespace of the device frames ("::soaview::omp::").
  std::string DeviceNamespace;
};

/// How code compiled for the device (views, clones, the functions a kernel
/// reaches, constant tables) is marked and declared.
class DeviceDeclarations {
public:
  virtual ~DeviceDeclarations() = default;

  /// The mark of functions that run in device code (view members, the
  /// spec's at(), clones of callees, user functions a kernel reaches).
  virtual std::string deviceMark(bool Device) const = 0;
  /// True when always_inline takes effect only on a function declared
  /// `inline` (nvcc ignores it on others, with a warning), so clones say so.
  virtual bool inlineWithAlwaysInline() const = 0;
  /// True when fixed-size array fields are copied element by element in
  /// device code (memcpy is not available there).
  virtual bool copiesArrays(bool Device) const = 0;
  /// Text before and after declarations compiled for the device.
  virtual std::string declareTargetBegin(bool Device) const = 0;
  virtual std::string declareTargetEnd(bool Device) const = 0;
  /// How views' unnamed namespace is opened.
  virtual std::string viewsNamespace() const = 0;
  /// True when user functions reached from device code are marked for it.
  virtual bool marksDeviceFunctions() const = 0;
  /// What gives device code its own copy of a constant table, right after
  /// the table's definition ("" where the backend has none).
  virtual std::string deviceTable(const DeviceTableCopy &T) const = 0;
  /// How device code names the copy Device where the user's code names the
  /// table as Host ("": as written, the copy has the table's name).
  virtual std::string tableReference(const std::string &Host,
                                     const std::string &Device) const = 0;
};

/// How an offloaded loop, and a sweep over cells, start: the statements
/// before the loop and the header that replaces its `for (...)`.
class LoopLaunches {
public:
  virtual ~LoopLaunches() = default;

  /// True when an offloaded loop's body becomes a lambda that a kernel
  /// calls once per element (the loop header becomes the launch).
  virtual bool bodyIsKernelLambda() const = 0;
  /// True when a kernel should take each device pointer as an argument of
  /// its own rather than structs of them (OpenMP passes a struct through
  /// device memory, where every use of a pointer reloads it and holds a
  /// register; a scalar argument stays in the kernel's parameters).
  virtual bool passesPointersApart() const { return false; }
  /// The statements before an offloaded loop (Prefix: the loop's name
  /// prefix; Captures: the device buffers the region uses).
  virtual void launchPrologue(CodeWriter &W, const std::string &Prefix,
                              const std::string &Captures) const = 0;
  /// The header that replaces `for (...)` of an offloaded loop whose body
  /// becomes a lambda over slot Slot.
  virtual std::string launchHeader(const std::string &Prefix,
                                   const std::string &Slot) const = 0;
  /// A sweep over cells (emit/Sweeps.cpp): the statements before the
  /// kernel's loop, and the header of the loop over the local slots Slot
  /// (SweepPrefix: the sweep's name prefix; Prefix: the local loop's;
  /// Captures: the device buffers and index the kernel uses; Bare: the
  /// kernel's code uses nothing of OpenMP, so that an OpenMP kernel can
  /// run without its device runtime, soaview/omp_bare.h).
  virtual void sweepLaunchPrologue(CodeWriter &W,
                                   const std::string &SweepPrefix,
                                   const std::string &Prefix,
                                   const std::string &Captures,
                                   bool Bare) const = 0;
  /// A sweep on the host (a view region's, in a compile that cannot
  /// offload): the directive before its loop over the local slots, whose
  /// header is hostSweepHeader (Captures: the buffers and index the loop
  /// reads, private to each thread so that the compiler keeps them in
  /// registers and can vectorise the inner loop).
  virtual std::string hostSweepDirective(const std::string &Captures) const = 0;
  virtual std::string sweepLaunchHeader(const std::string &SweepPrefix,
                                        const std::string &Prefix,
                                        const std::string &Slot,
                                        bool Bare) const = 0;
};

/// The header of a sweep's loop over the local slots Slot on the host (the
/// host's sweepLaunchHeader, and every backend's for a sweep on the host).
std::string hostSweepHeader(const std::string &Prefix, const std::string &Slot);

/// The backend of a translation unit: its three facets.
class Backend {
public:
  Backend(OffloadRuntime Runtime,
          std::unique_ptr<DeviceDeclarations> Declarations,
          std::unique_ptr<LoopLaunches> Launches)
      : Runtime(std::move(Runtime)), Declarations(std::move(Declarations)),
        Launches(std::move(Launches)) {}

  const OffloadRuntime &runtime() const { return Runtime; }
  const DeviceDeclarations &declarations() const { return *Declarations; }
  const LoopLaunches &launches() const { return *Launches; }

private:
  OffloadRuntime Runtime;
  std::unique_ptr<DeviceDeclarations> Declarations;
  std::unique_ptr<LoopLaunches> Launches;
};

/// The backend of a translation unit: CUDA when asked for, OpenMP when the
/// compile has -fopenmp, else the host.
std::unique_ptr<Backend> makeBackend(BackendKind Kind, bool OpenMP);

} // namespace soaview

#endif
