#!/usr/bin/env bash
# Sets everything up and runs the whole soaview test suite: runtime unit tests
# (ctest, plus the pool stress test under ThreadSanitizer) and the lit suite
# (Sema, Rewrite, Exec), the fuzzer, and the lit suite again against LLVM 22.
# Ends with one line "N passed, M failed".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
bash "$root/tools/setup.sh" "$build" || { echo "0 passed, 1 failed"; exit 1; }

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

echo "== runtime pool stress test under ThreadSanitizer"
tsan="$build/pool_test.tsan"
clang++-19 -std=c++17 -O1 -g -fsanitize=thread -I"$root/runtime/include" \
  "$root/test/Unit/pool_test.cpp" "$root/runtime/src/pool.cpp" -o "$tsan" &&
  TSAN_OPTIONS=halt_on_error=1 "$tsan"
count $? 1

echo "== device heap stress test under ThreadSanitizer (host threads)"
clang++-19 -std=c++17 -O1 -g -fsanitize=thread -I"$root/runtime/include" \
  "$root/test/Unit/heap_test.cpp" "$root/runtime/src/heap.cpp" \
  "$root/runtime/src/pool.cpp" -o "$build/heap_test.tsan" &&
  TSAN_OPTIONS=halt_on_error=1 "$build/heap_test.tsan"
count $? 1

echo "== lit suite"
lit="/usr/lib/llvm-19/build/utils/lit/lit.py"
coverage="$build/diag-coverage"; rm -rf "$coverage"; mkdir -p "$coverage"
out=$(SOAVIEW_DIAG_COVERAGE="$coverage" python3 "$lit" -sv "$build/test" 2>&1); rc=$?
echo "$out" | tail -n 30
count_lit "$out" $rc

echo "== diagnostics catalogue: every entry reported by a -verify test"
python3 "$root/tools/check-diagnostics.py" coverage "$coverage"
count $? 1

echo "== lit suite with plugin and runtime built with ASan + UBSan"
asan="$root/build-asan"
if [ ! -f "$asan/build.ninja" ]; then
  launcher=(); command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++-19 -DSOAVIEW_SANITIZE=ON "${launcher[@]}" >/dev/null
fi
if cmake --build "$asan" -- -j"$(nproc)" >/dev/null; then
  out=$(python3 "$lit" -s "$asan/test" 2>&1); rc=$?
  echo "$out" | tail -n 4
  count $rc 1
else
  echo "sanitizer build failed"; count 1 1
fi

echo "== differential fuzzing: 200 random programs, plain vs soaview"
fuzz=$(python3 "$root/tools/soaview-fuzz.py" --count 200 --seed 20261121 \
  --soaview "$build/bin/soaview-clang++" 2>&1); rc=$?
echo "$fuzz" | tail -n 4
count $rc 1

echo "== LLVM 22: the plugin built against Debian's clang-22, the lit suite on it"
# setup.sh --llvm 22 swaps in libomp-22-dev (Debian's libomp-N-dev packages
# conflict); the last step swaps LLVM 19's back.
if bash "$root/tools/setup.sh" --llvm 22 "$root/build-llvm22"; then
  out=$(python3 "$lit" -s "$root/build-llvm22/test" 2>&1); rc=$?
  echo "$out" | tail -n 8
  count_lit "$out" $rc
else
  echo "LLVM 22 build failed"; count 1 1
fi
bash "$root/tools/setup.sh" "$build" >/dev/null || { echo "restoring LLVM 19 failed"; count 1 1; }

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
