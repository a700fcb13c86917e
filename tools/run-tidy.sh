#!/usr/bin/env bash
# clang-tidy over soaview's own code (docs/testing.md, "Static checks"): the
# checks of .clang-tidy (runtime/.clang-tidy for the runtime) over sources of
# the runtime (runtime/src) and of the plugin (plugin/*/*.cpp), and the
# headers of ours they include. Any warning fails.
#   tools/run-tidy.sh BUILD-DIR [--all | FILE...]
# BUILD-DIR: a build CMake configured (it writes compile_commands.json there;
# tools/setup.sh makes one). FILE...: these sources (paths under the
# repository). --all: every source of the runtime and the plugin (about 14
# CPU-minutes). Neither (CI): every runtime source, the plugin sources the
# commit under test changes (against its parent) or the work tree changes
# (a changed header: the .cpp of its name), and half of the other plugin
# sources, every second one in name order, the half picked by the last
# digit of HEAD's hash: every plugin source comes up about every second
# commit (about 7 CPU-minutes, 3.6 minutes on 2 cores).
# Runs clang-tidy-22 (tools/setup.sh installs it), TIDY_JOBS at once
# (default: one per core): it skips the system headers (LLVM's and Clang's
# among them), about twice as fast as clang-tidy-19 on the plugin's files.
# Prints each finding and ends with "tidy: N files, M with warnings".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:?usage: tools/run-tidy.sh BUILD-DIR [--all | FILE...]}"; shift
build="$(cd "$build" 2>/dev/null && pwd)"
[ -f "$build/compile_commands.json" ] ||
  { echo "tidy: no compile_commands.json in $build (configure it with CMake)" >&2; exit 2; }
tidy=clang-tidy-22
command -v "$tidy" >/dev/null ||
  { echo "tidy: no $tidy (tools/setup.sh installs it)" >&2; exit 2; }

cd "$root" || exit 2
if [ "${1:-}" = --all ]; then
  files=(runtime/src/*.cpp plugin/*/*.cpp)
elif [ $# -gt 0 ]; then
  files=("$@")
else
  files=(runtime/src/*.cpp)
  # The half: the last hex digit of HEAD's hash (without git, of the day).
  head=$(git rev-parse HEAD 2>/dev/null || date +%j)
  half=$((16#${head: -1} % 2))
  changed=$({ git diff --name-only HEAD~1 HEAD; git diff --name-only HEAD; } 2>/dev/null |
            sed -n 's/^\(plugin\/.*\)\.\(cpp\|h\)$/\1.cpp/p')
  plugin=(plugin/*/*.cpp)
  taken=0
  for i in "${!plugin[@]}"; do
    f=${plugin[$i]}
    if [ $((i % 2)) -eq "$half" ] || grep -qxF "$f" <<<"$changed"; then
      files+=("$f"); taken=$((taken + 1))
    fi
  done
  echo "tidy: the runtime's $((${#files[@]} - taken)) sources and $taken of" \
    "the plugin's ${#plugin[@]} (half $half by HEAD's hash, and the changed ones)"
fi
logs=$(mktemp -d "${TMPDIR:-/tmp}/soaview-tidy.XXXXXX")
trap 'rm -rf "$logs"' EXIT
# TIDY_JOBS clang-tidy at once; each file's output to its own log, shown in
# order.
# --warnings-as-errors: a finding makes clang-tidy exit non-zero.
printf '%s\n' "${files[@]}" |
  TIDY=$tidy BUILD=$build LOGS=$logs xargs -P "${TIDY_JOBS:-$(nproc)}" -I{} bash -c \
    '"$TIDY" -p "$BUILD" --quiet --warnings-as-errors="*" "$1" \
       >"$LOGS/$(echo "$1" | tr / _).log" 2>&1 ||
     echo "$1" >>"$LOGS/failed"' _ {}
for f in "${files[@]}"; do
  log="$logs/$(echo "$f" | tr / _).log"
  # Drop clang-tidy's "N warnings generated" (those of headers not ours).
  grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$' "$log" || true
done
bad=0; [ -f "$logs/failed" ] && bad=$(sort -u "$logs/failed" | wc -l)
echo "tidy: ${#files[@]} files, $bad with warnings"
[ "$bad" -eq 0 ]
