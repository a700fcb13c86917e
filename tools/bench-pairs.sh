#!/usr/bin/env bash
# Symmetric pair nests over a container of pointers (issue #50):
# examples/bench/pair_pointers_bench.cpp built plain and with soaview (the
# default profitability rule: its size gate runs the nest as written below
# 96 objects and, above, the version its first calls measured faster), run
# RUNS times (default 5) at each size, one thread, the builds alternating;
# prints the median seconds of each build and their ratio, and the
# same with REPEATS objects held twice (the converted build then runs the
# nest as written, after its frame has found the repeat). The builds must
# print the same digest, or the script stops.
#   bash tools/bench-pairs.sh [build dir] [runs] [sizes...]
# With PAIRS_BIN=DIR it runs DIR/plain and DIR/soaview, built before
# (tools/gpu/build-gpu.sh does, for a node without clang).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
runs="${2:-5}"
shift $(( $# > 2 ? 2 : $# ))
sizes="${*:-64 512 4000}"
src="$root/examples/bench/pair_pointers_bench.cpp"
if [ -n "${PAIRS_BIN:-}" ]; then
  bin="$PAIRS_BIN"
else
  eval "$(bash "$root/tools/toolchain.sh" "$build")"
  bin="$(mktemp -d)"
  trap 'rm -rf "$bin"' EXIT
  "$cxx" -O2 -Wno-unknown-attributes "$src" -o "$bin/plain"
  "$build/bin/soaview-clang++" -O2 "$src" -o "$bin/soaview"
fi
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
# The two builds' runs alternate, so that a drift of the machine's speed
# weighs on both alike; prints the two medians.
time_both() {
  local p="" c=""
  for _ in $(seq "$runs"); do
    p+="$("$bin/plain" "$@" | awk '{print $2}') "
    c+="$("$bin/soaview" "$@" | awk '{print $2}') "
  done
  echo "$(tr ' ' '\n' <<<"$p" | grep . | median) $(tr ' ' '\n' <<<"$c" | grep . | median)"
}
echo "n,steps,repeats,plain_s,converted_s,plain/converted"
for n in $sizes; do
  # About 0.2 s of plain work at every size (pairs grow as n^2), and at
  # least 30 steps: a gated nest measures both versions in its first six
  # calls (soaview/gate.h), as a simulation's first steps would.
  steps=$(( 40000000 / (n * n) + 1 ))
  steps=$(( steps < 30 ? 30 : steps ))
  for rep in 0 1; do
    args="$n $steps $rep"
    d1=$("$bin/plain" $args | cut -d' ' -f1)
    d2=$("$bin/soaview" $args | cut -d' ' -f1)
    [ "$d1" = "$d2" ] || { echo "digests differ at $args: $d1 $d2"; exit 1; }
    read -r p c <<<"$(time_both $args)"
    echo "$n,$steps,$rep,$p,$c,$(awk -v p="$p" -v c="$c" 'BEGIN {printf "%.2f", p / c}')"
  done
done
