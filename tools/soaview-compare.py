#!/usr/bin/env python3
"""Build a program with plain clang++ and with soaview-clang++, run both on
the same arguments, and require byte-identical output: is it correct, and
is it faster (--time)?

  soaview-compare [--plain CXX] [--soaview SOAVIEWXX] [--flags "-O2"]
                  [--soaview-flags=FLAGS] [--views N] [--run "ARGS"]...
                  [--time] [--repeat N] SOURCE

Installed as soaview-compare beside soaview-clang++; --soaview defaults to
that soaview-clang++ and --plain to the clang++ it wraps
(soaview-config --clang).

--soaview-flags are given to the soaview build only (plugin arguments such
as -fplugin-arg-soaview-annotate=all).

--views N checks that the soaview build converted exactly N loops (counted
from its remarks), so a comparison cannot pass because nothing was converted.
Exit status 0 only when every run matched. Used by test/Exec and the demo.
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time


def build(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(" ".join(cmd) + "\n" + r.stderr)
        sys.exit(f"build failed: {cmd[0]}")
    return r.stderr


def run(exe, args):
    t0 = time.perf_counter()
    r = subprocess.run([exe] + shlex.split(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit(f"{exe} {args}: exit status {r.returncode}")
    return r.stdout, dt


def sibling(name):
    """A tool installed beside this script (bin/ of a build or install tree)."""
    return os.path.join(os.path.dirname(os.path.realpath(__file__)), name)


def default_plain():
    """The clang++ that soaview-clang++ wraps."""
    r = subprocess.run([sibling("soaview-config"), "--clang"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        sys.exit("soaview-compare: give --plain CXX (soaview-config --clang failed)")
    return r.stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plain", help="the plain compiler (default: the clang++ soaview wraps)")
    ap.add_argument("--soaview", help="default: the soaview-clang++ beside this script")
    ap.add_argument("--flags", default="-O2")
    ap.add_argument("--soaview-flags", default="")
    ap.add_argument("--views", type=int)
    ap.add_argument("--run", action="append", default=[])
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per build; times are medians")
    ap.add_argument("--out", default=None, help="directory for binaries")
    ap.add_argument("source")
    a = ap.parse_args()
    a.plain = a.plain or default_plain()
    a.soaview = a.soaview or sibling("soaview-clang++")
    out = a.out or tempfile.mkdtemp(prefix="soaview-compare-")
    os.makedirs(out, exist_ok=True)
    stem = os.path.splitext(os.path.basename(a.source))[0]
    flags = shlex.split(a.flags)
    plain = os.path.join(out, stem + ".plain")
    sv = os.path.join(out, stem + ".soaview")
    build([a.plain] + flags + ["-Wno-unknown-attributes", a.source, "-o", plain])
    log = build([a.soaview] + flags + shlex.split(a.soaview_flags) +
                ["-fplugin-arg-soaview-remarks", a.source, "-o", sv])
    views = log.count("remark: soaview: view of")
    if a.views is not None and views != a.views:
        sys.stderr.write(log)
        sys.exit(f"{stem}: expected {a.views} converted loop(s), soaview reported {views}")
    ok = True
    for args in a.run or [""]:
        pts, sts = [], []
        for _ in range(a.repeat):
            po, pt = run(plain, args)
            so, st = run(sv, args)
            pts.append(pt)
            sts.append(st)
        pt, st = sorted(pts)[len(pts) // 2], sorted(sts)[len(sts) // 2]
        same = po == so and po != ""
        ok &= same
        line = f"{stem} [{args}] {'PASS' if same else 'FAIL'}"
        if a.time:
            med = " (median of %d)" % a.repeat if a.repeat > 1 else ""
            line += f"  plain {pt*1e3:9.1f} ms  soaview {st*1e3:9.1f} ms  speedup {pt/st:5.2f}x{med}"
        print(line)
        if not same:
            sys.stderr.write("--- plain\n" + po + "--- soaview\n" + so)
    print(f"{stem}: {views} loop(s) converted, {'all runs identical' if ok else 'MISMATCH'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
