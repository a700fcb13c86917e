#!/usr/bin/env python3
"""check-layers: the plugin's folders include only folders below them.

The pipeline's stages are folders of plugin/ (docs/design.md, "Source
layout"); each may include its own folder's headers and those of the folders
listed before it below, never one after it (an arrow pointing up).

    python3 tools/check-layers.py [PLUGIN-DIR]

Prints each include that points up and exits 1, or prints a one-line summary.
"""
import os
import re
import sys

# Lowest first.
LAYERS = ["support", "diag", "frontend", "forms", "analysis", "plan",
          "checks", "regions", "emit", "driver"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z]+)/[^"]+"', re.M)


def check(plugin):
    rank = {name: i for i, name in enumerate(LAYERS)}
    folders = sorted(d for d in os.listdir(plugin)
                     if os.path.isdir(os.path.join(plugin, d)))
    bad = [f"{d}: a folder of plugin/ the layers do not list" for d in folders
           if d not in rank]
    includes = 0
    for d in folders:
        if d not in rank:
            continue
        for name in sorted(os.listdir(os.path.join(plugin, d))):
            path = os.path.join(plugin, d, name)
            with open(path, encoding="utf-8") as f:
                for target in INCLUDE.findall(f.read()):
                    if target not in rank:
                        continue  # clang/, llvm/
                    includes += 1
                    if rank[target] > rank[d]:
                        bad.append(f"{d}/{name} includes {target}/: "
                                   f"{target} comes after {d}")
    return bad, includes


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    plugin = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "plugin")
    bad, includes = check(plugin)
    for line in bad:
        print(line)
    if bad:
        return 1
    print(f"check-layers: {includes} includes between plugin folders, "
          f"none pointing up ({' < '.join(LAYERS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
