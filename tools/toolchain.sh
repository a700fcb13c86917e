#!/usr/bin/env bash
# Prints, as shell assignments, the toolchain a soaview build directory was
# configured with: the LLVM major, its clang++ and its lit. tools/run-tests.sh
# sources it, so that the suite runs with the compiler soaview was built
# against, whichever Debian LLVM that is (docs/install.md).
#   eval "$(tools/toolchain.sh BUILD-DIR)"   # sets llvm, cxx, lit
set -euo pipefail
build="${1:?usage: toolchain.sh BUILD-DIR}"
cache="$build/CMakeCache.txt"
[ -f "$cache" ] || { echo "toolchain.sh: no CMakeCache.txt in $build" >&2; exit 2; }
value() { sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -n 1; }
llvm=$(value SOAVIEW_LLVM_VERSION)
cxx=$(value CMAKE_CXX_COMPILER)
[ -n "$llvm" ] && [ -n "$cxx" ] || { echo "toolchain.sh: $cache names no LLVM version or compiler" >&2; exit 2; }
echo "llvm=$llvm"
echo "cxx=$cxx"
# Debian ships lit as build/utils/lit/lit.py in LLVM 19 and as bin/lit in 22.
for lit in "/usr/lib/llvm-$llvm/build/utils/lit/lit.py" "/usr/lib/llvm-$llvm/bin/lit"; do
  [ -f "$lit" ] && { echo "lit=$lit"; exit 0; }
done
echo "toolchain.sh: no lit for LLVM $llvm (install llvm-$llvm-tools)" >&2
exit 2
