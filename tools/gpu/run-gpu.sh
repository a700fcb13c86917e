#!/usr/bin/env bash
# Runs on the GPU node (see build-gpu.sh): unpacks the LLVM offload runtime,
# checks that every offloaded kernel runs on the GPU and that results match
# the CPU build bit for bit, runs the device-pool unit test, then the
# offload benchmark, then the SPH demonstrator's GPU comparison. Results go
# to $OUT. Sections can be picked: run-gpu.sh [tests] [bench] [phases]
# [backends] [sph] [sph-cuda] [sph-swept] [sph-step] [sph-threads]
# [sph-phases] [sph-launchers] [sph-cpu] [sph-mpi] [sph-mpi-cpu] [heap]
# [alloc] (default: all but sph-step, sph-threads, sph-phases,
# sph-launchers, sph-mpi, sph-mpi-cpu, heap and alloc); `tests`
# is the GPU
# lit suite (test/GPU). Each command on the node may run at most 10 minutes.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bundle="$root/gpu-bundle"
out="${OUT:-/tmp/soaview-gpu}"; mkdir -p "$out"
[ -d "$bundle/bin" ] || tar -C "$bundle" -xJf "$bundle/bin.tar.xz" # build-gpu.sh packs it
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
sections="${*:-tests bench phases backends sph sph-cuda sph-swept sph-cpu}"
want() { case " $sections " in *" $1 "*) return 0 ;; esac; return 1; }
if want tests; then
# The GPU test suite (test/GPU, lit with its own shell; lit is in the bundle).
echo "== GPU test suite (test/GPU)"
SOAVIEW_GPU_BUNDLE="$bundle" SOAVIEW_GPU_OUT=/tmp/soaview-gpu-lit \
  python3 "$bundle/lit/lit.py" -v "$root/test/GPU" 2>&1 | tee "$out/gpu-lit.txt" | grep -E "^(PASS|FAIL|UNSUPPORTED)|Passed|Failed"
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
echo "== SPH: density and force, CPU builds on $(nproc) threads vs the offload build on the GPU (one launching thread per core)"
lscpu | grep -E "Model name|^CPU\(s\)" | tee "$out/cpu.txt"
# shellcheck disable=SC2086
"$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --gpu-threads "$(nproc)" --reps 3 --storage scattered \
  ${SPH_GPU_ARGS:---ppc 64,256,1024 --particles 131072 --kernels density,force} \
  --builds soaview,manual,offload \
  --csv "$out/sph_gpu.csv" 2>&1 | tee "$out/sph_gpu.txt" | grep -v "^omptarget\|info:"
fi
if want sph-cuda; then
# The CUDA backend's build in a process of its own, so that its table stands
# alone (both backends also run in one process: docs/cuda.md, Limits).
echo "== SPH: density and force, the CUDA backend's build on the GPU (one launching thread per core) vs the plain build on $(nproc) threads"
# shellcheck disable=SC2086
"$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --gpu-threads "$(nproc)" --reps 3 --storage scattered \
  ${SPH_GPU_ARGS:---ppc 64,256,1024 --particles 131072 --kernels density,force} \
  --builds cuda --csv "$out/sph_cuda.csv" 2>&1 | tee "$out/sph_cuda.txt"
fi
if want sph-swept; then
# The sweep builds: each kernel over all cells in one gather, one transfer
# each way and one launch, called from one host thread (its gather and
# scatter on all cores), against plain on all cores; each backend in a
# process of its own. The CUDA run also has the hand-written CUDA sweeps
# (manual-cuda-sweep, examples/sph/manual_cuda.cu).
for b in cuda offload; do
  echo "== SPH: density and force, $b-sweep (one launch per sweep)$([ "$b" = cuda ] && echo " and manual-cuda-sweep (hand-written)") vs plain on $(nproc) threads"
  # shellcheck disable=SC2086
  "$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --gpu-threads "$(nproc)" --reps 5 --storage scattered \
    ${SPH_GPU_ARGS:---ppc 64,256,1024 --particles 131072 --kernels density,force} \
    --builds "$b-sweep$([ "$b" = cuda ] && echo ,manual-cuda-sweep)" --csv "$out/sph_${b}_sweep.csv" 2>&1 | tee "$out/sph_${b}_sweep.txt" | grep -v "^omptarget\|info:"
