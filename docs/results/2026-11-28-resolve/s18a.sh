# 2026-11-28, run 1 (2-GPU node): the GPU lit suite (region_exchange's
# new mode 6 on both backends: sweeps over overlapping windows that lay
# the region's slots out again and reuse its buffers), then the sph-mpi
# stage of run-gpu.sh at 50 steps, ppc 256 and 1024 (cuda-sweep and
# cuda-region, 1 and 2 ranks, weak, a small check against plain) with the
# default edge rows.
set -u
root=$(pwd); out=${OUT:-/tmp/x}; res=/tmp/s18a; mkdir -p $res $out
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > $res/gpu.txt
nproc >> $res/gpu.txt
OUT=$res/tests timeout 200 bash tools/gpu/run-gpu.sh tests > $res/tests.txt 2>&1
echo "tests rc=$?"; grep -E "^(PASS|FAIL|UNSUPPORTED)|Passed|Failed" $res/tests.txt
SPH_MPI_STEPS=50 SPH_MPI_PPC=256,1024 OUT=$res/mpi timeout 330 bash tools/gpu/run-gpu.sh sph-mpi > $res/mpi.txt 2>&1
echo "mpi rc=$?"; grep -E "^==|^cuda|PASS|FAIL" $res/mpi.txt | head -60
tar -C /tmp -czf $out/s18a.tgz s18a
