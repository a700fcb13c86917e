#!/usr/bin/env bash
# Writes the code soaview generates for every example, every test program
# and the SPH kernels into OUTDIR, in three builds: the host dump, the dump of
# an OpenMP offload compile (host side and NVPTX device side) and the CUDA
# translation. Two runs compared with `diff -r` show whether a change of
# soaview's own code changed what it generates (refactoring: it must not).
#
#   tools/dump-generated.sh OUTDIR [BUILD-DIR]
#   diff -r OUTDIR-before OUTDIR-after
#
# Every annotated loop is converted (SOAVIEW_CONVERT=always). What each
# compile printed goes to OUTDIR/<build>/<name>.log (diagnostics: compare
# them separately, they are not generated code).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: dump-generated.sh OUTDIR [BUILD-DIR]}"
build="${2:-$root/build}"
llvm=$(sed -n 's/^SOAVIEW_LLVM_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)
cxx="clang++-${llvm:-19}"
plugin="$build/lib/soaview.so"
translate="$build/bin/soaview-translate"
inc="$root/runtime/include"
export SOAVIEW_CONVERT=always
mkdir -p "$out"/{host,omp-host,omp-device,cuda}

sources=$(cd "$root" && ls examples/small/*.cpp examples/bench/*.cpp \
  examples/sph/kernels.cpp test/Exec/*.cpp test/Exec/constructs/*.cpp \
  test/Rewrite/*.cpp test/Offload/Inputs/*.cpp 2>/dev/null)
cuda_flags=(--cuda-path=/usr/local/cuda -nogpulib)

for src in $sources; do
  name=$(echo "$src" | tr '/' '_')
  flags=(-std=c++17 -I"$root/$(dirname "$src")" -I"$root/test/Inputs"
         -I"$root/examples/small" -DSPH_NS=dump -Wno-unknown-attributes)
  plug=(-fsyntax-only -fplugin="$plugin" -isystem "$inc")
  "$cxx" "${plug[@]}" "${flags[@]}" -fplugin-arg-soaview-dump="$out/host/$name" \
    "$root/$src" >"$out/host/$name.log" 2>&1
  "$cxx" "${plug[@]}" "${flags[@]}" -fopenmp \
    -fplugin-arg-soaview-dump="$out/omp-host/$name" \
    "$root/$src" >"$out/omp-host/$name.log" 2>&1
  "$cxx" "${plug[@]}" "${flags[@]}" -fopenmp --offload-arch=sm_90 \
    --offload-device-only "${cuda_flags[@]}" \
    -fplugin-arg-soaview-dump="$out/omp-device/$name" \
    "$root/$src" >"$out/omp-device/$name.log" 2>&1
  "$translate" --backend=cuda "$root/$src" -o "$out/cuda/$name.cu" -- \
    "${flags[@]}" >"$out/cuda/$name.log" 2>&1
done
echo "dump-generated: $(echo "$sources" | wc -w) sources into $out"
