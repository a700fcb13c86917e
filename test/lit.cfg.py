# lit configuration of the soaview test suite (see docs/testing.md).
import glob
import os
import shutil
import lit.formats

config.name = "soaview"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "Unit", "GPU", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.soaview_obj_root, "test")

bin_dir = os.path.join(config.soaview_obj_root, "bin")
lib_dir = os.path.join(config.soaview_obj_root, "lib")
plugin = os.path.join(lib_dir, "soaview.so")
inc = os.path.join(config.soaview_src_root, "runtime", "include")

# A sanitizer build (-DSOAVIEW_SANITIZE=ON): the stock clang loads an
# instrumented plugin and converted programs link an instrumented runtime, so
# the ASan/UBSan runtime is preloaded into every process of the suite.
# allow_user_poisoning=0: LLVM's headers poison a new slab of the AST's bump
# allocator when the instrumented plugin starts it, and the uninstrumented
# clang never unpoisons what it allocates there; the plugin then reads a
# clang object "after poison" (a false report, at whichever test's
# allocations happen to start a slab in the plugin: it depends even on the
# length of the checkout's path). Heap errors are still reported.
if config.sanitize:
    rt = os.path.join(config.resource_dir, "lib", "linux", "libclang_rt.asan-x86_64.so")
    config.environment["LD_PRELOAD"] = rt
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=0:halt_on_error=1:abort_on_error=1:allow_user_poisoning=0")
    config.environment["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    config.available_features.add("sanitizer")

# A compiler cache, for the CMake package's launcher test.
if shutil.which("ccache"):
    config.available_features.add("ccache")

# OpenMP offloading to the host (no GPU needed): Debian's libomptarget has the
# host plugin built in. GPU tests are gated on a visible NVIDIA GPU.
llvm_lib = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
if os.path.exists(os.path.join(llvm_lib, "libomptarget.so")):
    config.available_features.add("offload-host")
if os.path.exists(os.path.join(bin_dir, "soaview-sph")):
    config.available_features.add("sph")
if os.path.exists(os.path.join(bin_dir, "soaview-sph-offload")):
    config.available_features.add("sph-offload")
if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("cuda")
# OpenMP offload to NVIDIA GPUs needs the device runtime, which Debian's
# LLVM 19 packages carry and LLVM 22's do not (docs/install.md).
if glob.glob(os.path.join(llvm_lib, "libomptarget-nvptx*.bc")):
    config.available_features.add("offload-nvptx")
if os.path.exists("/dev/nvidia0") or os.environ.get("SOAVIEW_GPU"):
    config.available_features.add("gpu")
config.substitutions.append(("%llvm_lib", llvm_lib))
# %offload_syntax: an OpenMP compile with an offload target, for syntax-only
# and dump runs (the target reaches only the host compile: no device pass).
config.substitutions.append(
    ("%offload_syntax", "-fopenmp -Xclang -fopenmp-targets=x86_64-pc-linux-gnu"))
config.substitutions.append(
    ("%offload_host_flags",
     "-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -Wl,-rpath," + llvm_lib))

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, bin_dir, config.environment.get("PATH", "")])

# %clangxx: the plain clang++ soaview drives (19 or 22). %soaviewxx: the wrapper. %soaview_cc1: a
# syntax-only compile with the plugin, for -verify and dumps.
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%soaviewxx", os.path.join(bin_dir, "soaview-clang++")))
config.substitutions.append(("%soaview-fuzz", "python3 " + os.path.join(config.soaview_src_root, "tools", "soaview-fuzz.py") + " --plain " + config.clangxx + " --soaview " + os.path.join(bin_dir, "soaview-clang++")))
# test/Fuzz/Inputs/miscompile.py compiles with the same clang.
config.environment["SOAVIEW_TEST_CLANGXX"] = config.clangxx
config.substitutions.append(("%soaview-translate", os.path.join(bin_dir, "soaview-translate")))
config.substitutions.append(
    ("%soaview_verify",
     "%s -fsyntax-only -fplugin=%s -isystem %s -Xclang -verify" % (config.clangxx, plugin, inc)))
