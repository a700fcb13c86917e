#!/usr/bin/env bash
# Checks that soaview's own C++ is formatted as .clang-format says: the
# plugin, the runtime, the tools' C++ and the unit tests (examples and test
# programs are user code, in their authors' layout). Prints the files that
# are not, with what clang-format would change, and exits 1.
#   tools/check-format.sh CLANG-FORMAT     (e.g. clang-format-19)
#   tools/check-format.sh CLANG-FORMAT -i  (formats them in place)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
format="${1:?usage: check-format.sh CLANG-FORMAT [-i]}"
cd "$root"
files=$(find plugin runtime tools test/Unit -type f \
  \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' \) | sort)
if [ "${2:-}" = "-i" ]; then
  echo "$files" | xargs "$format" -i
  exit 0
fi
bad=0
for f in $files; do
  if ! out=$("$format" "$f" | diff -u "$f" - --label "$f" --label "$f (formatted)"); then
    echo "$out" | head -n 40
    bad=1
  fi
done
[ "$bad" -eq 0 ] && echo "check-format: $(echo "$files" | wc -l) files formatted"
exit $bad
