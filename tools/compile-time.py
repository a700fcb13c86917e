#!/usr/bin/env python3
"""Compile time of soaview against the plain compile (docs/benchmarks.md,
"Compile time"). Times `-O3 -c` of each translation unit with plain clang++
and with soaview-clang++ (the plugin's two passes; the default profitability
rule, and every annotated loop converted), median of --runs, and prints the
ratios. Translation units: examples/sph/kernels.cpp; the same less its
sweeps, beside examples/sph/manual.cpp, which converts those kernels by hand
(what structure-of-arrays code costs to compile when nobody generates it);
and a large generated one (--lines of code including <vector>, <list> and
<algorithm>, with one annotated nest per 250 lines).

  tools/compile-time.py [--build build] [--runs 5] [--lines 5000]
"""
import argparse, os, re, statistics, subprocess, sys, tempfile, time

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


def without_sweeps(src, dst):
    """kernels.cpp less its sweeps: the kernels examples/sph/manual.cpp
    converts by hand (pairs, active-local, the linear kernels)."""
    text = open(src).read()
    a = text.index("// ---- sweeps")
    b = text.index("// ---- linear kernels")
    text = text[:a] + text[b:]
    text, n = re.subn(r", (density|force)(Branching|Masking)Sweep\}", ", nullptr}", text)
    if n != 4:
        sys.exit("compile-time.py: kernels.cpp's kernel table changed; update without_sweeps")
    with open(dst, "w") as f:
        f.write(text)


def timed(cmds, runs):
    """Median wall time of each command; the commands take turns, so a slow
    spell of the machine falls on all of them alike."""
    ts = [[] for _ in cmds]
    for _ in range(runs):
        for k, cmd in enumerate(cmds):
            if cmd is None:
                continue
            t = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            ts[k].append(time.perf_counter() - t)
    return [statistics.median(t) if t else None for t in ts]


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
    pairs = os.path.join(tmp, "kernels-without-sweeps.cpp")
    without_sweeps(os.path.join(sph, "kernels.cpp"), pairs)
    ns = ["-DSPH_NS=ct", "-I" + sph]
    # (name, arguments naming the source, hand-written SoA source of the
    # same kernels or None)
    units = [
        ("examples/sph/kernels.cpp", ns + [os.path.join(sph, "kernels.cpp")], None),
        ("kernels.cpp without sweeps", ns + [pairs], os.path.join(sph, "manual.cpp")),
        (f"generated, {sum(1 for _ in open(big))} lines", [big], None),
    ]
    common = ["-std=c++17", "-O3", "-c", "-o", os.path.join(tmp, "x.o"),
              "-Wno-unknown-attributes"]
    print(f"median of {a.runs}; soaview: default profitability rule / every "
          "annotated loop converted; hand-written: the same kernels in SoA "
          "by hand (manual.cpp)")
    print(f"{'translation unit':30} {'plain s':>8} {'soaview s':>10} "
          f"{'always s':>9} {'hand s':>7} {'ratio':>6} {'always':>7} {'hand':>6}")
    for name, args, hand in units:
        tp, ts, ta, th = timed([
            [plain] + common + args,
            [sv] + common + args,
            [sv, "-fplugin-arg-soaview-convert=always"] + common + args,
            [plain] + common + ns + [hand] if hand else None,
        ], a.runs)
        hs = f"{th:7.2f}" if th else f"{'-':>7}"
        hr = f"{th / tp:6.2f}" if th else f"{'-':>6}"
        print(f"{name:30} {tp:8.2f} {ts:10.2f} {ta:9.2f} {hs} {ts / tp:6.2f} "
              f"{ta / tp:7.2f} {hr}")


if __name__ == "__main__":
    sys.exit(main())
