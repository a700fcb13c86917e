#!/usr/bin/env bash
# Builds the GPU checks and benchmarks here (the GPU node has no clang) and
# packs them with the LLVM 19 offload runtime and Open MPI (for the MPI
# build of the SPH demonstrator) into gpu-bundle/, which
# tools/gpu/run-gpu.sh runs on the node:
#   device run --carry gpu-bundle -- bash tools/gpu/run-gpu.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${SOAVIEW_BUILD:-$root/build}"
bundle="$root/gpu-bundle"
bash "$root/tools/setup.sh" "$build" >/dev/null
rm -rf "$bundle" && mkdir -p "$bundle/bin" "$bundle/lib"
sv="$build/bin/soaview-clang++"
arch="--offload-arch=sm_90"
# Bit-for-bit comparisons need the same rounding on CPU and GPU: no FMA
# contraction in these builds (docs/offload.md).
strict="-O2 -ffp-contract=off"
ex="$root/examples/small"
clang++-19 $strict -fopenmp -Wno-unknown-attributes "$ex/offload.cpp" -o "$bundle/bin/offload.plain"
"$sv" $strict -fopenmp $arch "$ex/offload.cpp" -o "$bundle/bin/offload.gpu"
clang++-19 $strict -fopenmp -Wno-unknown-attributes "$ex/offload_sweep.cpp" -o "$bundle/bin/sweep.plain"
"$sv" $strict -fopenmp $arch "$ex/offload_sweep.cpp" -o "$bundle/bin/sweep.gpu"
clang++-19 $strict -fopenmp -Wno-unknown-attributes "$ex/offload_region.cpp" -o "$bundle/bin/region.plain"
"$sv" $strict -fopenmp $arch "$ex/offload_region.cpp" -o "$bundle/bin/region.gpu"
# A region across an exchange (soaview::sync); its plain build calls the
# runtime's sync too.
clang++-19 $strict -fopenmp -Wno-unknown-attributes -isystem "$root/runtime/include" \
  "$ex/region_exchange.cpp" -L"$build/lib" -lsoaview_rt -o "$bundle/bin/exchange.plain"
"$sv" $strict -fopenmp $arch "$ex/region_exchange.cpp" -o "$bundle/bin/exchange.gpu"
# Two devices in one process (test/GPU/devices.test).
devices="$root/test/Offload/Inputs/two_devices.cpp"
clang++-19 $strict -Wno-unknown-attributes "$devices" -o "$bundle/bin/two_devices.plain"
"$sv" $strict -fopenmp $arch "$devices" -o "$bundle/bin/two_devices.gpu"
"$sv" -O2 -fopenmp $arch -I"$root/runtime/include" "$root/test/Unit/omp_pool_test.cpp" -o "$bundle/bin/omp_pool_test.gpu"
"$sv" -O3 -fopenmp $arch "$root/examples/bench/offload_bench.cpp" -o "$bundle/bin/offload_bench.gpu"
# The SPH demonstrator with its offload build for the GPU. Every build is
# compiled here for x86-64-v3 (AVX2, FMA), which the node's CPU has (the
# local CMake build may use AVX-512): the CPU builds with CMake's other
# flags, the offload kernels for sm_90 (code-generation flags for the host
# side only).
sph="$root/examples/sph"
rtinc="-isystem $root/runtime/include"
march="-Xarch_host -march=x86-64-v3"
tmp="$(mktemp -d)"
for fp in strict fast; do
  fpflags="-O3 -ffp-contract=off"; [ "$fp" = fast ] && fpflags="-O3 -ffast-math"
  cpu="$fpflags -march=x86-64-v3 -Wno-unknown-attributes -std=c++17 $rtinc"
  clang++-19 $cpu -DSPH_NS=plain_$fp -c "$sph/kernels.cpp" -o "$tmp/plain_$fp.o"
  "$sv" $cpu -DSPH_NS=soaview_$fp -c "$sph/kernels.cpp" -o "$tmp/soaview_$fp.o"
  clang++-19 $cpu -DSPH_NS=manual_$fp -c "$sph/manual.cpp" -o "$tmp/manual_$fp.o"
  # The build "region": the step's view region swept on the CPU threads.
  "$sv" $cpu -fopenmp -DSPH_NS=region_$fp -c "$sph/kernels.cpp" -o "$tmp/region_$fp.o"
  "$sv" $fpflags $march -fopenmp $arch -Wno-unknown-attributes -DSPH_NS=offload_$fp \
    -c "$sph/kernels.cpp" -o "$tmp/offload_$fp.o"
