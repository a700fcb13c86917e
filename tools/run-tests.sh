#!/usr/bin/env bash
# Sets everything up and runs the whole soaview test suite: runtime unit tests
# (ctest, plus the pool stress test under ThreadSanitizer) and the lit suite
# (Sema, Rewrite, Exec), clang-tidy (tools/run-tidy.sh), the fuzzer, and the
# lit suite again against the other supported LLVM. Ends with one line
# "N passed, M failed".
#   tools/run-tests.sh [--llvm 19|22]   (the LLVM to build against first;
#                                        default 19, the other one second)
# Every compiler and lit it runs are those of the build it tests
# (tools/toolchain.sh).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
first=19
case "${1:-}" in
  --llvm) first="${2:?--llvm needs a version}" ;;
  --llvm=*) first="${1#--llvm=}" ;;
  "") ;;
  *) echo "usage: tools/run-tests.sh [--llvm 19|22]" >&2; exit 2 ;;
esac
case "$first" in 19) second=22 ;; 22) second=19 ;; *) echo "run-tests: LLVM $first is not supported (19 or 22)" >&2; exit 2 ;; esac
build="$root/build"; [ "$first" = 19 ] || build="$root/build-llvm$first"
other="$root/build"; [ "$second" = 19 ] || other="$root/build-llvm$second"
bash "$root/tools/setup.sh" --llvm "$first" "$build" || { echo "0 passed, 1 failed"; exit 1; }
eval "$(bash "$root/tools/toolchain.sh" "$build")" # llvm, cxx, lit

# Temporary files (libomptarget's host-offload images among them) go to one
# folder, removed at the end.
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/soaview-tests.XXXXXX"); export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

passed=0; failed=0
count() { if [ "$1" -eq 0 ]; then passed=$((passed + $2)); else failed=$((failed + ${3:-1})); fi; }
# count_lit OUTPUT STATUS: adds a lit run's passed and failed tests (a failing
# run that reports no failed test, say a crash of lit, counts as one failure).
count_lit() {
  local lp lf
  lp=$(echo "$1" | sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p'); lp=${lp:-0}
  lf=$(echo "$1" | sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p'); lf=${lf:-0}
  passed=$((passed + lp)); failed=$((failed + lf))
  [ "$2" -ne 0 ] && [ "$lf" -eq 0 ] && failed=$((failed + 1))
}

echo "== runtime unit tests (ctest)"
(cd "$build" && ctest --output-on-failure) ; rc=$?
n=$(cd "$build" && ctest -N | sed -n 's/Total Tests: //p'); count $rc "${n:-1}"

# A unit test built with -fsanitize=thread from the runtime's sources:
# under_tsan NAME TEST SOURCE... (paths under the repository).
under_tsan() {
  local name=$1 test=$2; shift 2
  local srcs=() f
  for f in "$test" "$@"; do srcs+=("$root/$f"); done
  "$cxx" -std=c++17 -O1 -g -fsanitize=thread -I"$root/runtime/include" \
    "${srcs[@]}" -o "$build/$name.tsan" &&
    TSAN_OPTIONS=halt_on_error=1 "$build/$name.tsan"
  count $? 1
}

echo "== runtime pool stress test under ThreadSanitizer"
# Every region source (a glob: a new one must not need this line changed).
under_tsan pool_test test/Unit/pool_test.cpp runtime/src/options.cpp runtime/src/pool.cpp \
  $(cd "$root" && echo runtime/src/region*.cpp) runtime/src/sweep.cpp

echo "== gated nests' shared choice under ThreadSanitizer"
under_tsan gate_test test/Unit/gate_test.cpp runtime/src/gate.cpp \
  runtime/src/options.cpp runtime/src/pool.cpp

echo "== device heap stress test under ThreadSanitizer (host threads)"
under_tsan heap_test test/Unit/heap_test.cpp runtime/src/heap.cpp \
  runtime/src/options.cpp runtime/src/pool.cpp

echo "== lit suite (LLVM $llvm)"
coverage="$build/diag-coverage"; rm -rf "$coverage"; mkdir -p "$coverage"
out=$(SOAVIEW_DIAG_COVERAGE="$coverage" python3 "$lit" -sv "$build/test" 2>&1); rc=$?
echo "$out" | tail -n 30
count_lit "$out" $rc

echo "== diagnostics catalogue: every entry reported by a -verify test"
python3 "$root/tools/check-diagnostics.py" coverage "$coverage"
count $? 1

echo "== clang-tidy: runtime and plugin sources, any warning fails"
bash "$root/tools/run-tidy.sh" "$build"
count $? 1

echo "== lit suite with plugin and runtime built with ASan + UBSan"
asan="$root/build-asan"; [ "$llvm" = 19 ] || asan="$root/build-asan-llvm$llvm"
if [ ! -f "$asan/build.ninja" ]; then
  launcher=(); command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSOAVIEW_LLVM_VERSION="$llvm" -DCMAKE_CXX_COMPILER="$cxx" \
    -DSOAVIEW_SANITIZE=ON "${launcher[@]}" >/dev/null
fi
if cmake --build "$asan" -- -j"$(nproc)" >/dev/null; then
  out=$(python3 "$lit" -sv "$asan/test" 2>&1); rc=$?
  # A failing test's output (its first 60 lines) and the list of failures.
  echo "$out" | awk '/^\*+ TEST .* FAILED \*+$/ { n = 60 } n > 0 { print; n-- }'
  echo "$out" | sed -n '/^Failed Tests/,/^$/p'
  echo "$out" | tail -n 4
  count $rc 1
else
  echo "sanitizer build failed"; count 1 1
fi

echo "== differential fuzzing: 200 random programs, plain vs soaview"
fuzz=$(python3 "$root/tools/soaview-fuzz.py" --count 200 --seed 20261121 \
  --plain "$cxx" --soaview "$build/bin/soaview-clang++" 2>&1); rc=$?
echo "$fuzz" | tail -n 4
count $rc 1

echo "== LLVM $second: the plugin built against Debian's clang-$second, the lit suite on it"
# setup.sh --llvm N swaps in libomp-N-dev (Debian's libomp-N-dev packages
# conflict); the last step swaps the first version's back.
if bash "$root/tools/setup.sh" --llvm "$second" "$other"; then
  other_lit=$(bash "$root/tools/toolchain.sh" "$other" | sed -n 's/^lit=//p')
  out=$(python3 "$other_lit" -s "$other/test" 2>&1); rc=$?
  echo "$out" | sed -n '/^Failed Tests/,/^$/p'
  echo "$out" | tail -n 8
  count_lit "$out" $rc
else
  echo "LLVM $second build failed"; count 1 1
fi
bash "$root/tools/setup.sh" --llvm "$first" "$build" >/dev/null || { echo "restoring LLVM $first failed"; count 1 1; }

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
