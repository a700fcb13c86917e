# 2026-11-28, run 3 (2-GPU node): the syncs' host phases against the
# rank's thread count (profiled, SOAVIEW_STATS=2, 2 ranks, ppc 256, 2^20
# particles, cuda-region, 20 steps): does the gather of the received rows
# scale with threads? Also with KMP_BLOCKTIME=0 (idle threads sleep).
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s15c; mkdir -p $res $out
OUT=$res bash tools/gpu/run-gpu.sh setup-only > $res/setup.txt 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}" OMP_TARGET_OFFLOAD=MANDATORY
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
sph=$bundle/bin/soaview-sph-mpi.gpu
base="mpirun --allow-run-as-root --oversubscribe --bind-to none"
pargs="--ppc 256 --steps 20 --reps 1 --fpmode strict --builds cuda-region --check none --particles 1048576"
for t in 1 4 16; do
  $base -np 2 -x SOAVIEW_STATS=2 $sph --threads $t $pargs > $res/stats_t$t.txt 2>&1
  echo "== threads $t"; grep -E "^cuda|374:3 +(gather|scatter|to-|from-)" $res/stats_t$t.txt
done
$base -np 2 -x SOAVIEW_STATS=2 -x KMP_BLOCKTIME=0 $sph --threads 16 $pargs > $res/stats_bt0.txt 2>&1
echo "== threads 16, KMP_BLOCKTIME=0"; grep -E "^cuda|374:3 +(gather|scatter|to-|from-)" $res/stats_bt0.txt
nargs="--ppc 256,1024 --steps 50 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile --particles 1048576"
$base -np 2 -x KMP_BLOCKTIME=0 $sph --threads 16 $nargs > $res/bt0_r2.txt 2>&1; echo "== unprofiled, KMP_BLOCKTIME=0"; grep -E "^cuda" $res/bt0_r2.txt
$base -np 2 $sph --threads 16 $nargs > $res/default_r2.txt 2>&1; echo "== unprofiled, default"; grep -E "^cuda" $res/default_r2.txt
tar -C /tmp -czf $out/s15c.tgz s15c
