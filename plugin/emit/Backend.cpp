//===- Backend.cpp - host, OpenMP target and CUDA emission
//-----------------===//
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

/// Offloaded loops become OpenMP target regions over the device buffers;
/// the views and clones they use are compiled for the device through
/// declare target.
class OpenMPBackend : public Backend {
public:
  const char *offloadHeader() const override { return rt::OmpHeader; }
  const char *heapHeader() const override { return rt::OmpHeapHeader; }
  std::string offloadedRemark() const override {
    return "; offloaded (OpenMP target)";
  }
  std::string offloadedComment() const override { return "; offloaded"; }
  std::string deviceNamespace() const override { return rt::OmpNamespace; }
  std::string declareTargetBegin(bool Device) const override {
    return Device ? "#pragma omp declare target\n" : "";
  }
  std::string declareTargetEnd(bool Device) const override {
    return Device ? "#pragma omp end declare target\n" : "";
  }
  std::string deviceTable(const DeviceTableCopy &T) const override {
    return fill("#pragma omp declare target(${Name})", {{"Name", T.Name}});
  }
  void launchPrologue(CodeWriter &W, const std::string &Prefix,
                      const std::string &Captures) const override {
    targetRegion(W, Prefix, Prefix + "device", Captures);
  }
  void sweepLaunchPrologue(CodeWriter &W, const std::string &SweepPrefix,
                           const std::string &Prefix,
                           const std::string &Captures) const override {
    targetRegion(W, Prefix, SweepPrefix + "sweep", Captures);
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
class CudaBackend : public Backend {
public:
  const char *offloadHeader() const override { return rt::CudaHeader; }
  const char *heapHeader() const override { return rt::CudaHeapHeader; }
  std::string offloadedRemark() const override {
    return "; offloaded (CUDA kernel)";
  }
  std::string offloadedComment() const override {
    return "; offloaded (CUDA kernel)";
  }
  std::string deviceNamespace() const override { return rt::CudaNamespace; }
  std::string deviceMark(bool Device) const override {
    return Device ? "__host__ __device__ " : "";
  }
  bool copiesArrays(bool Device) const override { return Device; }
  bool inlineWithAlwaysInline() const override { return true; }
  bool bodyIsKernelLambda() const override { return true; }
  std::string launchHeader(const std::string &Prefix,
                           const std::string &Slot) const override {
    return kernelLambda(Prefix + "device", Slot);
  }
  std::string sweepLaunchHeader(const std::string &SweepPrefix,
                                const std::string &Prefix,
                                const std::string &Slot) const override {
    return kernelLambda(SweepPrefix + "sweep", Slot);
  }

  // nvcc cannot reopen an inline unnamed namespace (its own generated code
  // opens the unnamed namespace first, not inline).
  std::string viewsNamespace() const override { return "namespace {"; }
  bool plainViewsNamespace() const override { return true; }
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

} // namespace

std::string Backend::includes(bool AnyOffload, bool AnyHeap,
                              bool AnyHostSweep) const {
  return includeLine(rt::Header) +
         (AnyHostSweep ? includeLine(rt::SweepHeader) : "") +
         (AnyOffload && offloadHeader() ? includeLine(offloadHeader()) : "") +
         (AnyHeap && heapHeader() ? includeLine(heapHeader()) : "");
}

std::unique_ptr<Backend> makeBackend(BackendKind Kind, bool OpenMP) {
  if (Kind == BackendKind::Cuda)
    return std::make_unique<CudaBackend>();
  if (OpenMP)
    return std::make_unique<OpenMPBackend>();
  return std::make_unique<Backend>();
}

} // namespace soaview
