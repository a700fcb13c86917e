#!/usr/bin/python3
"""heap-plot: figures from soaview-heap-bench's CSV.

  /usr/bin/python3 tools/heap-plot.py heap.csv OUTDIR

Writes OUTDIR/heap-<test>.png for each test in the CSV (AD, ACD, AWD, P):
one panel per block size, kernel time (us, log) against threads (log), one
line per allocator (soaview's heap, CUDA's device malloc, the bump lower
bound); points where an allocator returned null are drawn hollow, points it
skipped (too slow) are left out. Needs Debian's python3-matplotlib.
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
    sys.exit("heap-plot: needs matplotlib: apt install python3-matplotlib, "
             "then run with /usr/bin/python3")

STYLE = {"soaview": ("#1f77b4", "soaview heap"),
         "cuda-malloc": ("#d62728", "CUDA device malloc"),
         "bump": ("#777777", "bump (lower bound)")}


def load(path):
    data = collections.defaultdict(list)  # (test, alloc, bytes) -> points
    with open(path) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            us = float(row["median_us"])
            if us < 0:
                continue
            key = (row["test"], row["allocator"], int(row["bytes"]))
            data[key].append((int(row["threads"]), us, int(row["failures"]) > 0))
    return data


def plot(data, test, out):
    sizes = sorted({b for (t, _, b) in data if t == test})
    fig, axes = plt.subplots(1, len(sizes), figsize=(3 * len(sizes), 3.2),
                             sharey=True, squeeze=False)
    for ax, size in zip(axes[0], sizes):
        for alloc, (color, label) in STYLE.items():
            pts = sorted(data.get((test, alloc, size), []))
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=color,
                    label=label, marker="o", markersize=3)
            failed = [p for p in pts if p[2]]
            ax.scatter([p[0] for p in failed], [p[1] for p in failed], s=40,
                       facecolors="white", edgecolors=color, zorder=3)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{size} B")
        ax.set_xlabel("threads")
        ax.grid(True, which="major", alpha=0.3)
    axes[0][0].set_ylabel("kernel time (us)")
    axes[0][-1].legend(fontsize=7)
    fig.suptitle(f"{test}: device allocation on the H100 (median of 5)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"heap-{test}.png"), dpi=90)
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = load(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    for test in sorted({t for (t, _, _) in data}):
        plot(data, test, sys.argv[2])


if __name__ == "__main__":
    main()
