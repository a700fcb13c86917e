# 2026-11-28, run 4 (one H200, 16 cores: the lent kind closest to issue
# #30's 16-core H100 node): the time step of the sweep and region builds
# against plain on the node's 16 cores, ppc 64 and 256, strict and fast,
# 10 steps, median of 3 (run-gpu.sh sph-step).
set -u
out=${OUT:-/tmp/x}; res=/tmp/s18d; mkdir -p $res $out
SPH_STEP_ARGS="--ppc 64,256 --particles 131072 --steps 10 --fpmode strict,fast" OUT=$res \
  timeout 480 bash tools/gpu/run-gpu.sh sph-step > $res/step.txt 2>&1
echo "rc=$?"; nproc; grep -E "^(ppc|plain|cuda|offload)|PASS|FAIL" $res/sph_step.txt | head -40
tar -C /tmp -czf $out/s18d.tgz s18d
