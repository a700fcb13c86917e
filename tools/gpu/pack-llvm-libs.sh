#!/usr/bin/env bash
# Packs the LLVM 19 offload runtime (libomp, libomptarget) and the shared
# libraries it needs beyond a node's own libc into DIR/llvm-libs.tar.xz,
# with DIR/lib-names.txt (each soname and the file it names), for GPU nodes
# without LLVM: tools/gpu/build-gpu.sh and tools/swift-step/build-gpu.sh
# call it; their run-gpu.sh unpack it.
#   tools/gpu/pack-llvm-libs.sh DIR
set -euo pipefail
dir="${1:?usage: pack-llvm-libs.sh DIR}"
libs="/usr/lib/llvm-19/lib/libomp.so.5 /usr/lib/llvm-19/lib/libomptarget.so.19.1"
for l in $(ldd /usr/lib/llvm-19/lib/libomptarget.so.19.1 | awk '{print $3}'); do
  case "$(basename "$l")" in
    libc.so*|libm.so*|libstdc++*|libgcc_s*|ld-linux*) ;;
    *) libs="$libs $l" ;;
  esac
done
tar -C / -cf - $(for l in $libs; do readlink -f "$l" | sed 's|^/||'; done) | xz -T2 -6 > "$dir/llvm-libs.tar.xz"
for l in $libs; do echo "$(basename "$l") $(basename "$(readlink -f "$l")")"; done > "$dir/lib-names.txt"
