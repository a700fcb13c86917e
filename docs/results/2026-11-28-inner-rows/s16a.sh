# 2026-11-28, run 1 (2-GPU node): the MPI region build whose density and
# force sweep the inner cells before each exchange and the edge rows after
# it (the exchange's copies on a second stream, beside the inner sweeps),
# against the build before (ab/old: its binary and runtime library).
# cuda-region, 2^20 particles, 50 steps, median of 3; a checked run first,
# then the GPU lit suite.
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; part=${1:-1}; res=/tmp/s16a$part; mkdir -p $res $out
[ -x $bundle/bin/soaview-sph-mpi.gpu ] || OUT=$res bash tools/gpu/run-gpu.sh setup-only > $res/setup.txt 2>&1
export OMP_TARGET_OFFLOAD=MANDATORY
lib=/tmp/soaview-rt/lib
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
new=$bundle/bin/soaview-sph-mpi.gpu
old=/tmp/old-sph-mpi.gpu; [ -x $old ] || { xz -dc $bundle/ab/old/soaview-sph-mpi.gpu.xz > $old; chmod +x $old; }
mkdir -p /tmp/oldlib && cp $bundle/ab/old/libsoaview_rt.so /tmp/oldlib/
oldlib=/tmp/oldlib:$lib # its runtime first, LLVM's offload runtime after
base="mpirun --allow-run-as-root --oversubscribe --bind-to none"
nvidia-smi --query-gpu=name,memory.total --format=csv > $res/gpu.txt
if [ $part = 1 ]; then
echo "== checked: 2 ranks, ppc 256, 2^18, 5 steps, every variant"
LD_LIBRARY_PATH="$lib:$LD_LIBRARY_PATH" $base -np 2 $new --threads 16 --ppc 256 --particles 262144 --steps 5 --reps 1 --builds plain,cuda-region --no-profile > $res/check.txt 2>&1
grep -E "PASS|FAIL|check" $res/check.txt | tail -12
fi
args="--ppc 256,1024 --steps 50 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile"
run() { # name lib binary ranks particles
  local t=$((32 / $3))
  LD_LIBRARY_PATH="$1:$LD_LIBRARY_PATH" $base -np $3 $2 --threads $t $args --particles $4 > $res/$5.txt 2>&1
  echo "== $5"; grep -E "^cuda" $res/$5.txt
}
if [ $part = 1 ]; then
run $lib $new 2 1048576 new_r2
run $oldlib $old 2 1048576 old_r2
run $lib $new 1 1048576 new_r1
run $oldlib $old 1 1048576 old_r1
elif [ $part = 4 ]; then # the new rows of parts 2 and 3 again (the bundle's binaries were not unpacked)
run $lib $new 2 1048576 new_r2b
run $lib $new 1 1048576 new_r1b
run $lib $new 2 2097152 new_weak
run $oldlib $old 2 2097152 old_weak
elif [ $part = 3 ]; then # part 1's old rows again (its library path lacked libomp)
run $oldlib $old 2 1048576 old_r2
run $oldlib $old 1 1048576 old_r1
run $lib $new 1 1048576 new_r1b
else
run $lib $new 2 1048576 new_r2b
run $oldlib $old 2 1048576 old_r2b
run $lib $new 2 2097152 new_weak
echo "== GPU lit suite"
OUT=$res/lit bash tools/gpu/run-gpu.sh tests > $res/lit.txt 2>&1; tail -8 $res/lit.txt
fi
tar -C /tmp -czf $out/s16a$part.tgz s16a$part
