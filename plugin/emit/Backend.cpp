//===- Backend.cpp - host, OpenMP target and CUDA emission ---------------===//
#include "emit/Backend.h"

#include "emit/RuntimeNames.h"

namespace soaview {

namespace {

std::string includeLine(const char *Header) {
  return std::string("#include <") + Header + "> // added by soaview\n";
}

/// The target region of an offloaded loop: the device it runs on (from
/// Source, a device frame or a sweep), then the directive over the loop.
void targetRegion(CodeWriter &W, const std::string &Prefix,
                  const std::string &Source, const std::string &Captures) {
  W.line(fill("const int ${P}dev = ${Source}.device();",
              {{"P", Prefix}, {"Source", Source}}));
  W.directive(fill("#pragma omp target teams distribute parallel for "
                   "firstprivate(${Captures}) device(${P}dev)",
                   {{"Captures", Captures}, {"P", Prefix}}));
}

/// The host: no loop is offloaded, so nothing is marked for the device;
/// a sweep on the host is a plain loop over the local slots. The device
/// backends' facets start from these.
class HostDeclarations : public DeviceDeclarations {
public:
  std::string deviceMark(bool Device) const override { return ""; }
  bool inlineWithAlwaysInline() const override { return false; }
  bool copiesArrays(bool Device) const override { return false; }
  std::string declareTargetBegin(bool Device) const override { return ""; }
  std::string declareTargetEnd(bool Device) const override { return ""; }
  std::string viewsNamespace() const override { return "inline namespace {"; }
  bool marksDeviceFunctions() const override { return false; }
  std::string deviceTable(const DeviceTableCopy &T) const override {
    return "";
  }
  std::string tableReference(const std::string &Host,
                             const std::string &Device) const override {
    return "";
  }
};

class HostLaunches : public LoopLaunches {
public:
  bool bodyIsKernelLambda() const override { return false; }
  void launchPrologue(CodeWriter &W, const std::string &Prefix,
                      const std::string &Captures) const override {}
  std::string launchHeader(const std::string &Prefix,
                           const std::string &Slot) const override {
    return "";
  }
  void sweepLaunchPrologue(CodeWriter &W, const std::string &SweepPrefix,
                           const std::string &Prefix,
                           const std::string &Captures,
                           bool Bare) const override {}
  std::string hostSweepDirective(const std::string &Captures) const override {
    return "";
  }
  std::string sweepLaunchHeader(const std::string &SweepPrefix,
                                const std::string &Prefix,
                                const std::string &Slot,
                                bool Bare) const override {
    return hostSweepHeader(Prefix, Slot);
  }
};

/// Offloaded loops become OpenMP target regions over the device buffers;
/// the views and clones they use are compiled for the device through
/// declare target.
class OpenMPDeclarations : public HostDeclarations {
public:
  std::string declareTargetBegin(bool Device) const override {
    return Device ? "#pragma omp declare target\n" : "";
  }
  std::string declareTargetEnd(bool Device) const override {
    return Device ? "#pragma omp end declare target\n" : "";
  }
  std::string deviceTable(const DeviceTableCopy &T) const override {
    return fill("#pragma omp declare target(${Name})", {{"Name", T.Name}});
  }
};

class OpenMPLaunches : public HostLaunches {
public:
  bool passesPointersApart() const override { return true; }
  void launchPrologue(CodeWriter &W, const std::string &Prefix,
                      const std::string &Captures) const override {
    targetRegion(W, Prefix, Prefix + "device", Captures);
  }
  void sweepLaunchPrologue(CodeWriter &W, const std::string &SweepPrefix,
                           const std::string &Prefix,
                           const std::string &Captures,
                           bool Bare) const override {
    if (!Bare) {
      targetRegion(W, Prefix, SweepPrefix + "sweep", Captures);
      return;
    }
    W.line(fill("const int ${P}dev = ${S}sweep.device();",
                {{"P", Prefix}, {"S", SweepPrefix}}));
    W.line(fill("const int ${P}teams = ${Omp}bare_teams(${P}n, ${P}dev);",
                {{"P", Prefix}, {"Omp", rt::OmpNamespace}}));
    W.directive(fill(
        "#pragma omp target teams ompx_bare num_teams(${P}teams) "
        "thread_limit(${Omp}bare_threads) "
        "firstprivate(${Captures}) device(${P}dev)",
        {{"P", Prefix}, {"Omp", rt::OmpNamespace}, {"Captures", Captures}}));
  }
  std::string sweepLaunchHeader(const std::string &SweepPrefix,
                                const std::string &Prefix,
                                const std::string &Slot,
                                bool Bare) const override {
    if (!Bare)
      return hostSweepHeader(Prefix, Slot);
    return fill("for (std::size_t ${K} = ${Omp}bare_first(); ${K} < ${P}n; "
                "${K} += ${Omp}bare_stride())",
                {{"K", Slot}, {"P", Prefix}, {"Omp", rt::OmpNamespace}});
  }
  std::string hostSweepDirective(const std::string &Captures) const override {
    return fill("#pragma omp parallel for schedule(dynamic, 64) "
                "firstprivate(${Captures})",
                {{"Captures", Captures}});
  }
};

/// The launch whose lambda (the loop's body) runs once per slot.
std::string kernelLambda(const std::string &Launcher, const std::string &Slot) {
  return fill("${Launcher}.launch([=] __device__ (std::size_t ${K})",
              {{"Launcher", Launcher}, {"K", Slot}});
}

/// Offloaded loops become CUDA kernels: the body is a __device__ lambda
/// that the device frame's grid-stride kernel calls once per element
/// (capturing by value); functions it reaches are __host__ __device__.
class CudaDeclarations : public HostDeclarations {
public:
  std::string deviceMark(bool Device) const override {
    return Device ? "__host__ __device__ " : "";
  }
  bool copiesArrays(bool Device) const override { return Device; }
  bool inlineWithAlwaysInline() const override { return true; }

