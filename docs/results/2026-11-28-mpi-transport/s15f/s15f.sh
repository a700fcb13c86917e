# 2026-11-28, run 6: host access to memory from cudaHostAlloc against
# malloc'ed memory, pinned with cudaHostRegister or not (pin.cpp).
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; mkdir -p $out
OUT=/tmp/s15f bash tools/gpu/run-gpu.sh setup-only > /dev/null 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}"
$bundle/ab/pin 2>&1 | tee $out/pin.txt
