#!/bin/bash
# Runs the swift-step GPU binaries of this bundle (made by build-gpu.sh) on a
# GPU node without clang: unpacks the LLVM 19 offload runtime, points
# libomptarget at the node's libcuda, and runs every binary with
# --tolerance gpu (each checks itself against the plain kernels it carries).
#   bash run-gpu.sh [driver args, default: --side 48 --steps 3 --reps 5]
set -uo pipefail
B=$(cd "$(dirname "$0")" && pwd)
ARGS=("$@"); [ ${#ARGS[@]} -gt 0 ] || ARGS=(--side 48 --steps 3 --reps 5)
rt=$(mktemp -d /tmp/swift-step-rt.XXXX); mkdir -p "$rt/lib"
tar -C "$rt" -xJf "$B/llvm-libs.tar.xz"
find "$rt" -name '*.so*' ! -path "$rt/lib/*" -exec sh -c 'for f; do [ -e "$0/$(basename "$f")" ] || cp "$f" "$0/"; done' "$rt/lib" {} +
while read -r name real; do [ -e "$rt/lib/$name" ] || ln -s "$real" "$rt/lib/$name"; done < "$B/lib-names.txt"
cuda=$(ls /usr/local/nvidia/lib64/libcuda.so.1 2>/dev/null || ldconfig -p | awk '/libcuda.so.1/{print $NF; exit}')
[ -n "$cuda" ] && ln -sf "$cuda" "$rt/lib/libcuda.so"
export LD_LIBRARY_PATH="$B/lib:$rt/lib:${LD_LIBRARY_PATH:-}"
export OMP_TARGET_OFFLOAD=MANDATORY
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
rc=0
for exe in "$B"/bin/swift-step-*; do
  echo "== $(basename "$exe")"
  "$exe" "${ARGS[@]}" --tolerance gpu > "$rt/out.txt" 2>&1; r=$?
  grep -v '^swift-step: WARNING' "$rt/out.txt"
  w=$(grep -c '^swift-step: WARNING' "$rt/out.txt"); [ "$w" = 0 ] || echo "($w SWIFT warnings)"
  echo "exit status $r"; [ $r = 0 ] || rc=1
done
exit $rc
