# 2026-11-27, run 2 (2-GPU node): the MPI region build (a region per half
# step: every entry gathers and every exit writes back) at ppc 256, with the
# block write-back (new) and 863c99a's runtime (before).
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s12mpi; mkdir -p $res/new $res/before $out; rm -rf $res/new/* $res/before/*
bash tools/gpu/run-gpu.sh none > /dev/null 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}" OMP_TARGET_OFFLOAD=MANDATORY
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $res/gpu.txt
for lib in ${S12_ORDER:-new before}; do
  case $lib in before) cp $bundle/before/libsoaview_rt.so $bundle/lib/;; *) cp $bundle/new_rt.so $bundle/lib/libsoaview_rt.so;; esac
  cp $bundle/lib/libsoaview_rt.so /tmp/soaview-rt/lib/
  echo "== $lib"
  SPH_MPI_BUILDS=cuda-region SPH_MPI_PPC=256 OUT=$res/$lib bash tools/gpu/run-gpu.sh sph-mpi 2>&1 | grep -E "==|PASS|FAIL|^cuda" | head -30
done
tar -C /tmp -czf $out/s12_mpi.tgz s12mpi
