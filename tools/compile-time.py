#!/usr/bin/env python3
"""Compile time of soaview against the plain compile (docs/benchmarks.md,
"Compile time"). Times `-O3 -c` of each translation unit with plain clang++
and with soaview-clang++ (the plugin's two passes), median of --runs, and
prints the ratio. Translation units: examples/sph/kernels.cpp, and a large
generated one (--lines of code including <vector>, <list> and <algorithm>,
with one annotated nest per 250 lines).

  tools/compile-time.py [--build build] [--runs 5] [--lines 5000]
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def large_tu(lines):
    out = ["#include <algorithm>", "#include <list>", "#include <vector>",
           "#include <cmath>", ""]
    n = 0
    while len(out) < lines:
        out += [
            f"struct P{n} {{ double x[3], v[3], m, rho; int id; char pad[64]; }};",
            f"inline double k{n}(const P{n} *a, const P{n} *b) {{",
            "  double d = 0;",
            "  for (int c = 0; c < 3; ++c) d += (a->x[c] - b->x[c]) * (a->x[c] - b->x[c]);",
            "  return std::exp(-d) * b->m;",
            "}",
            f"void density{n}(std::vector<P{n} *> &local, std::vector<P{n} *> &active) {{",
            "  [[clang::soa_conversion]]",
            f"  for (P{n} *p : local) {{",
            "    [[clang::soa_conversion_hoist(1)]]",
            f"    for (const P{n} *q : active) p->rho += k{n}(p, q);",
            "  }",
            "}",
        ]
        # Ordinary code around the loops: containers and algorithms.
        for j in range(20):
            out += [
                f"double helper{n}_{j}(std::list<double> &l, std::vector<int> &v) {{",
                "  std::sort(v.begin(), v.end());",
                "  auto it = std::unique(v.begin(), v.end());",
                "  v.erase(it, v.end());",
                "  l.remove_if([](double d) { return d < 0; });",
                "  double s = 0;",
                "  for (double d : l) s += std::sqrt(d);",
                "  return s + (double)v.size();",
                "}",
            ]
        n += 1
    return "\n".join(out) + "\n"


def timed(cmd, runs):
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--lines", type=int, default=5000)
    a = ap.parse_args()
    config = os.path.join(a.build, "bin", "soaview-config")
    plain = subprocess.run([config, "--clang"], stdout=subprocess.PIPE,
                           text=True, check=True).stdout.strip()
    sv = os.path.join(a.build, "bin", "soaview-clang++")
    tmp = tempfile.mkdtemp(prefix="soaview-ct-")
    big = os.path.join(tmp, "large.cpp")
    with open(big, "w") as f:
        f.write(large_tu(a.lines))
    sph = os.path.join(ROOT, "examples", "sph")
    units = [
        ("examples/sph/kernels.cpp", [os.path.join(sph, "kernels.cpp"),
                                      "-DSPH_NS=ct", "-I" + sph]),
        (f"generated, {sum(1 for _ in open(big))} lines", [big]),
    ]
    common = ["-std=c++17", "-O3", "-c", "-o", os.path.join(tmp, "x.o"),
              "-Wno-unknown-attributes"]
    print(f"{'translation unit':32} {'plain s':>8} {'soaview s':>10} {'ratio':>6}")
    for name, args in units:
        tp = timed([plain] + common + args, a.runs)
        ts = timed([sv, "-fplugin-arg-soaview-convert=always"] + common + args, a.runs)
        print(f"{name:32} {tp:8.2f} {ts:10.2f} {ts / tp:6.2f}")


if __name__ == "__main__":
    sys.exit(main())
