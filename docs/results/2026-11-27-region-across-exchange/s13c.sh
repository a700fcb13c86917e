# 2026-11-27, run 3 (2-GPU node): the MPI region build with 50 steps per
# region (the entry's gather and the exit's write-back amortised over more
# steps), ppc 256 and 1024.
set -u
root=$(pwd); out=${OUT:-/tmp/x}; res=/tmp/s13c; mkdir -p $res $out
OUT=$res SPH_MPI_PPC=256,1024 SPH_MPI_STEPS=50 SPH_MPI_BUILDS=cuda-region bash tools/gpu/run-gpu.sh sph-mpi 2>&1 | grep -E "^==|PASS|FAIL|^cuda|sph-mpi|error" | head -60
tar -C /tmp -czf $out/s13c.tgz s13c