done
# The CUDA backend's builds of the SPH kernels, as examples/sph/CMakeLists.txt
# makes them (translated, then nvcc; no -march for GCC, which would contract
# to FMA on the host side of the strict build).
cudart="/usr/local/cuda/lib64/libcudart_static.a"
for fp in strict fast; do
  nvfp="--fmad=false"; [ "$fp" = fast ] && nvfp="--use_fast_math"
  "$build/bin/soaview-translate" --backend=cuda "$sph/kernels.cpp" -o "$tmp/cuda_$fp.cu" -- -std=c++17 -DSPH_NS=cuda_$fp
  /usr/local/cuda/bin/nvcc -arch=sm_90 -O3 -std=c++17 --extended-lambda --expt-relaxed-constexpr $nvfp \
    -Xcompiler -fopenmp -I"$root/runtime/include" -I"$sph" -DSPH_NS=cuda_$fp \
    -c "$tmp/cuda_$fp.cu" -o "$tmp/cuda_$fp.o"
  # The hand-written CUDA sweeps (build manual-cuda-sweep).
  /usr/local/cuda/bin/nvcc -arch=sm_90 -O3 -std=c++17 $nvfp -Xcompiler -fopenmp \
    -I"$root/runtime/include" -I"$sph" -DSPH_NS=cuda_manual_$fp \
    -c "$sph/manual_cuda.cu" -o "$tmp/cuda_manual_$fp.o"
done
"$sv" -O2 -fopenmp $arch -DSPH_WITH_OFFLOAD -DSPH_WITH_CUDA -c "$sph/main.cpp" -o "$tmp/main.o"
"$sv" -fopenmp $arch "$tmp/main.o" "$tmp/offload_strict.o" "$tmp/offload_fast.o" \
  "$tmp"/cuda_{strict,fast}.o "$tmp"/cuda_manual_{strict,fast}.o \
  "$tmp"/{plain,soaview,manual,region}_{strict,fast}.o "$cudart" -ldl -lrt \
  -o "$bundle/bin/soaview-sph.gpu"
# The MPI build of the time step (examples/sph/mpi.cpp: the sweep and
# region builds of both backends, a GPU per rank) from the same objects, both backends in one
# binary as soaview-sph.gpu; MPI's flags for mpi.cpp only, libmpi from the
# bundle's Open MPI (below) on the node.
"$sv" -O2 -fopenmp -DSPH_WITH_OFFLOAD -DSPH_WITH_CUDA -DOMPI_SKIP_MPICXX \
  $(mpicxx --showme:compile) -isystem /usr/local/cuda/include \
  -c "$sph/mpi.cpp" -o "$tmp/mpi.o"
"$sv" -fopenmp $arch "$tmp/mpi.o" "$tmp/offload_strict.o" "$tmp/offload_fast.o" \
  "$tmp"/cuda_{strict,fast}.o "$tmp"/{plain,soaview,manual,region}_{strict,fast}.o "$cudart" \
  $(mpicxx --showme:libdirs | sed 's/^/-L/; s/ / -L/g') -lmpi -ldl -lrt \
  -o "$bundle/bin/soaview-sph-mpi.gpu"
rm -rf "$tmp"