# %soaview_cc1: a syntax-only compile with the plugin, nothing verified.
config.substitutions.append(
    ("%soaview_cc1",
     "%s -fsyntax-only -fplugin=%s -isystem %s" % (config.clangxx, plugin, inc)))
config.substitutions.append(
    ("%soaview_dump",
     "%s -fsyntax-only -fplugin=%s -isystem %s -fplugin-arg-soaview-dump=-" % (config.clangxx, plugin, inc)))
# Most tests exercise the conversion of single loops, which the
# profitability rule leaves alone by default: the suite converts every
# annotated loop (SOAVIEW_CONVERT=always, docs/attributes.md).
# test/Rewrite/profitability.cpp checks the default with `env -u`.
config.environment["SOAVIEW_CONVERT"] = "always"
# Dumps of a test file contain its own CHECK lines: drop them before FileCheck.
config.substitutions.append(("%nochecks", "grep -v -E '^// *[A-Z][A-Z0-9-]*:'"))
config.substitutions.append(("%soaview_libdir", lib_dir))
# %soaview_rt: the runtime's headers and library, for a plain build of a
# program that calls soaview's runtime itself (soaview::sync).
config.substitutions.append(
    ("%soaview_rt", "-isystem %s -L%s -lsoaview_rt -Wl,-rpath,%s" % (inc, lib_dir, lib_dir)))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%examples", os.path.join(config.soaview_src_root, "examples")))
# The CUDA backend: nvcc with what `soaview-config --cflags` and `--libs`
# print (test/Offload/cuda*.test; compiled here, run on the GPU node).
config.substitutions.append(
    ("%nvcc_soaview",
     "/usr/local/cuda/bin/nvcc -arch=sm_90 -std=c++17 --extended-lambda "
     "--expt-relaxed-constexpr -I%s" % inc))
config.substitutions.append(
    ("%soaview_cuda_libs", "-L%s -lsoaview_rt -Xlinker -rpath=%s" % (lib_dir, lib_dir)))
config.substitutions.append(("%soaview_objroot", config.soaview_obj_root))
# clang-format of the LLVM soaview is built against (test/Format).
config.substitutions.append(
    ("%clang_format", os.path.join(config.llvm_tools_dir, "clang-format")))
if os.path.exists(os.path.join(bin_dir, "soaview-sph-cuda")):
    config.available_features.add("sph-cuda")
# The MPI build of the SPH demonstrator (Open MPI, tools/setup.sh). CI runs as
# root, which mpirun refuses without --allow-run-as-root; --oversubscribe lets
# more ranks than cores start, and --bind-to none lets each rank's OpenMP
# threads use every core (Open MPI binds a rank to one core by default).
mpirun = shutil.which("mpirun")
if mpirun:
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun", mpirun + " --allow-run-as-root --oversubscribe --bind-to none"))
if os.path.exists(os.path.join(bin_dir, "soaview-sph-mpi")):
    config.available_features.add("sph-mpi")
if os.path.exists(os.path.join(bin_dir, "soaview-sph-mpi-cuda")):
    config.available_features.add("sph-mpi-cuda")
config.substitutions.append(("%check-layers", "python3 " + os.path.join(config.soaview_src_root, "tools", "check-layers.py")))
config.substitutions.append(("%check-diagnostics", "python3 " + os.path.join(config.soaview_src_root, "tools", "check-diagnostics.py")))
# tools/run-tests.sh collects which diagnostics -verify tests report.
if "SOAVIEW_DIAG_COVERAGE" in os.environ:
    config.environment["SOAVIEW_DIAG_COVERAGE"] = os.environ["SOAVIEW_DIAG_COVERAGE"]
config.substitutions.append(("%compare", "python3 " + os.path.join(config.soaview_src_root, "tools", "soaview-compare.py")))
