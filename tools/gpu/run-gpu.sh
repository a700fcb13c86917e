#!/usr/bin/env bash
# Runs on the GPU node (see build-gpu.sh): unpacks the LLVM offload runtime,
# checks that every offloaded kernel runs on the GPU and that results match
# the CPU build bit for bit, runs the device-pool unit test, then the
# offload benchmark, then the SPH demonstrator's GPU comparison. Results go
# to $OUT. Sections can be picked: run-gpu.sh [checks] [cuda] [bench]
# [phases] [backends] [sph] [sph-cuda] [sph-cpu] (default: all); each command on the
# node may run at most 10 minutes.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bundle="$root/gpu-bundle"
out="${OUT:-/tmp/soaview-gpu}"; mkdir -p "$out"
rt=/tmp/soaview-rt; mkdir -p "$rt/lib"
tar -C "$rt" -xJf "$bundle/llvm-libs.tar.xz"
find "$rt" -name '*.so*' ! -path "$rt/lib/*" -exec sh -c 'for f; do [ -e "$0/$(basename "$f")" ] || cp "$f" "$0/"; done' "$rt/lib" {} +
while read -r name real; do [ -e "$rt/lib/$name" ] || ln -s "$real" "$rt/lib/$name"; done < "$bundle/lib-names.txt"
cp "$bundle/lib/libsoaview_rt.so" "$rt/lib/"
cuda=$(ls /usr/local/nvidia/lib64/libcuda.so.1 2>/dev/null || ldconfig -p | awk '/libcuda.so.1/{print $NF; exit}')
ln -sf "$cuda" "$rt/lib/libcuda.so"
export LD_LIBRARY_PATH="$rt/lib:${LD_LIBRARY_PATH:-}"
export OMP_TARGET_OFFLOAD=MANDATORY
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
sections="${*:-checks cuda bench phases backends sph sph-cuda sph-cpu}"
want() { case " $sections " in *" $1 "*) return 0 ;; esac; return 1; }
pass=0; fail=0
check() { # name plain gpu args...
  local name=$1 plain=$2 gpu=$3; shift 3
  "$bundle/bin/$plain" "$@" > "$out/$name.cpu.txt" 2>&1
  LIBOMPTARGET_INFO=16 "$bundle/bin/$gpu" "$@" > "$out/$name.gpu.log" 2>&1
  grep -v 'info: \|^omptarget' "$out/$name.gpu.log" > "$out/$name.gpu.txt"
  local k; k=$(grep -c 'Launching kernel' "$out/$name.gpu.log")
  if cmp -s "$out/$name.cpu.txt" "$out/$name.gpu.txt" && [ "$k" -gt 0 ]; then
    echo "PASS $name ($k kernel launches on the GPU)"; pass=$((pass + 1))
  else
    echo "FAIL $name ($k kernel launches)"; fail=$((fail + 1)); tail -5 "$out/$name.gpu.log"
  fi
}
if want checks; then
check offload-small offload.plain offload.gpu 1 1000 3
check offload-odd offload.plain offload.gpu 7 17 2
check offload-large offload.plain offload.gpu 5 20000000 2
if "$bundle/bin/omp_pool_test.gpu" > "$out/omp_pool_test.txt" 2>&1; then
  echo "PASS omp_pool_test (device pool on the GPU)"; pass=$((pass + 1))
else
  echo "FAIL omp_pool_test"; fail=$((fail + 1)); tail -5 "$out/omp_pool_test.txt"
fi
echo "$pass passed, $fail failed" | tee "$out/summary.txt"
fi
if want cuda; then
# The CUDA backend: translated programs against the plain CPU builds (bit
# for bit), and its unit test. nsys is not on the node: the kernels' own
# presence is shown by the unit test's device checks.
cucheck() { # name plain cuda args...
  local name=$1 plain=$2 gpu=$3; shift 3
  "$bundle/bin/$plain" "$@" > "$out/$name.cpu.txt" 2>&1
  "$bundle/bin/$gpu" "$@" > "$out/$name.cuda.txt" 2>&1
  if cmp -s "$out/$name.cpu.txt" "$out/$name.cuda.txt"; then
    echo "PASS $name (CUDA backend, identical to the CPU build)"; pass=$((pass + 1))
  else
    echo "FAIL $name"; fail=$((fail + 1)); diff "$out/$name.cpu.txt" "$out/$name.cuda.txt" | head -5
  fi
  rm -f "$out/$name.cpu.txt" "$out/$name.cuda.txt"
}
cucheck cuda-small offload.plain offload.cuda 1 1000 3
cucheck cuda-odd offload.plain offload.cuda 7 17 2
cucheck cuda-empty offload.plain offload.cuda 2 0 1
cucheck cuda-large offload.plain offload.cuda 5 20000000 2
cucheck cuda-pairs pairs.plain pairs.cuda 1 100 2
cucheck cuda-pairs-odd pairs.plain pairs.cuda 3 7 1
cucheck cuda-pairs-large pairs.plain pairs.cuda 2 3000 1
if "$bundle/bin/cuda_pool_test.cuda" > "$out/cuda_pool_test.txt" 2>&1; then
  echo "PASS cuda_pool_test (CUDA device pool, streams, launches)"; pass=$((pass + 1))
