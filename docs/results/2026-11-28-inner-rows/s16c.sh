# 2026-11-28, run 5 (2-GPU node): after the fix that keeps a sweep's own
# index when it also sweeps part of the region's cells (each region entry
# had rebuilt it): the new binary against the build before (ab/old), 1 and
# 2 ranks, and 2 ranks with 2 and 4 rows per side swept after the exchange
# (--edge-rows); a checked run with --edge-rows 2 first; then weak rows.
# cuda-region branching strict, 2^20 particles, 50 steps, median of 3.
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s16c; mkdir -p $res $out
[ -x $bundle/bin/soaview-sph-mpi.gpu ] || OUT=$res bash tools/gpu/run-gpu.sh setup-only > $res/setup.txt 2>&1
export OMP_TARGET_OFFLOAD=MANDATORY
lib=/tmp/soaview-rt/lib
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
new=$bundle/bin/soaview-sph-mpi.gpu
old=/tmp/old-sph-mpi.gpu; [ -x $old ] || { xz -dc $bundle/ab/old/soaview-sph-mpi.gpu.xz > $old; chmod +x $old; }
mkdir -p /tmp/oldlib && cp $bundle/ab/old/libsoaview_rt.so /tmp/oldlib/
oldlib=/tmp/oldlib:$lib
base="mpirun --allow-run-as-root --oversubscribe --bind-to none"
nvidia-smi --query-gpu=name,memory.total --format=csv > $res/gpu.txt
echo "== checked: 2 ranks, ppc 256, 2^18, 5 steps, --edge-rows 2"
LD_LIBRARY_PATH="$lib:$LD_LIBRARY_PATH" $base -np 2 $new --threads 16 --ppc 256 --particles 262144 --steps 5 --reps 1 --builds plain,cuda-region --no-profile --edge-rows 2 > $res/check.txt 2>&1
grep -E "PASS|FAIL|check" $res/check.txt | tail -4
args="--ppc 256,1024 --steps 50 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile"
run() { # libpath binary ranks particles name [flags...]
  local l=$1 b=$2 r=$3 p=$4 n=$5; shift 5
  LD_LIBRARY_PATH="$l:$LD_LIBRARY_PATH" $base -np $r $b --threads $((32 / r)) $args --particles $p "$@" > $res/$n.txt 2>&1
  echo "== $n"; grep -E "^cuda" $res/$n.txt
}
run $lib $new 2 1048576 new_r2
run $oldlib $old 2 1048576 old_r2
run $lib $new 1 1048576 new_r1
run $oldlib $old 1 1048576 old_r1
run $lib $new 2 1048576 new_r2_k2 --edge-rows 2
run $lib $new 2 2097152 new_weak
run $lib $new 2 1048576 new_r2_k4 --edge-rows 4
tar -C /tmp -czf $out/s16c.tgz s16c
