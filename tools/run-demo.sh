#!/usr/bin/env bash
# The main job: sets everything up, builds soaview, compiles the bundled
# examples with plain clang++-19 and with soaview-clang++, runs both on the
# same random data, and prints whether the results agree and how fast each is.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
bash "$root/tools/setup.sh" "$build"
out="$build/demo"
mkdir -p "$out"
echo
echo "soaview demo: plain clang++-19 vs soaview-clang++ (-O3), same seed, same data"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
status=0
run() {
  python3 "$root/tools/soaview-compare.py" --plain clang++-19 \
    --soaview "$build/bin/soaview-clang++" --flags=-O3 --out "$out" --time --repeat 3 "$@" || status=1
}
run --views 1 --run "1 200000 20" "$root/examples/small/particles.cpp"
run --views 3 --run "1 2000000 20" "$root/examples/small/index_loops.cpp"
run --views 2 --run "1 200000 20" "$root/examples/small/templates.cpp"
run --views 4 --run "1 400000 1" "$root/examples/small/containers.cpp"
run --views 2 --run "1 256 20" "$root/examples/small/pairs.cpp"
echo
if [ $status -eq 0 ]; then echo "all converted programs reproduce the plain results exactly"; else echo "MISMATCH: see above"; fi
exit $status