  // nvcc cannot reopen an inline unnamed namespace (its own generated code
  // opens the unnamed namespace first, not inline).
  std::string viewsNamespace() const override { return "namespace {"; }
  bool marksDeviceFunctions() const override { return true; }
  // A table of host memory gets a copy in the device's constant (or global)
  // memory, initialised as the table is; device code reads the copy.
  std::string deviceTable(const DeviceTableCopy &T) const override {
    return fill("${Memory} decltype(${Name}) ${Device}${Init}; // ${Name} "
                "for device code, added by soaview",
                {{"Memory", T.Constant ? "__constant__" : "__device__"},
                 {"Name", T.Name},
                 {"Device", T.DeviceName},
                 {"Init", T.Init}});
  }
  std::string tableReference(const std::string &Host,
                             const std::string &Device) const override {
    return fill(
        "${Macro}(${Host}, ${Device})",
        {{"Macro", rt::DeviceTable}, {"Host", Host}, {"Device", Device}});
  }
};

class CudaLaunches : public HostLaunches {
public:
  bool bodyIsKernelLambda() const override { return true; }
  std::string launchHeader(const std::string &Prefix,
                           const std::string &Slot) const override {
    return kernelLambda(Prefix + "device", Slot);
  }
  std::string sweepLaunchHeader(const std::string &SweepPrefix,
                                const std::string &Prefix,
                                const std::string &Slot,
                                bool Bare) const override {
    return kernelLambda(SweepPrefix + "sweep", Slot);
  }
};

} // namespace

std::string OffloadRuntime::includes(bool AnyOffload, bool AnyHeap,
                                     bool AnyHostSweep) const {
  return includeLine(rt::Header) +
         (AnyHostSweep ? includeLine(rt::SweepHeader) : "") +
         (AnyOffload && OffloadHeader ? includeLine(OffloadHeader) : "") +
         (AnyHeap && HeapHeader ? includeLine(HeapHeader) : "");
}

std::string hostSweepHeader(const std::string &Prefix,
                            const std::string &Slot) {
  return fill("for (std::size_t ${K} = 0; ${K} < ${P}n; ++${K})",
              {{"K", Slot}, {"P", Prefix}});
}

std::unique_ptr<Backend> makeBackend(BackendKind Kind, bool OpenMP) {
  if (Kind == BackendKind::Cuda)
    return std::make_unique<Backend>(
        OffloadRuntime{rt::CudaHeader, rt::CudaHeapHeader,
                       "; offloaded (CUDA kernel)", "; offloaded (CUDA kernel)",
                       rt::CudaNamespace},
        std::make_unique<CudaDeclarations>(), std::make_unique<CudaLaunches>());
  if (OpenMP)
    return std::make_unique<Backend>(
        OffloadRuntime{rt::OmpHeader, rt::OmpHeapHeader,
                       "; offloaded (OpenMP target)", "; offloaded",
                       rt::OmpNamespace},
        std::make_unique<OpenMPDeclarations>(),
        std::make_unique<OpenMPLaunches>());
  return std::make_unique<Backend>(OffloadRuntime{},
                                   std::make_unique<HostDeclarations>(),
                                   std::make_unique<HostLaunches>());
}

} // namespace soaview
