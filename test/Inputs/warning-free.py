#!/usr/bin/env python3
"""Converted code adds no warning: each SOURCE whose plain build is
warning-free under a set of warning flags is compiled with soaview-clang++,
the same flags and -Werror, and must compile (test/Exec/warnings.test).

  warning-free.py --plain CXX --soaview SOAVIEWXX --include DIR SOURCE...

Two sets: -Wall -Wextra -Wpedantic, and the same with -Wshadow and
-Wconversion. A file whose plain build warns under a set is skipped for it
(printed as `skip`), since its warnings are the user's. Prints one line per
file and set and `N checked, M skipped, K failed`; the exit status is 1 when
one failed.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

SETS = {
    "base": ["-Wall", "-Wextra", "-Wpedantic"],
    "strict": ["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wconversion"],
}


def compile(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return r.returncode, r.stdout


def check(src, set_name, flags, a):
    """The line for SOURCE under one set, and whether it failed."""
    name = os.path.basename(src)
    common = ["-std=c++17", "-fsyntax-only", "-isystem", a.include, src]
    rc, out = compile([a.plain, "-Wno-unknown-attributes"] + flags + common)
    if rc != 0 or "warning:" in out:
        return f"skip {set_name} {name}: the plain build warns", None
    # soaview's own warnings are about the user's code, not about the code
    # it generates: the virtual-functor programs call a base class that they
    # derive from on purpose (dynamic-type).
    rc, out = compile([a.soaview, "-Werror",
                       "-fplugin-arg-soaview-no-warn=dynamic-type"] + flags +
                      common)
    if rc != 0 or "warning:" in out:
        return f"FAIL {set_name} {name}\n{out}", True
    return f"ok {set_name} {name}", False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plain", required=True)
    ap.add_argument("--soaview", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    jobs = [(src, set_name, flags) for src in a.sources
            for set_name, flags in SETS.items()]
    # The compilers run in parallel; the lines come in the order of `jobs`.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        results = list(pool.map(lambda j: check(*j, a), jobs))
    checked = skipped = failed = 0
    for line, bad in results:
        print(line)
        skipped += bad is None
        checked += bad is not None
        failed += bool(bad)
    print(f"{checked} checked, {skipped} skipped, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
