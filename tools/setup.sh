#!/usr/bin/env bash
# Installs what soaview needs (Debian packages) and builds it.
# Idempotent: installs only missing packages, reconfigures only when needed.
# Usage: tools/setup.sh [--llvm 19|22] [build-dir]
#   --llvm N   the LLVM/Clang major to build against (default 19); the build
#              directory defaults to build/ for 19 and build-llvm22/ for 22.
# Debian's libomp-19-dev and libomp-22-dev conflict (one OpenMP development
# package at a time): setting up one version replaces the other's
# (docs/install.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
llvm=19
while [ $# -gt 0 ]; do
  case "$1" in
    --llvm) llvm="${2:?--llvm needs a version}"; shift 2 ;;
    --llvm=*) llvm="${1#--llvm=}"; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
case "$llvm" in
  19) default_build="$root/build" ;;
  22) default_build="$root/build-llvm22" ;;
  *) echo "soaview setup: LLVM $llvm is not supported (19 or 22)" >&2; exit 2 ;;
esac
build="${1:-$default_build}"

packages=(clang-$llvm libclang-$llvm-dev llvm-$llvm-dev libomp-$llvm-dev
          llvm-$llvm-tools clang-format-$llvm cmake ninja-build ccache python3)
# Open MPI for the SPH demonstrator's MPI build (soaview-sph-mpi; built only
# where CMake finds MPI).
packages+=(libopenmpi-dev openmpi-bin)
# clang-tidy for tools/run-tidy.sh: that of LLVM 22 whichever LLVM is built
# (it skips the system headers, twice as fast as clang-tidy-19 on the plugin).
packages+=(clang-tidy-22)
# LLVM 22 moved the offload runtime (libomptarget) into its own package.
[ "$llvm" -ge 20 ] && packages+=(liboffload-$llvm-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "soaview setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DSOAVIEW_LLVM_VERSION="$llvm" -DCMAKE_CXX_COMPILER="clang++-$llvm" \
    "${launcher[@]}" >/dev/null
fi
# Progress lines dropped, everything else (warnings, errors) shown; with
# pipefail the build's own status decides.
if ! cmake --build "$build" -- -j"$(nproc)" | { grep -vE '^\[[0-9]+/[0-9]+\]' || true; } \
   || [ ! -x "$build/bin/soaview-clang++" ]; then
  echo "soaview setup: build failed in $build" >&2
  exit 1
fi
echo "soaview setup: built in $build (LLVM $llvm)"
