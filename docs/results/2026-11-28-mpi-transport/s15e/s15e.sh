# 2026-11-28, run 5: does pinned memory's page size slow the region's host
# gathers? (tlb.cpp, beside this script.)
set -u
root=$(pwd); bundle=$root/gpu-bundle; out=${OUT:-/tmp/x}; mkdir -p $out
OUT=/tmp/s15e bash tools/gpu/run-gpu.sh setup-only > /dev/null 2>&1
export LD_LIBRARY_PATH="/tmp/soaview-rt/lib:${LD_LIBRARY_PATH:-}"
$bundle/ab/tlb 2>&1 | tee $out/tlb.txt
