#!/usr/bin/env bash
# The measured choice of a gated nest (soaview/gate.h) against the nest as
# written and the size rule alone: examples/bench/gate_bench.cpp built plain
# and with soaview, run RUNS times (default 5) at each spread, one thread;
# prints the median seconds of each build, and the choice.
#   bash tools/bench-gate.sh [build dir] [runs]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
runs="${2:-5}"
eval "$(bash "$root/tools/toolchain.sh" "$build")"
tmp="$(mktemp -d)"
src="$root/examples/bench/gate_bench.cpp"
"$cxx" -O2 -Wno-unknown-attributes "$src" -o "$tmp/plain"
"$build/bin/soaview-clang++" -O2 "$src" -o "$tmp/soaview"
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
time_of() { for _ in $(seq "$runs"); do env "$@" | awk '{print $2}'; done | median; }
args="1000 3000 30"
echo "spread,plain_s,converted_s,measured_s,choice"
for spread in 3 100; do
  plain=$(time_of "$tmp/plain" $args $spread)
  conv=$(time_of SOAVIEW_TRIALS=0 "$tmp/soaview" $args $spread)
  meas=$(time_of "$tmp/soaview" $args $spread)
  choice=$(SOAVIEW_STATS=1 "$tmp/soaview" $args $spread 2>&1 >/dev/null |
    sed -n 's/.*: runs //p')
  # The three builds compute the same bits.
  d1=$("$tmp/plain" $args $spread | cut -d' ' -f1)
  d2=$(SOAVIEW_TRIALS=0 "$tmp/soaview" $args $spread | cut -d' ' -f1)
  d3=$("$tmp/soaview" $args $spread | cut -d' ' -f1)
  [ "$d1" = "$d2" ] && [ "$d1" = "$d3" ] || { echo "digests differ: $d1 $d2 $d3"; exit 1; }
  echo "$spread,$plain,$conv,$meas,$choice"
done
rm -rf "$tmp"