# The CUDA backend (soaview-translate --backend=cuda, nvcc): the offload
# examples (no FMA contraction, so that results compare bit for bit with
# the plain CPU builds), the backend's unit test, and the backend benchmark
# (generated CUDA, the OpenMP backend and hand-written CUDA of one loop).
nvcc="/usr/local/cuda/bin/nvcc -arch=sm_90 $("$build/bin/soaview-config" --cflags)"
nvlibs="$("$build/bin/soaview-config" --libs)"
tr="$build/bin/soaview-translate --backend=cuda"
cu="$(mktemp -d)"
clang++-19 $strict -fopenmp -Wno-unknown-attributes "$ex/offload_pairs.cpp" -o "$bundle/bin/pairs.plain"
$tr "$ex/offload.cpp" -o "$cu/offload.cu" -- -std=c++17 -I"$ex"
$tr "$ex/offload_pairs.cpp" -o "$cu/pairs.cu" -- -std=c++17 -I"$ex"
$nvcc -O2 --fmad=false -I"$ex" "$cu/offload.cu" -o "$bundle/bin/offload.cuda" $nvlibs
$nvcc -O2 --fmad=false -I"$ex" "$cu/pairs.cu" -o "$bundle/bin/pairs.cuda" $nvlibs
$tr "$ex/offload_sweep.cpp" -o "$cu/sweep.cu" -- -std=c++17 -I"$ex"
$nvcc -O2 --fmad=false -Xcompiler -fopenmp -I"$ex" "$cu/sweep.cu" -o "$bundle/bin/sweep.cuda" $nvlibs
$tr "$ex/offload_region.cpp" -o "$cu/region.cu" -- -std=c++17 -I"$ex"
$nvcc -O2 --fmad=false -Xcompiler -fopenmp -I"$ex" "$cu/region.cu" -o "$bundle/bin/region.cuda" $nvlibs
$tr "$ex/region_exchange.cpp" -o "$cu/exchange.cu" -- -std=c++17 -I"$ex"
$nvcc -O2 --fmad=false -Xcompiler -fopenmp -I"$ex" "$cu/exchange.cu" -o "$bundle/bin/exchange.cuda" $nvlibs
$tr "$devices" -o "$cu/two_devices.cu" -- -std=c++17
$nvcc -O2 --fmad=false "$cu/two_devices.cu" -o "$bundle/bin/two_devices.cuda" $nvlibs
# Constant tables read by offloaded code (test/GPU/tables.test): plain,
# CUDA backend (device copies of the tables), OpenMP backend.
tables="$root/test/Offload/Inputs/tables.cpp"
clang++-19 $strict -Wno-unknown-attributes "$tables" -o "$bundle/bin/tables.plain"
$tr "$tables" -o "$cu/tables.cu" -- -std=c++17
$nvcc -O2 --fmad=false "$cu/tables.cu" -o "$bundle/bin/tables.cuda" $nvlibs
"$sv" $strict -fopenmp $arch "$tables" -o "$bundle/bin/tables.gpu"
# Allocation in an offloaded loop (examples/small/offload_alloc.cpp): routed
# to soaview's device heap (CUDA, OpenMP) and, for comparison, left to CUDA's
# device malloc (--device-heap=off, its heap as large as soaview's).
clang++-19 $strict -fopenmp -Wno-unknown-attributes "$ex/offload_alloc.cpp" -o "$bundle/bin/alloc.plain"
$tr "$ex/offload_alloc.cpp" -o "$cu/alloc.cu" -- -std=c++17 -I"$ex"
$tr --device-heap=off "$ex/offload_alloc.cpp" -o "$cu/alloc_native.cu" -- -std=c++17 -I"$ex"
$nvcc -O2 --fmad=false -I"$ex" "$cu/alloc.cu" -o "$bundle/bin/alloc.cuda" $nvlibs
$nvcc -O2 --fmad=false -I"$ex" "$cu/alloc_native.cu" "$root/tools/gpu/cuda_malloc_limit.cu" \
  -o "$bundle/bin/alloc.cuda-malloc" $nvlibs
"$sv" $strict -fopenmp $arch "$ex/offload_alloc.cpp" -o "$bundle/bin/alloc.gpu"
$nvcc -O2 -I"$root/test/Unit" "$root/test/Unit/cuda_pool_test.cu" -o "$bundle/bin/cuda_pool_test.cuda" $nvlibs
$nvcc -O2 -I"$root/test/Unit" "$root/test/Unit/cuda_heap_test.cu" -o "$bundle/bin/cuda_heap_test.cuda" $nvlibs
$nvcc -O3 "$root/tools/heap-bench/heap_bench.cu" -o "$bundle/bin/soaview-heap-bench" $nvlibs
bench="$root/examples/bench"
$tr "$bench/backend_bench.cpp" -o "$cu/backend_bench.cu" -- -std=c++17 -I"$bench"
$nvcc -O3 -I"$bench" -DBENCH_VARIANT='"cuda"' "$cu/backend_bench.cu" -o "$bundle/bin/backend_bench.cuda" $nvlibs
$nvcc -O3 -I"$bench" "$bench/backend_manual.cu" -o "$bundle/bin/backend_manual.cuda"
"$sv" -O3 -fopenmp $arch -I"$bench" -DBENCH_VARIANT='"openmp"' "$bench/backend_bench.cpp" -o "$bundle/bin/backend_bench.gpu"
rm -rf "$cu"
for b in "$bundle"/bin/*.gpu; do python3 "$root/tools/gpu/patch-cubin.py" --check "$b"; done
cp "$build/lib/libsoaview_rt.so" "$bundle/lib/"
# Open MPI for soaview-sph-mpi.gpu (the node has none), relocatable:
# run-gpu.sh unpacks it and sources tools/gpu/openmpi-env.sh.
bash "$root/tools/gpu/pack-openmpi.sh" "$bundle/openmpi.tar.xz"
# lit itself (pure Python) runs the GPU test suite (test/GPU) on the node.
mkdir -p "$bundle/lit"
cp -r /usr/lib/llvm-19/build/utils/lit/lit /usr/lib/llvm-19/build/utils/lit/lit.py "$bundle/lit/"
# The LLVM 19 offload runtime and what it needs beyond the node's own libc.
bash "$root/tools/gpu/pack-llvm-libs.sh" "$bundle"
# The binaries travel compressed (a run's carry holds 64 MiB at most);
# run-gpu.sh unpacks them on the node.
tar -C "$bundle" -cf - bin | xz -T2 -6 > "$bundle/bin.tar.xz"
rm -rf "$bundle/bin"
du -sh "$bundle"
