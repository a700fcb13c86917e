# 2026-11-28, run 4 (2-GPU node): one node, every row interleaved: the new
# binary as it runs (inner cells before each exchange, the syncs' copies
# beside them), with SOAVIEW_OVERLAP=0 (syncs wait for every sweep), with
# --overlap off (every row swept after the exchange), and the build before
# (ab/old); 1 and 2 ranks, cuda-region branching strict, 2^20 particles,
# 50 steps, median of 3.
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s16b; mkdir -p $res $out
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
args="--ppc 256,1024 --steps 50 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile --particles 1048576"
run() { # libpath binary ranks name [env/flags...]
  local l=$1 b=$2 r=$3 n=$4; shift 4
  local t=$((32 / r)) e="" f=""
  for x in "$@"; do case $x in --*) f="$f $x";; *) e="$e -x $x";; esac; done
  LD_LIBRARY_PATH="$l:$LD_LIBRARY_PATH" $base $e -np $r $b --threads $t $args $f > $res/$n.txt 2>&1
  echo "== $n"; grep -E "^cuda" $res/$n.txt
}
for r in 1 2; do
  run $lib $new $r new_r$r
  run $lib $new $r nooverlap_r$r SOAVIEW_OVERLAP=0
  run $lib $new $r after_r$r "--overlap off"
  run $oldlib $old $r old_r$r
done
tar -C /tmp -czf $out/s16b.tgz s16b
