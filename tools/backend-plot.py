#!/usr/bin/python3
"""backend-plot: figures of the backend benchmark (examples/bench).

  /usr/bin/python3 tools/backend-plot.py BACKENDS.csv OUTDIR

Writes OUTDIR/backends.png: per kernel (drift, density), the kernel time and
the whole per-call time against n for the generated CUDA, the OpenMP backend
and the hand-written CUDA kernel (log-log). Needs python3-matplotlib.
"""
import collections
import csv
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("backend-plot: needs matplotlib: apt install python3-matplotlib, "
             "then run with /usr/bin/python3")

COLORS = {"cuda": "#9467bd", "openmp": "#d62728", "manual": "#2ca02c"}
LABELS = {"cuda": "soaview, CUDA backend", "openmp": "soaview, OpenMP backend",
          "manual": "hand-written CUDA"}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    os.makedirs(sys.argv[2], exist_ok=True)
    kernels = ["drift", "density"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, k in zip(axes, kernels):
        by = collections.defaultdict(list)
        for r in rows:
            if r["kernel"] == k:
                by[r["variant"]].append((int(r["n"]), float(r["kernel_us"]),
                                         float(r["us_per_call"])))
        for v, pts in sorted(by.items()):
            pts.sort()
            xs = [p[0] for p in pts]
            ax.plot(xs, [p[1] for p in pts], "o-", color=COLORS.get(v),
                    label=LABELS.get(v, v) + " (kernel)")
            ax.plot(xs, [p[2] for p in pts], "s--", color=COLORS.get(v),
                    alpha=0.5, label=LABELS.get(v, v) + " (whole call)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("elements (density: local = active = n)")
        ax.set_ylabel("microseconds per call (median)")
        ax.set_title(k)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle("Backend benchmark on the H100: kernel and per-call time")
    fig.tight_layout()
    out = os.path.join(sys.argv[2], "backends.png")
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()
