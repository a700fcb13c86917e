# 2026-11-28, run 1 (2-GPU node): the MPI region build (cuda-region, 50
# steps, ppc 256 and 1024, 2^20 particles), 1 and 2 ranks, ranks unbound as
# in run-gpu.sh against each rank bound to its share of the cores (threads
# pinned in it); then one profiled 2-rank run of each (the syncs' phases).
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s15a; mkdir -p $res $out
OUT=$res bash tools/gpu/run-gpu.sh setup-only > $res/setup.txt 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}" OMP_TARGET_OFFLOAD=MANDATORY
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
sph=$bundle/bin/soaview-sph-mpi.gpu
args="--ppc 256,1024 --steps 50 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile --particles 1048576"
base="mpirun --allow-run-as-root --oversubscribe"
for r in 1 2; do
  t=$((32 / r))
  echo "== $r rank(s), unbound"
  $base --bind-to none -np $r $sph --threads $t $args > $res/none_r$r.txt 2>&1; grep -E "^cuda" $res/none_r$r.txt
  echo "== $r rank(s), bound: PE=$t, OMP_PROC_BIND=close"
  $base --map-by slot:PE=$t --bind-to core --report-bindings -x OMP_PROC_BIND=close -x OMP_PLACES=cores -np $r $sph --threads $t $args > $res/bound_r$r.txt 2>&1; grep -E "^cuda|MCW" $res/bound_r$r.txt
done
echo "== 2 ranks, unbound, 2 ranks again"
$base --bind-to none -np 2 $sph --threads 16 $args > $res/none_r2b.txt 2>&1; grep -E "^cuda" $res/none_r2b.txt
echo "== profiled (SOAVIEW_STATS=2), ppc 256, 2 ranks: unbound, bound"
pargs="--ppc 256 --steps 50 --reps 1 --fpmode strict --builds cuda-region --check none --particles 1048576"
$base --bind-to none -np 2 -x SOAVIEW_STATS=2 $sph --threads 16 $pargs > $res/stats_none.txt 2>&1
$base --map-by slot:PE=16 --bind-to core -x OMP_PROC_BIND=close -x OMP_PLACES=cores -np 2 -x SOAVIEW_STATS=2 $sph --threads 16 $pargs > $res/stats_bound.txt 2>&1
grep -E "^cuda|374:3" $res/stats_none.txt $res/stats_bound.txt
tar -C /tmp -czf $out/s15a.tgz s15a
