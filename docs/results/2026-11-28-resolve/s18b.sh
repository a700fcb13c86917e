# 2026-11-28, run 2 (2-GPU node): the rest of call 1's sph-mpi stage,
# which ran out of time with 50 steps and --check build: 1 and 2 ranks
# (ppc 256 and 1024, 2^20 particles), weak (2^21 on 2 ranks), cuda-sweep
# and cuda-region, branching strict, 50 steps, median of 3, unchecked
# (call 1's one-rank rows passed --check build); then a checked two-rank
# run against plain and the one-rank run (smaller, both fp modes). Default
# edge rows, unbound ranks, 32 / R threads per rank.
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s18b; mkdir -p $res $out
OUT=$res bash tools/gpu/run-gpu.sh setup-only > $res/setup.txt 2>&1
export OMP_TARGET_OFFLOAD=MANDATORY
export LD_LIBRARY_PATH=/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
base="mpirun --allow-run-as-root --oversubscribe --bind-to none"
sph=$bundle/bin/soaview-sph-mpi.gpu
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $res/gpu.txt
args="--ppc 256,1024 --steps 50 --reps 3 --fpmode strict --builds cuda-sweep,cuda-region --check none --no-profile"
run() { # ranks particles name [flags...]
  local r=$1 p=$2 n=$3; shift 3
  timeout 200 $base -np $r $sph --threads $((32 / r)) $args --particles $p --csv $res/$n.csv "$@" > $res/$n.txt 2>&1
  echo "== $n rc=$?"; grep -E "^cuda" $res/$n.txt
}
run 2 1048576 r2
run 2 1048576 weak --weak
run 1 1048576 r1
echo "== checked: 2 ranks, ppc 64 and 256, 2^17, 2 steps, plain and build"
timeout 120 $base -np 2 $sph --threads 16 --ppc 64,256 --particles 131072 --steps 2 --reps 1 \
  --fpmode strict,fast --builds cuda-sweep,cuda-region --check plain,build > $res/check.txt 2>&1
echo "check rc=$?"; grep -E "PASS|FAIL|physics" $res/check.txt | tail -10
tar -C /tmp -czf $out/s18b.tgz s18b
