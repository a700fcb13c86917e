# 2026-11-27, run 2 (2-GPU node): the MPI builds after the exchange pairs
# its Sendrecvs (both directions of a pair at once): cuda-sweep and
# cuda-region at ppc 256 and 1024, 10 steps, then cuda-region at 50 steps.
set -u
root=$(pwd); out=${OUT:-/tmp/x}; res=/tmp/s14b; mkdir -p $res/s10 $res/s50 $out
OUT=$res/s10 SPH_MPI_PPC=256,1024 SPH_MPI_STEPS=10 SPH_MPI_BUILDS=cuda-sweep,cuda-region bash tools/gpu/run-gpu.sh sph-mpi 2>&1 | grep -E "^==|PASS|FAIL|^cuda|sph-mpi|error" | head -60
OUT=$res/s50 SPH_MPI_PPC=256,1024 SPH_MPI_STEPS=50 SPH_MPI_BUILDS=cuda-region bash tools/gpu/run-gpu.sh sph-mpi 2>&1 | grep -E "^==|PASS|FAIL|^cuda|sph-mpi|error" | head -60
tar -C /tmp -czf $out/s14b.tgz s14b