done
fi
if want sph-step; then
# The time step (kernel "step": density, force, kick1, drift and kick2 per
# step) of the sweep builds, called from one host thread: one sweep per
# kernel (cuda-sweep, offload-sweep) and the same steps in a view region
# (cuda-region, offload-region: the sweeps share one set of device buffers),
# against plain on all cores; cost per particle and time step, both
# variants, strict and fast. Both backends in one process, so that plain
# runs once and the four builds share one table. Plain dominates the time:
# about 4 minutes at 3 steps and 3 repetitions, from its density and force
# times of 2026-11-23 on the 16-core node. 10 steps take about 7 minutes per
# fp mode: one command each, SPH_STEP_ARGS="--ppc 64,256,1024 --particles
# 131072 --steps 10 --fpmode strict", then fast.
# SPH_STEP_CPUS (a taskset list, e.g. 0-15) runs the whole comparison on
# those CPUs only, plain on as many threads: the 16-core node's targets read
# on a larger node.
pin=""; nthreads=$(nproc)
if [ -n "${SPH_STEP_CPUS:-}" ]; then
  pin="taskset -c $SPH_STEP_CPUS"; nthreads=$($pin nproc)
  lscpu | grep -E "^(Model name|Thread|Core|Socket|CPU\(s\))" > "$out/sph_step_cpus.txt"
fi
echo "== SPH: time steps, cuda-sweep, cuda-region, offload-sweep and offload-region (one host thread) vs plain on $nthreads threads"
# shellcheck disable=SC2086
$pin "$bundle/bin/soaview-sph.gpu" --threads "$nthreads" --gpu-threads "$nthreads" --reps 3 --storage scattered \
  ${SPH_STEP_ARGS:---ppc 64,256,1024 --particles 131072 --steps 3} --kernels step \
  --builds offload-sweep,offload-region,cuda-sweep,cuda-region \
  --csv "$out/sph_step.csv" 2>&1 | tee "$out/sph_step.txt" | grep -v "^omptarget\|info:"
fi
if want sph-threads; then
# One launch is one cell: the number of host threads launching cells is the
# number of cells the GPU can work on at once. The same comparison with more
# launching threads than cores (each build in a process of its own).
for t in ${SPH_GPU_THREADS:-64 128}; do
  for b in ${SPH_GPU_BUILDS:-cuda offload}; do
    echo "== SPH: density and force, the $b build launching from $t host threads vs plain on $(nproc) threads"
    # shellcheck disable=SC2086
    "$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --gpu-threads "$t" --reps 3 \
      --storage scattered \
      ${SPH_GPU_ARGS:---ppc 64,256,1024 --particles 131072 --kernels density,force} \
      --builds "$b" --no-profile --csv "$out/sph_${b}_t$t.csv" 2>&1 |
      tee "$out/sph_${b}_t$t.txt" | grep -v "^omptarget\|info:"
  done
done
fi
if want sph-phases; then
# Where the time goes in the CUDA build: the phase shares (gather, copies,
# kernel, scatter) with 16 and 64 launching threads. Profiling waits after
# each phase to time it, so these runs are slower than the timed ones.
for t in ${SPH_PHASE_THREADS:-16 64}; do
  echo "== SPH phases: the cuda build launching from $t host threads"
  "$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --gpu-threads "$t" --reps 1 \
    --storage scattered --ppc 64,256,1024 --particles 131072 --kernels density,force \
    --fpmode fast --builds cuda --csv "$out/sph_phases_t$t.csv" > "$out/sph_phases_t$t.txt" 2>&1
  tail -1 "$out/sph_phases_t$t.txt"
