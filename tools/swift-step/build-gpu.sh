#!/bin/bash
# Builds the GPU binaries of swift-step here (the GPU node has no clang) into
# a bundle folder, with the shared libraries they need; run-gpu.sh (copied
# into the bundle) runs them on the node:
#   bash tools/swift-step/build-gpu.sh --swift /path/to/swift [--soaview BUILD-OR-PREFIX] [--bundle DIR] [--sweeps] [--schemes "minimal pressure-energy sphenix"] [--offload-variant NAME "FLAGS"]...
#   (on the GPU node)  bash DIR/run-gpu.sh [driver args]
# Per scheme, each binary holds the plain kernels (clang++-19 -fopenmp,
# x86-64-v3) and one soaview build, checked against plain with --tolerance gpu:
#   swift-step-<scheme>-offload-gpu  soaview-clang++ -fopenmp --offload-arch=sm_90
#   swift-step-<scheme>-cuda         soaview-translate --backend=cuda + nvcc -arch=sm_90
# --offload-variant NAME "FLAGS" adds swift-step-<scheme>-offload-NAME, the
# OpenMP build with FLAGS too (e.g. ws "-fplugin-arg-soaview-bare-kernels=off").
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SWEEPS=0 SWIFT= VARIANTS=() PREFIX=$(cd "$HERE/../.." && pwd)/build SCHEMES="minimal pressure-energy sphenix"
BUNDLE=$PREFIX/swift-step/gpu-bundle
while [ $# -gt 0 ]; do
  case "$1" in
    --swift) SWIFT=$2; shift 2;; --soaview) PREFIX=$2; shift 2;; --sweeps) SWEEPS=1; shift;;
    --bundle) BUNDLE=$2; shift 2;; --schemes) SCHEMES=$2; shift 2;;
    --offload-variant) VARIANTS+=("$2" "$3"); shift 3;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
