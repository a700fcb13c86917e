#!/usr/bin/env bash
# Installs what soaview needs (Debian packages) and builds it into build/.
# Idempotent: installs only missing packages, reconfigures only when needed.
# Usage: tools/setup.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"

packages=(clang-19 libclang-19-dev llvm-19-dev libomp-19-dev llvm-19-tools
          cmake ninja-build ccache python3)
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
    -DCMAKE_CXX_COMPILER=clang++-19 "${launcher[@]}" >/dev/null
fi
# Progress lines dropped, everything else (warnings, errors) shown; with
# pipefail the build's own status decides.
if ! cmake --build "$build" -- -j"$(nproc)" | { grep -vE '^\[[0-9]+/[0-9]+\]' || true; } \
   || [ ! -x "$build/bin/soaview-clang++" ]; then
  echo "soaview setup: build failed in $build" >&2
  exit 1
fi
echo "soaview setup: built in $build"