done
fi
if want sph-launchers; then
# Cost per particle update against the number of launching threads: density
# at ppc 256, strict, the CUDA build (docs/cuda.md plots it).
echo "== SPH launchers: density, ppc 256, the cuda build from 8 to 256 launching threads"
# One CSV (a threads column added) and one log: $OUT takes few files.
sweep="$(mktemp -d)"
echo "threads,kernel,variant,storage,ppc,particles,fpmode,build,ns_per_update,check" > "$out/sph_sweep.csv"
for t in ${SPH_SWEEP_THREADS:-8 16 32 48 64 96 128 192 256}; do
  "$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --gpu-threads "$t" --reps 5 \
    --storage scattered --ppc 256 --particles 131072 --kernels density --fpmode strict \
    --builds cuda --no-profile --csv "$sweep/t$t.csv" > "$sweep/t$t.txt" 2>&1
  cat "$sweep/t$t.txt" >> "$out/sph_sweep.txt"
  tail -n +2 "$sweep/t$t.csv" | cut -d, -f1-9 | sed "s/^/$t,/" >> "$out/sph_sweep.csv"
  echo "threads $t: $(grep -E '^density' "$sweep/t$t.txt" | awk '{printf "%s %s ns %s; ", $2, $(NF-2), $(NF-1)}')"
done
rm -rf "$sweep"
fi
if want sph-cpu; then
echo "== SPH: all kernels, CPU builds (no offload) on $(nproc) threads"
"$bundle/bin/soaview-sph.gpu" --threads "$(nproc)" --reps 3 --builds soaview,manual \
  --ppc 64,256,1024 --particles 65536 --storage scattered,contiguous \
  --csv "$out/sph_cpu.csv" > "$out/sph_cpu.txt" 2>&1; tail -3 "$out/sph_cpu.txt"
fi
if want heap; then
echo "== device heap: soaview vs CUDA device malloc vs bump ([Vinkler2015]'s AD, ACD, P; AWD)"
"$bundle/bin/soaview-heap-bench" --runs 5 > "$out/heap.csv" 2> "$out/heap.err"
cat "$out/heap.csv"; tail -3 "$out/heap.err"
fi
if want alloc; then
# examples/small/offload_alloc.cpp: neighbour lists built on the device with
# soaview's heap (CUDA, OpenMP) and with CUDA's malloc; each build's output
# against the CPU build's, and the median of 5 runs of the mean time of a
# density sweep after the first (which sets up the heap and buffers).
echo "== allocation in an offloaded loop: soaview's device heap vs CUDA malloc"
export SOAVIEW_DEVICE_HEAP=1G # both heaps (cuda_malloc_limit.cu sets CUDA's)
echo "build,particles_per_cell,reps,median_ms_per_sweep,median_ms_first_sweep,same_as_cpu" > "$out/alloc.csv"
for n in 250 1000 4000; do
  "$bundle/bin/alloc.plain" 1 $n 4 > "$out/alloc_cpu.txt" 2>/dev/null
  for b in cuda cuda-malloc gpu; do
    ts=""; fs=""; same=yes
    for r in 1 2 3 4 5; do
      "$bundle/bin/alloc.$b" 1 $n 4 > "$out/alloc_$b.txt" 2> "$out/alloc_$b.err"
      cmp -s "$out/alloc_cpu.txt" "$out/alloc_$b.txt" || same=no
      ts="$ts $(sed -n 's/^density sweeps: first .* ms, then \([0-9.]*\) ms each/\1/p' "$out/alloc_$b.err")"
      fs="$fs $(sed -n 's/^density sweeps: first \([0-9.]*\) ms.*/\1/p' "$out/alloc_$b.err")"
    done
    med=$(echo $ts | tr ' ' '\n' | sort -g | sed -n 3p)
    fmed=$(echo $fs | tr ' ' '\n' | sort -g | sed -n 3p)
    echo "$b,$n,4,$med,$fmed,$same" | tee -a "$out/alloc.csv"
    grep -h "soaview:\|lost" "$out/alloc_$b.err" "$out/alloc_$b.txt" | head -2
  done
