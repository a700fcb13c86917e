#!/usr/bin/env python3
"""sph-mpi-plot: strong and weak scaling of soaview-sph-mpi (run-gpu.sh sph-mpi).

  sph-mpi-plot.py OUT.png strong_r1.csv strong_r2.csv [weak_r2.csv]

Time per step against ppc, split into the halo exchange and the rest, per
build and rank count (the CSV's step_ms and exchange_ms: the slowest rank).
"""
import csv
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("sph-mpi-plot: needs matplotlib: apt install python3-matplotlib, "
             "then run with /usr/bin/python3")


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    out, runs = sys.argv[1], [r for p in sys.argv[2:] for r in rows(p)]
    fig, ax = plt.subplots(figsize=(7, 4))
    labels = sorted({(r["build"], r["scaling"], r["ranks"]) for r in runs})
    width = 0.8 / len(labels)
    ppcs = sorted({int(r["ppc"]) for r in runs})
    for i, (build, scaling, ranks) in enumerate(labels):
        sel = {int(r["ppc"]): r for r in runs if r["build"] == build and
               r["scaling"] == scaling and r["ranks"] == ranks}
        xs = [k + i * width for k in range(len(ppcs))]
        step = [float(sel[p]["step_ms"]) for p in ppcs]
        exch = [float(sel[p]["exchange_ms"]) for p in ppcs]
        name = (f"{build}, {ranks} rank(s), {scaling}, "
                f"{sel[ppcs[0]]['particles']} particles")
        ax.bar(xs, [s - e for s, e in zip(step, exch)], width, label=name)
        ax.bar(xs, exch, width, bottom=[s - e for s, e in zip(step, exch)],
               color="black", alpha=0.35)
    ax.set_xticks([k + width * (len(labels) - 1) / 2 for k in range(len(ppcs))])
    ax.set_xticklabels([f"ppc {p}" for p in ppcs])
    ax.set_ylabel("ms per time step (grey: halo exchange)")
    ax.legend(fontsize=7)
    builds = ", ".join(sorted({b for b, _, _ in labels}))
    ax.set_title(f"soaview-sph-mpi, {builds}, a GPU per rank", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
