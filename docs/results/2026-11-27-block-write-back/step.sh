# 2026-11-27, run 1 (2-GPU node, 32 cores; plain and launchers pinned to 16):
# the step at ppc 64 with the block write-back (new) and 863c99a's runtime
# (before), the profiled per-site phases of both, and the GPU lit suite.
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; res=/tmp/s12res; mkdir -p $res $out
bash tools/gpu/run-gpu.sh none > /dev/null 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}" OMP_TARGET_OFFLOAD=MANDATORY
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; lscpu | grep -E "^(Model name|CPU\(s\))"; } > $res/machine.txt; cat $res/machine.txt
cp $bundle/lib/libsoaview_rt.so $bundle/new_rt.so
sph="taskset -c 0-15 $bundle/bin/soaview-sph.gpu --threads 16 --gpu-threads 16 --storage scattered --ppc 64 --particles 131072 --steps 10 --kernels step"
for lib in new before new2; do
  case $lib in before) cp $bundle/before/libsoaview_rt.so /tmp/soaview-rt/lib/;; *) cp $bundle/new_rt.so /tmp/soaview-rt/lib/;; esac
  b=cuda-region; [ $lib = new ] && b=cuda-sweep,cuda-region,offload-region
  $sph --reps 3 --fpmode strict,fast --builds $b --csv $res/step_ppc64_$lib.csv > $res/step_ppc64_$lib.txt 2>&1
  echo "== $lib"; grep -E "^step" $res/step_ppc64_$lib.txt
  SOAVIEW_STATS=2 $sph --reps 1 --fpmode strict --builds cuda-region > $res/sites_$lib.txt 2>&1
  grep -E "kernels.cpp:3[25]1:3 .*(scatter|from-device|to-device)|kernels.cpp:273:3 .*(gather|index)" $res/sites_$lib.txt
done
cp $bundle/new_rt.so /tmp/soaview-rt/lib/libsoaview_rt.so
bash tools/gpu/run-gpu.sh tests 2>&1 | tail -6
cp /tmp/soaview-gpu/gpu-lit.txt $res/ 2>/dev/null
tar -C /tmp -czf $out/s12_step.tgz s12res
