# 2026-11-28, run 4 (2-GPU node): the region's gathers cut to a cover of
# its views (region.cpp cover_of) against the runtime library before it
# (old/libsoaview_rt.so, same binaries), the MPI region build (cuda-region,
# branching strict, 2^20 particles); then the GPU lit suite.
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s15d; mkdir -p $res $out
OUT=$res bash tools/gpu/run-gpu.sh setup-only > $res/setup.txt 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}" OMP_TARGET_OFFLOAD=MANDATORY
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
sph=$bundle/bin/soaview-sph-mpi.gpu
new=$bundle/lib/libsoaview_rt.so; old=$bundle/ab/old/libsoaview_rt.so
use() { cp "$1" /tmp/soaview-rt/lib/libsoaview_rt.so; }
base="mpirun --allow-run-as-root --oversubscribe --bind-to none"
pargs="--ppc 256 --steps 20 --reps 1 --fpmode strict --builds cuda-region --check none --particles 1048576"
for lib in old new; do
  use $(eval echo \$$lib)
  $base -np 2 -x SOAVIEW_STATS=2 $sph --threads 16 $pargs > $res/stats_$lib.txt 2>&1
  echo "== profiled, $lib"; grep -E "^cuda|374:3 +(gather|scatter|to-|from-)|153:3 +gather" $res/stats_$lib.txt
done
nargs="--ppc 256,1024 --steps 50 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile --particles 1048576"
for lib in new old new; do
  use $(eval echo \$$lib)
  $base -np 2 $sph --threads 16 $nargs > $res/r2_$lib.txt 2>&1; echo "== 2 ranks, $lib"; grep -E "^cuda" $res/r2_$lib.txt
done
use $new
$base -np 2 $sph --threads 16 $nargs --weak > $res/weak_new.txt 2>&1; echo "== weak, new"; grep -E "^cuda" $res/weak_new.txt
$base -np 1 $sph --threads 32 $nargs > $res/r1_new.txt 2>&1; echo "== 1 rank, new"; grep -E "^cuda" $res/r1_new.txt
$base -np 2 $sph --threads 16 --ppc 64,256 --particles 131072 --steps 2 --reps 1 --fpmode strict,fast \
  --builds cuda-sweep,cuda-region,offload-region --check plain,build > $res/check_r2.txt 2>&1; echo "== check"; grep -E "^(cuda|offload)|physics" $res/check_r2.txt
OUT=$res bash tools/gpu/run-gpu.sh tests 2>&1 | tail -6
tar -C /tmp -czf $out/s15d.tgz s15d
