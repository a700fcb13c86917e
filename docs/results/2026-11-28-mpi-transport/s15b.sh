# 2026-11-28, run 2 (2-GPU node): which Open MPI transport moves the halo
# rows: the MPI region build at ppc 1024 (2^20 particles, 2 ranks, 20
# steps, median of 3) under the default selection, ob1 with shared memory
# (vader) and its single-copy mechanism (CMA, none), and UCX; the selected
# PML printed. Then the full strong and weak rows (50 steps) with the
# fastest exchange.
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s15b; mkdir -p $res $out
OUT=$res bash tools/gpu/run-gpu.sh setup-only > $res/setup.txt 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}" OMP_TARGET_OFFLOAD=MANDATORY
ompi=/tmp/soaview-openmpi
[ -d "$ompi/openmpi" ] || { mkdir -p "$ompi" && tar -C "$ompi" -xJf "$bundle/openmpi.tar.xz"; }
. tools/gpu/openmpi-env.sh "$ompi/openmpi"
sph=$bundle/bin/soaview-sph-mpi.gpu
base="mpirun --allow-run-as-root --oversubscribe --bind-to none"
args="--threads 16 --ppc 1024 --steps 20 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile --particles 1048576"
cat /proc/sys/kernel/yama/ptrace_scope 2>&1 | sed 's/^/ptrace_scope: /'
best=""; bestx=999999
for cfg in default ob1 ob1-cma ob1-none ucx default2; do
  case $cfg in
    default|default2) mca="" ;;
    ob1) mca="--mca pml ob1 --mca btl self,vader" ;;
    ob1-cma) mca="--mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism cma" ;;
    ob1-none) mca="--mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none" ;;
    ucx) mca="--mca pml ucx" ;;
  esac
  $base $mca --mca pml_base_verbose 10 -np 2 $sph $args > $res/$cfg.txt 2>&1
  sel=$(grep -o "selected [a-z0-9]*" $res/$cfg.txt | sort -u | tr '\n' ' ')
  row=$(grep -E "^cuda" $res/$cfg.txt)
  echo "$cfg [$sel]: $row"
  x=$(echo "$row" | awk '{print $5}')
  if [ -n "$x" ] && [ "$cfg" != default2 ] && awk "BEGIN{exit !($x < $bestx)}"; then best=$cfg; bestx=$x; bestmca=$mca; fi
done
echo "fastest exchange: $best ($bestx ms per step)"
fargs="--ppc 256,1024 --steps 50 --reps 3 --fpmode strict --builds cuda-region --check none --no-profile --particles 1048576"
for run in a b; do
  $base ${bestmca:-} -np 2 $sph --threads 16 $fargs > $res/best_r2$run.txt 2>&1; echo "2 ranks ($run):"; grep -E "^cuda" $res/best_r2$run.txt
  $base ${bestmca:-} -np 2 $sph --threads 16 $fargs --weak > $res/best_weak$run.txt 2>&1; echo "weak ($run):"; grep -E "^cuda" $res/best_weak$run.txt
done
$base ${bestmca:-} -np 1 $sph --threads 32 $fargs > $res/best_r1.txt 2>&1; echo "1 rank:"; grep -E "^cuda" $res/best_r1.txt
tar -C /tmp -czf $out/s15b.tgz s15b