[ -n "$SWIFT" ] && [ -f "$SWIFT/src/hydro.h" ] || { echo "--swift must name a SWIFT checkout (with src/hydro.h)" >&2; exit 2; }
SV=$PREFIX/bin/soaview-clang++ TR=$PREFIX/bin/soaview-translate NVCC=/usr/local/cuda/bin/nvcc
CUDART=/usr/local/cuda/lib64/libcudart_static.a
# the runtime's headers, in a build tree or an installed prefix
RTINC=$("$PREFIX/bin/soaview-config" --cflags | grep -o -- '-I[^ ]*')
rm -rf "$BUNDLE"; mkdir -p "$BUNDLE/bin" "$BUNDLE/lib"
W=$PREFIX/swift-step/gpu; rm -rf "$W"; mkdir -p "$W"
INC=$W/swift-include; mkdir -p "$INC"
(cd "$SWIFT/src" && find . -name '*.h' -exec cp --parents {} "$INC/" \;)   # SWIFT's headers, unchanged
log() { echo "+ $*" >&2; "$@"; }
# x86-64-v3 for every host object (the node's CPU has AVX2/FMA); no FMA
# contraction, so that only device math differs from plain.
STRICT=(-std=c++17 -O3 -ffp-contract=off -Wno-unknown-attributes)
ARCH=(--offload-arch=sm_90)
MARCH_HOST=(-Xarch_host -march=x86-64-v3)
status=0
for scheme in $SCHEMES; do
  case "$scheme" in
    minimal) DEF=SWIFT_STEP_SCHEME_MINIMAL;; pressure-energy) DEF=SWIFT_STEP_SCHEME_PRESSURE_ENERGY;;
    sphenix) DEF=SWIFT_STEP_SCHEME_SPHENIX;; *) echo "unknown scheme $scheme" >&2; exit 2;;
  esac
  S=$W/$scheme; mkdir -p "$S"
  # ---- OpenMP offload (SWIFT's own cosmology struct)
  CPU=("${STRICT[@]}" -march=x86-64-v3 -I "$HERE/src" -I "$INC" -D$DEF)
  log clang++-19 "${CPU[@]}" -fopenmp -c "$HERE/src/main.cpp" -o "$S/main.o" &&
  log clang++-19 "${CPU[@]}" -c "$HERE/src/swift_stubs.cpp" -o "$S/stubs.o" &&
  log clang++-19 "${CPU[@]}" -fopenmp -DSTEP_NS=plain_step -DSWIFT_STEP_PLAIN -c "$HERE/src/step.cpp" -o "$S/plain.o" || { status=1; continue; }
  set -- gpu "" ${VARIANTS[@]+"${VARIANTS[@]}"}
  while [ $# -gt 0 ]; do
    variant=$1 flags=($2); shift 2
    name=swift-step-$scheme-offload-$variant
    if log "$SV" "${STRICT[@]}" "${MARCH_HOST[@]}" -fopenmp "${ARCH[@]}" -I "$HERE/src" -I "$INC" -D$DEF \
         -DSTEP_NS=conv_step -DSWIFT_STEP_BUILD_NAME="\"offload-$variant\"" -fplugin-arg-soaview-remarks \
         ${flags[@]+"${flags[@]}"} -c "$HERE/src/step.cpp" -o "$S/$name.o" 2> "$S/$name.log" &&
       log "$SV" -fopenmp "${ARCH[@]}" "$S/main.o" "$S/plain.o" "$S/$name.o" "$S/stubs.o" -o "$BUNDLE/bin/$name" 2>> "$S/$name.log"
    then echo "built $name"; else echo "BUILD FAILED: $name (see $S/$name.log)"; status=1; fi
  done
  # ---- CUDA backend. Every object of the binary uses our cosmology stand-in
  # (SWIFT's holds pointers, which soaview's CUDA backend refuses to copy into
  # a kernel); step.cpp gets SWIFT's kernel_hydro.h pasted in (kernel_coeffs
  # must be defined in the translated file); the headers soaview rewrites
  # (--output-dir) are laid over a copy of SWIFT's, so that SWIFT's relative
  # includes ("./hydro/Minimal/hydro.h") find the rewritten ones.
  CCPU=("${CPU[@]}" -DSWIFT_STEP_COSMOLOGY_STANDIN)
  log clang++-19 "${CCPU[@]}" -fopenmp -c "$HERE/src/main.cpp" -o "$S/cmain.o" &&
  log clang++-19 "${CCPU[@]}" -fopenmp -DSTEP_NS=plain_step -DSWIFT_STEP_PLAIN -c "$HERE/src/step.cpp" -o "$S/cplain.o" || { status=1; continue; }
  python3 "$HERE/paste_kernel.py" "$HERE/src/step.cpp" "$INC/kernel_hydro.h" "$S/step_cuda.cpp"
  # The step in its view region, and with --sweeps also as sweeps alone
  # (-DSWIFT_STEP_SWEEPS: each gathers and scatters its own views).
  for suffix in "" $([ "$SWEEPS" = 1 ] && echo -sweeps); do
    extra=(); [ "$suffix" = -sweeps ] && extra=(-DSWIFT_STEP_SWEEPS)
    name=swift-step-$scheme-cuda$suffix
    D=(-D$DEF -DSWIFT_STEP_COSMOLOGY_STANDIN -DSWIFT_STEP_KERNEL_PASTED -DSTEP_NS=conv_step
       -DSWIFT_STEP_BUILD_NAME="\"cuda$suffix\"" "${extra[@]}")
    T=$S/tr$suffix M=$S/merged$suffix; rm -rf "$T" "$M"
    if log "$TR" --backend=cuda --remarks "$S/step_cuda.cpp" --output-dir "$T" -- -std=c++17 -I "$HERE/src" -I "$INC" "${D[@]}" \
         2> "$S/$name.log" &&
       cp -r "$INC" "$M" && cp -r "$T/." "$M/" &&
       log "$NVCC" -arch=sm_90 -O3 -std=c++17 --extended-lambda --expt-relaxed-constexpr --fmad=false \
         -Xcompiler -fopenmp "$RTINC" -I "$M" -I "$HERE/src" "${D[@]}" \
         -x cu -c "$M/step_cuda.cpp" -o "$S/$name.o" 2>> "$S/$name.log" &&
       log clang++-19 -fopenmp "$S/cmain.o" "$S/cplain.o" "$S/$name.o" "$S/stubs.o" "$CUDART" -ldl -lrt -lpthread \
         -L"$PREFIX/lib" -lsoaview_rt -Wl,-rpath,'$ORIGIN/../lib' -o "$BUNDLE/bin/$name" 2>> "$S/$name.log"
    then echo "built $name"; else echo "BUILD FAILED: $name (see $S/$name.log)"; status=1; fi
    # nvcc only warns when device code calls a host function (the call then
    # does not do what it says): a build failure here.
    if grep -q -e '#20011-D' -e '#20014-D' "$S/$name.log"; then
      echo "BUILD FAILED: $name calls a host function from device code (see $S/$name.log)"
      rm -f "$BUNDLE/bin/$name"; status=1
    fi
  done
done
# soaview-clang++ rewrote the CUDA 13 cubin headers for LLVM 19's offload
# runtime after linking; check that every offload binary's were.
for b in "$BUNDLE"/bin/*-offload-*; do
  python3 "$HERE/../gpu/patch-cubin.py" --check "$b" || { echo "cubin check FAILED: $b"; status=1; }
done
# Runtime libraries: soaview's, and the LLVM 19 offload runtime with what it
# needs beyond the node's libc (as tools/gpu/build-gpu.sh packs them).
cp "$PREFIX/lib/libsoaview_rt.so" "$BUNDLE/lib/"
bash "$HERE/../gpu/pack-llvm-libs.sh" "$BUNDLE"
cp "$HERE/run-gpu.sh" "$BUNDLE/"
du -sh "$BUNDLE"; ls "$BUNDLE/bin"
exit $status
