#!/usr/bin/env bash
# The main job: sets everything up, builds soaview and the SPH demonstrator
# (examples/sph: the same annotated kernels built with plain clang++-19, with
# soaview-clang++, and as hand-written SoA), runs the quick comparison
# (under a minute on 2 cores) and prints the table: cost per particle
# update, speedups, and the physics check of every converted build against
# the plain one. CSV in build/sph-quick.csv; plots too when python3-matplotlib
# is installed. Full study: build/bin/soaview-sph --csv FILE (docs/benchmarks.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
bash "$root/tools/setup.sh" "$build"
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
status=0
"$build/bin/soaview-sph" --quick --csv "$build/sph-quick.csv" || status=$?
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  /usr/bin/python3 "$root/tools/sph-plot.py" "$build/sph-quick.csv" "$build/sph-plots" \
    --title "soaview-sph --quick" >/dev/null && echo "plots: $build/sph-plots/"
fi
exit $status
