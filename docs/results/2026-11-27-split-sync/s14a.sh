# 2026-11-27, run 1 (2-GPU node): per-site phases (mean and longest) of
# the MPI region build, ppc 256, 50 steps, 1 and 2 ranks; then the MPI
# region build's scaling at ppc 256 and 1024, 50 steps (sync with the sent
# and received rows apart, write-back of local slots only).
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s14a; mkdir -p $res $out
bash tools/gpu/run-gpu.sh none > /dev/null 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}" OMP_TARGET_OFFLOAD=MANDATORY
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
mpirun="mpirun --allow-run-as-root --oversubscribe --bind-to none"
$mpirun -np 2 $bundle/bin/soaview-sph-mpi.gpu --ppc 32 --particles 4096 --steps 1 --reps 1 --threads 1 --builds plain > /dev/null 2>&1 || export OMPI_MCA_btl_vader_single_copy_mechanism=none
for r in 1 2; do
  $mpirun -np $r -x SOAVIEW_STATS=2 $bundle/bin/soaview-sph-mpi.gpu --threads $((32 / r)) --ppc 256 --particles 1048576 --steps 50 --reps 1 --fpmode strict --builds cuda-region --check none --no-profile > $res/stats_r$r.txt 2>&1
  grep -E "^cuda" $res/stats_r$r.txt
done
OUT=$res SPH_MPI_PPC=256,1024 SPH_MPI_STEPS=50 SPH_MPI_BUILDS=cuda-region bash tools/gpu/run-gpu.sh sph-mpi 2>&1 | grep -E "^==|PASS|FAIL|^cuda|sph-mpi|error" | head -60
tar -C /tmp -czf $out/s14a.tgz s14a
