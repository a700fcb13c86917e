# 2026-11-28, run 3 (2-GPU node): ppc 256 again, cuda-region only, three
# rounds of 1 rank and 2 ranks with the default edge rows (4 a side at this
# ppc) and with 2 and 8, 50 steps, median of 3 each, unchecked.
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s18c; mkdir -p $res $out
[ -x $bundle/bin/soaview-sph-mpi.gpu ] || OUT=$res bash tools/gpu/run-gpu.sh setup-only > $res/setup.txt 2>&1
export OMP_TARGET_OFFLOAD=MANDATORY
export LD_LIBRARY_PATH=/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
base="mpirun --allow-run-as-root --oversubscribe --bind-to none"
sph=$bundle/bin/soaview-sph-mpi.gpu
args="--ppc 256 --steps 50 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile --particles 1048576"
run() { # ranks name [flags...]
  local r=$1 n=$2; shift 2
  timeout 60 $base -np $r $sph --threads $((32 / r)) $args "$@" > $res/$n.txt 2>&1
  echo "$n $(grep -E '^cuda' $res/$n.txt | awk '{print $4, $5}')"
}
for round in 1 2 3; do
  run 1 r1_$round
  run 2 r2_$round
  run 2 r2k2_$round --edge-rows 2
  run 2 r2k8_$round --edge-rows 8
done
tar -C /tmp -czf $out/s18c.tgz s18c
