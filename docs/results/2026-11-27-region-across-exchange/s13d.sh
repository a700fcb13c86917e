# 2026-11-27, run 4: the GPU lit suite on the final tree.
set -u
out=${OUT:-/tmp/x}; res=/tmp/s13d; mkdir -p $res $out
OUT=$res bash tools/gpu/run-gpu.sh tests 2>&1 | tail -8
tar -C /tmp -czf $out/s13d.tgz s13d