done
fi
if want sph-mpi || want sph-mpi-cpu; then
# Open MPI from the bundle (the node has none), unpacked and relocated
# (tools/gpu/pack-openmpi.sh, openmpi-env.sh). Ranks are not bound to cores
# (Open MPI would bind each to one): each rank's OpenMP threads (gathers,
# scatters, the CPU kernels) share the node's cores.
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. "$root/tools/gpu/openmpi-env.sh" "$ompi/openmpi"
mpirun="mpirun --allow-run-as-root --oversubscribe --bind-to none"
mpisph="$bundle/bin/soaview-sph-mpi.gpu"
cores=$(nproc)
# Shared memory between ranks copies large messages with one copy (CMA,
# process_vm_readv), which containers may forbid: then with two.
if ! $mpirun -np 2 "$mpisph" --ppc 32 --particles 4096 --steps 1 --reps 1 --threads 1 \
    --builds plain > "$out/sph_mpi_probe.txt" 2>&1; then
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  echo "sph-mpi: single-copy shared memory failed (see sph_mpi_probe.txt); copying twice"
fi
fi
if want sph-mpi; then
# The MPI build's time step (examples/sph/mpi.cpp), a rank per GPU: halo
# rows exchanged as particle structs before density and force; cuda-sweep:
# density and force one sweep per rank, cuda-region: all steps one view
# region of sweeps, the exchanges in it (soaview::sync). Strong scaling at about 2^20 particles and weak
# scaling at 2^20 per rank, 1 and 2 ranks, the cores split between the
# ranks; strict, branching, 10 steps, median of 3; CSV per run (times per
# step: the step, its exchanges and kernels, the slowest rank; shares of
# conversion, transfers and device kernels). Physics: each run against the
# one-process run of its build (--check build: plain would take minutes at
# 2^20 particles), and one smaller run against plain too. About 3 minutes.
# SPH_MPI_BUILDS chooses other builds (offload-sweep, offload-region).
ngpu=$(nvidia-smi -L | wc -l)
builds="${SPH_MPI_BUILDS:-cuda-sweep,cuda-region}"
args="--ppc ${SPH_MPI_PPC:-64,256,1024} --steps ${SPH_MPI_STEPS:-10} --reps 3 --fpmode strict --builds $builds"
run_mpi() { # name ranks args...
  local name=$1 r=$2; shift 2
  echo "== SPH MPI $name: $r rank(s) x $((cores / r)) threads, $builds, a GPU each"
  # shellcheck disable=SC2086
  $mpirun -np "$r" "$mpisph" --threads $((cores / r)) "$@" --csv "$out/sph_mpi_$name.csv" 2>&1 |
    tee "$out/sph_mpi_$name.txt" | grep -v "^omptarget\|info:"
}
for r in 1 2; do
  [ "$r" -le "$ngpu" ] || { echo "sph-mpi: $r ranks need $r GPUs, $ngpu here"; continue; }
  # shellcheck disable=SC2086
  run_mpi "strong_r$r" "$r" $args --particles 1048576 --check build
done
# Weak scaling: 1 rank is the strong run above.
# shellcheck disable=SC2086
[ "$ngpu" -ge 2 ] && run_mpi weak_r2 2 $args --particles 1048576 --weak --check build
# shellcheck disable=SC2086
[ "$ngpu" -ge 2 ] && run_mpi check_r2 2 --ppc 64,256 --particles 131072 --steps 2 --reps 1 \
  --fpmode strict,fast --builds "$builds" --check plain,build
fi
if want sph-mpi-cpu; then
# The same on the CPU: ranks x threads over the node's cores against the
# same thread count in one process (plain, soaview and region, smaller: plain
# takes seconds per step at 2^20 particles). About a minute.
for r in 1 2 4; do
  echo "== SPH MPI on the CPU: $r rank(s) x $((cores / r)) threads"
  $mpirun -np "$r" "$mpisph" --threads $((cores / r)) --ppc 64,256 --particles 131072 \
    --steps 3 --reps 3 --fpmode strict --builds plain,soaview,region --check build \
    --csv "$out/sph_mpi_cpu_r$r.csv" 2>&1 | tee "$out/sph_mpi_cpu_r$r.txt" | grep -v "^omptarget\|info:"
done
fi