else
  echo "FAIL cuda_pool_test"; fail=$((fail + 1)); tail -5 "$out/cuda_pool_test.txt"
fi
echo "$pass passed, $fail failed (with the CUDA backend)" | tee "$out/summary.txt"
fi
if want backends; then
echo "== backend benchmark: generated CUDA vs OpenMP backend vs hand-written CUDA, median of 10 calls"
bsizes="1024 4096 16384 100000 1000000 10000000"
{ "$bundle/bin/backend_bench.cuda" 10 $bsizes
  "$bundle/bin/backend_bench.gpu" 10 $bsizes | tail -n +2
  "$bundle/bin/backend_manual.cuda" 10 $bsizes | tail -n +2; } > "$out/backends.csv" 2> "$out/backends.err"
cat "$out/backends.csv"; tail -3 "$out/backends.err"
fi
sizes="1000 10000 100000 1000000 10000000 100000000"
if want bench; then
echo "== offload benchmark (pool), median of 20 calls"
SOAVIEW_STATS=1 "$bundle/bin/offload_bench.gpu" 20 $sizes > "$out/bench_pool.csv" 2> "$out/bench_pool.stats"
cat "$out/bench_pool.csv" "$out/bench_pool.stats"
echo "== the same, allocating device and host buffers on every call (SOAVIEW_NO_POOL=1)"
small="1000 10000 100000 1000000 10000000"
SOAVIEW_NO_POOL=1 SOAVIEW_STATS=1 "$bundle/bin/offload_bench.gpu" 20 $small > "$out/bench_nopool.csv" 2> "$out/bench_nopool.stats"
cat "$out/bench_nopool.csv" "$out/bench_nopool.stats"
fi
if want phases; then
echo "== phase breakdown per size (SOAVIEW_STATS=2; times include profiling overhead)"
for n in $sizes; do
  echo "-- $n elements"
  SOAVIEW_STATS=2 "$bundle/bin/offload_bench.gpu" 20 $n > /dev/null 2> "$out/bench_phases_$n.stats"
  grep -E "phase|gather|device|kernel|scatter" "$out/bench_phases_$n.stats"
done
fi
if want sph; then
echo "== SPH: density and force, CPU builds on $(nproc) threads vs the offload build on the GPU"
lscpu | grep -E "Model name|^CPU\(s\)" | tee "$out/cpu.txt"
# shellcheck disable=SC2086
"$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --reps 3 --storage scattered \
  ${SPH_GPU_ARGS:---ppc 64,256,1024 --particles 131072 --kernels density,force} \
  --builds soaview,manual,offload \
  --csv "$out/sph_gpu.csv" 2>&1 | tee "$out/sph_gpu.txt" | grep -v "^omptarget\|info:"
fi
if want sph-cuda; then
# The CUDA backend's build in a process of its own: LLVM 19's offload
# runtime refuses pinned buffers next to those of the CUDA runtime
# ("Partial overlapping not allowed in locked buffers"), docs/offload.md.
echo "== SPH: density and force, the CUDA backend's build on the GPU vs the plain build on $(nproc) threads"
# shellcheck disable=SC2086
"$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --reps 3 --storage scattered \
  ${SPH_GPU_ARGS:---ppc 64,256,1024 --particles 131072 --kernels density,force} \
  --builds cuda --csv "$out/sph_cuda.csv" 2>&1 | tee "$out/sph_cuda.txt"
fi
if want sph-cpu; then
echo "== SPH: all kernels, CPU builds (no offload) on $(nproc) threads"
"$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --reps 3 --builds soaview,manual \
  --ppc 64,256,1024 --particles 65536 --storage scattered,contiguous \
  --csv "$out/sph_cpu.csv" > "$out/sph_cpu.txt" 2>&1; tail -3 "$out/sph_cpu.txt"
fi
