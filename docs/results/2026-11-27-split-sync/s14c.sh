# 2026-11-27, run 3 (2-GPU node): the GPU lit suite on the final tree; the
# node's topology; then the MPI region build (50 steps, ppc 256 and 1024,
# strong and weak, 2 ranks) with the ranks unbound, as in run-gpu.sh, and
# each rank bound to its own NUMA node (its threads on that node's cores).
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s14c; mkdir -p $res $out
OUT=$res bash tools/gpu/run-gpu.sh tests 2>&1 | tail -8
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}" OMP_TARGET_OFFLOAD=MANDATORY
lscpu > $res/lscpu.txt; nvidia-smi topo -m > $res/topo.txt 2>&1
grep -E "^(Socket|NUMA|Core|Thread)" $res/lscpu.txt; cat $res/topo.txt
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
sph=$bundle/bin/soaview-sph-mpi.gpu
args="--threads 16 --ppc 256,1024 --steps 50 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile"
for bind in "--bind-to none" "--map-by numa --bind-to numa"; do
  tag=$(echo "$bind" | tr -d ' -' ); mpirun="mpirun --allow-run-as-root --oversubscribe $bind"
  echo "== $bind"
  $mpirun -np 2 --report-bindings $sph $args --particles 1048576 > $res/strong_$tag.txt 2>&1; grep -E "^cuda|bound|not bound" $res/strong_$tag.txt | head -6
  $mpirun -np 2 $sph $args --particles 1048576 --weak > $res/weak_$tag.txt 2>&1; grep -E "^cuda" $res/weak_$tag.txt
done
tar -C /tmp -czf $out/s14c.tgz s14c
