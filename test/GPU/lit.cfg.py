# The GPU test suite (docs/testing.md): lit tests that run the binaries
# tools/gpu/build-gpu.sh packs into gpu-bundle/ on a machine with an NVIDIA
# GPU. The GPU node has no LLVM tools: tests use only lit's own shell (diff,
# not) and grep. tools/gpu/run-gpu.sh runs this suite on the node with the
# lit sources carried in the bundle; the main suite excludes this directory,
# and everything here REQUIRES the `gpu` feature, which CI never has.
import os
import shutil
import lit.formats

config.name = "soaview-gpu"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.dirname(os.path.dirname(config.test_source_root))
bundle = os.environ.get("SOAVIEW_GPU_BUNDLE", os.path.join(root, "gpu-bundle"))
config.test_exec_root = os.environ.get("SOAVIEW_GPU_OUT", "/tmp/soaview-gpu-lit")
os.makedirs(config.test_exec_root, exist_ok=True)
if os.path.exists("/dev/nvidia0") or shutil.which("nvidia-smi"):
    config.available_features.add("gpu")
# Two GPUs on the node (the nvidia-h100-x2 kind): test/GPU/devices.test.
if os.path.exists("/dev/nvidia1"):
    config.available_features.add("gpus-2")
config.substitutions.append(("%bin", os.path.join(bundle, "bin")))
for var in ("LD_LIBRARY_PATH", "PATH", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Offloaded OpenMP regions must run on the device, never fall back.
config.environment["OMP_TARGET_OFFLOAD"] = "MANDATORY"
