#!/bin/bash
# SWIFT's hydro time step as soaview sweeps in one view region
# (docs/real-codes.md, "SWIFT's step on the GPU"): builds one scheme in every
# CPU variant and checks each against the plain build (in the same binary,
# bit for bit), then prints timings. SWIFT is not part of soaview: give a
# checkout; its headers are copied, unchanged, into the build folder.
#
#   bash tools/swift-step/run.sh --swift /path/to/swift
#        [--scheme minimal|pressure-energy|sphenix] [--soaview BUILD-OR-PREFIX]
#        [-- driver args]      (default: --side 12 --steps 2 --reps 3)
#
# Builds (in build/swift-step/<scheme>/ of the soaview build):
#   swift-step-plain         clang++-19 -O3 -fopenmp (both slots plain: checks the driver)
#   swift-step-region        soaview-clang++ -fopenmp, no offload target (host sweeps)
#   swift-step-offload-host  soaview-clang++ -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SWIFT= SCHEME=minimal PREFIX=$(cd "$HERE/../.." && pwd)/build
while [ $# -gt 0 ]; do
  case "$1" in
    --swift) SWIFT=$2; shift 2;; --scheme) SCHEME=$2; shift 2;;
    --soaview) PREFIX=$2; shift 2;;
    --) shift; break;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
ARGS=("$@"); [ ${#ARGS[@]} -gt 0 ] || ARGS=(--side 12 --steps 2 --reps 3)
[ -n "$SWIFT" ] && [ -f "$SWIFT/src/hydro.h" ] || { echo "--swift must name a SWIFT checkout (with src/hydro.h)" >&2; exit 2; }
case "$SCHEME" in
  minimal) DEF=SWIFT_STEP_SCHEME_MINIMAL;; pressure-energy) DEF=SWIFT_STEP_SCHEME_PRESSURE_ENERGY;;
  sphenix) DEF=SWIFT_STEP_SCHEME_SPHENIX;; *) echo "unknown scheme $SCHEME" >&2; exit 2;;
esac
[ -x "$PREFIX/bin/soaview-clang++" ] || { echo "no soaview at $PREFIX (build it: tools/setup.sh)" >&2; exit 2; }
B=$PREFIX/swift-step/$SCHEME; mkdir -p "$B"
# SWIFT's headers, unchanged, copied at build time (headers only).
rm -rf "$B/swift-include"; mkdir -p "$B/swift-include"
(cd "$SWIFT/src" && find . -name '*.h' -exec cp --parents {} "$B/swift-include/" \;)
SV=$PREFIX/bin/soaview-clang++
FL=(-std=c++17 -O3 -ffp-contract=off -Wno-unknown-attributes -I "$HERE/src" -I "$B/swift-include" -D$DEF)
HOSTOFF=(-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu)
log() { echo "+ $*" >&2; "$@"; }

# objects shared by every variant
log clang++-19 "${FL[@]}" -fopenmp -c "$HERE/src/main.cpp" -o "$B/main.o" || exit 1
log clang++-19 "${FL[@]}" -c "$HERE/src/swift_stubs.cpp" -o "$B/stubs.o" || exit 1
log clang++-19 "${FL[@]}" -fopenmp -DSTEP_NS=plain_step -DSWIFT_STEP_PLAIN -c "$HERE/src/step.cpp" -o "$B/plain_step.o" || exit 1

# variant NAME COMPILER "COMPILE+LINK FLAGS" [extra defines...]
variant() {
  local name=$1 cxx=$2 mode=$3; shift 3
  local -a extra=(); [ "$mode" = hostoff ] && extra=("${HOSTOFF[@]}") || extra=(-fopenmp)
  local -a rem=(); [ "$cxx" = "$SV" ] && rem=(-fplugin-arg-soaview-remarks)
  rm -f "$B/swift-step-$name"
  log "$cxx" "${FL[@]}" "${extra[@]}" -DSTEP_NS=conv_step -DSWIFT_STEP_BUILD_NAME="\"$name\"" "$@" "${rem[@]}" \
      -c "$HERE/src/step.cpp" -o "$B/$name.o" 2> "$B/$name.build.log" \
    && log "$cxx" "${extra[@]}" "$B/main.o" "$B/plain_step.o" "$B/$name.o" "$B/stubs.o" -o "$B/swift-step-$name" \
      2>> "$B/$name.build.log" \
    || echo "BUILD FAILED: $name (see $B/$name.build.log)"
}
variant plain clang++-19 cpu -DSWIFT_STEP_PLAIN &
variant region "$SV" cpu &
wait
variant offload-host "$SV" hostoff

rc=0
for b in plain region offload-host; do
  echo "== $SCHEME / $b"
  [ -x "$B/swift-step-$b" ] || { echo "not built"; rc=1; continue; }
  # OMP_TARGET_OFFLOAD=MANDATORY: the host-offload builds must really offload.
  env OMP_TARGET_OFFLOAD=MANDATORY "$B/swift-step-$b" "${ARGS[@]}" > "$B/$b.out" 2> "$B/$b.err"; r=$?
  grep -v '^swift-step: WARNING' "$B/$b.out" | head -40
  w=$(grep -c '^swift-step: WARNING' "$B/$b.out"); [ "$w" = 0 ] || echo "($w SWIFT warnings printed, see $B/$b.out)"
  [ -s "$B/$b.err" ] && { echo "stderr:"; head -5 "$B/$b.err"; }
  echo "exit status $r"; [ $r = 0 ] || rc=1
done
exit $rc
