#!/usr/bin/env bash
# Runs on the GPU node (see build-gpu.sh): unpacks the LLVM offload runtime,
# checks that every offloaded kernel runs on the GPU and that results match
# the CPU build bit for bit, runs the device-pool unit test, then the
# offload benchmark. Results go to $OUT.
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
check offload-small offload.plain offload.gpu 1 1000 3
check offload-odd offload.plain offload.gpu 7 17 2
check offload-large offload.plain offload.gpu 5 20000000 2
if "$bundle/bin/omp_pool_test.gpu" > "$out/omp_pool_test.txt" 2>&1; then
  echo "PASS omp_pool_test (device pool on the GPU)"; pass=$((pass + 1))
else
  echo "FAIL omp_pool_test"; fail=$((fail + 1)); tail -5 "$out/omp_pool_test.txt"
fi
echo "$pass passed, $fail failed" | tee "$out/summary.txt"
sizes="1000 10000 100000 1000000 10000000 100000000"
echo "== offload benchmark (pool), median of 20 calls"
SOAVIEW_STATS=1 "$bundle/bin/offload_bench.gpu" 20 $sizes > "$out/bench_pool.csv" 2> "$out/bench_pool.stats"
cat "$out/bench_pool.csv" "$out/bench_pool.stats"
echo "== the same, allocating device and host buffers on every call (SOAVIEW_NO_POOL=1)"
small="1000 10000 100000 1000000 10000000"
SOAVIEW_NO_POOL=1 SOAVIEW_STATS=1 "$bundle/bin/offload_bench.gpu" 20 $small > "$out/bench_nopool.csv" 2> "$out/bench_nopool.stats"
cat "$out/bench_nopool.csv" "$out/bench_nopool.stats"
echo "== phase breakdown (SOAVIEW_STATS=2; times include profiling overhead)"
SOAVIEW_STATS=2 "$bundle/bin/offload_bench.gpu" 20 $small > /dev/null 2> "$out/bench_phases.stats"
cat "$out/bench_phases.stats"
