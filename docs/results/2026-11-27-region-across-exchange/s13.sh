# 2026-11-27 (2-GPU node): the GPU lit suite and the MPI step with the
# region across the exchanges (soaview::sync), cuda-sweep and cuda-region.
set -u
root=$(pwd); out=${OUT:-/tmp/x}; res=/tmp/s13; mkdir -p $res $out
bash tools/gpu/run-gpu.sh none > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; lscpu | grep -E "^(Model name|CPU\(s\))"; } > $res/machine.txt; cat $res/machine.txt
save() { tar -C /tmp -czf $out/s13.tgz s13; }
if [ -z "${S13_SKIP_TESTS:-}" ]; then
  OUT=$res bash tools/gpu/run-gpu.sh tests 2>&1 | tail -8; save
fi
OUT=$res SPH_MPI_PPC=${S13_PPC:-256,1024} bash tools/gpu/run-gpu.sh sph-mpi 2>&1 | grep -E "^==|PASS|FAIL|^cuda|sph-mpi|error" | head -80
save
