# 2026-11-27, run 2: per-site phases of the MPI region build at ppc 256.
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s13b; mkdir -p $res $out
bash tools/gpu/run-gpu.sh none > /dev/null 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}" OMP_TARGET_OFFLOAD=MANDATORY
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
mpirun="mpirun --allow-run-as-root --oversubscribe --bind-to none"
$mpirun -np 2 $bundle/bin/soaview-sph-mpi.gpu --ppc 32 --particles 4096 --steps 1 --reps 1 --threads 1 --builds plain > /dev/null 2>&1 || export OMPI_MCA_btl_vader_single_copy_mechanism=none
for r in 1 2; do
  $mpirun -np $r -x SOAVIEW_STATS=2 $bundle/bin/soaview-sph-mpi.gpu --threads $((32 / r)) --ppc 256 --particles 1048576 --steps 10 --reps 1 --fpmode strict --builds cuda-region --check none --no-profile > $res/stats_r$r.txt 2>&1
  grep -E "^cuda" $res/stats_r$r.txt
done
tar -C /tmp -czf $out/s13b.tgz s13b
