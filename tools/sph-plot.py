#!/usr/bin/python3
"""sph-plot: the paper-style figures from soaview-sph's CSV.

  /usr/bin/python3 tools/sph-plot.py RESULTS.csv OUTDIR [--title TEXT]

Writes to OUTDIR:
  cost-<storage>-<fpmode>.png   cost per particle update (ns) against ppc,
                                one line per build, one panel per kernel
  speedup-<storage>.png         soaview (and offload) over plain per kernel
                                and ppc, strict and fast
  shares-<storage>.png          gather / compute / scatter share of the
                                soaview build per kernel (paper Table 2)
Needs Debian's python3-matplotlib (apt install python3-matplotlib).
"""
import argparse
import collections
import csv
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("sph-plot: needs matplotlib: apt install python3-matplotlib, "
             "then run with /usr/bin/python3")

COLORS = {"plain": "#777777", "soaview": "#1f77b4", "manual": "#2ca02c",
          "offload": "#d62728", "cuda": "#9467bd"}


def load(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            r["ppc"] = int(r["ppc"])
            r["particles"] = int(r["particles"])
            r["ns_per_update"] = float(r["ns_per_update"])
            rows.append(r)
    return rows


def kernels_of(rows):
    seen = []
    for r in rows:
        k = (r["kernel"], r["variant"])
        if k not in seen:
            seen.append(k)
    return seen


def cost_plot(rows, storage, fp, out, title):
    sel = [r for r in rows if r["storage"] == storage and r["fpmode"] == fp]
    if not sel:
        return
    ks = kernels_of(sel)
    cols = min(4, len(ks))
    nrows = (len(ks) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4 * cols, 3.2 * nrows), squeeze=False)
    for ax, (k, v) in zip(axes.flat, ks):
        by = collections.defaultdict(list)
        for r in sel:
            if (r["kernel"], r["variant"]) == (k, v):
                by[(r["build"], r["particles"])].append((r["ppc"], r["ns_per_update"]))
        for (b, n), pts in sorted(by.items()):
            pts.sort()
            ax.plot([p for p, _ in pts], [c for _, c in pts], marker="o",
                    color=COLORS.get(b), label=f"{b} ({n})")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{k} ({v})", fontsize=9)
        ax.set_xlabel("particles per cell")
        ax.set_ylabel("ns per particle update")
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(ks):]:
        ax.axis("off")
    fig.suptitle(f"{title}: cost per particle update, {storage} storage, {fp}")
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"cost-{storage}-{fp}.png"), dpi=110)
    plt.close(fig)


def speedup_plot(rows, storage, out, title):
    sel = [r for r in rows if r["storage"] == storage]
    if not sel:
        return
    plain = {(r["kernel"], r["variant"], r["ppc"], r["particles"], r["fpmode"]): r["ns_per_update"]
             for r in sel if r["build"] == "plain"}
    fps = sorted({r["fpmode"] for r in sel}, key=lambda x: x != "strict")
    builds = [b for b in ("soaview", "offload", "cuda") if any(r["build"] == b for r in sel)]
    fig, axes = plt.subplots(1, len(fps), figsize=(7 * len(fps), 4), squeeze=False)
    for ax, fp in zip(axes.flat, fps):
        labels, series = [], collections.defaultdict(list)
        for (k, v) in kernels_of(sel):
            for ppc in sorted({r["ppc"] for r in sel}):
                key_rows = [r for r in sel if (r["kernel"], r["variant"], r["ppc"], r["fpmode"]) == (k, v, ppc, fp)]
                if not key_rows:
                    continue
                n = max(r["particles"] for r in key_rows)
                labels.append(f"{k[:7]} {v[:5]} {ppc}")
                for b in builds:
                    got = [r["ns_per_update"] for r in key_rows if r["build"] == b and r["particles"] == n]
                    base = plain.get((k, v, ppc, n, fp))
                    series[b].append(base / got[0] if got and base else 0)
        xs = range(len(labels))
        w = 0.8 / max(1, len(builds))
        for i, b in enumerate(builds):
            ax.bar([x + i * w for x in xs], series[b], width=w, color=COLORS.get(b), label=b)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks([x + w * (len(builds) - 1) / 2 for x in xs])
        ax.set_xticklabels(labels, rotation=70, fontsize=6)
        ax.set_ylabel("speedup over plain")
        ax.set_title(fp)
        ax.legend(fontsize=7)
    fig.suptitle(f"{title}: speedup over the plain build, {storage} storage")
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"speedup-{storage}.png"), dpi=110)
    plt.close(fig)


def shares_plot(rows, storage, out, title):
    sel = [r for r in rows if r["storage"] == storage and r["build"] == "soaview"
           and r.get("gather_share")]
    if not sel:
        return
    labels, g, s, c = [], [], [], []
    for r in sel:
        if r["fpmode"] != "fast":
            continue
        labels.append(f'{r["kernel"][:7]} {r["variant"][:5]} {r["ppc"]}')
        gs, ss = float(r["gather_share"]), float(r["scatter_share"])
        g.append(100 * gs)
        s.append(100 * ss)
        c.append(max(0.0, 100 * (1 - gs - ss)))
    if not labels:
        return
    fig, ax = plt.subplots(figsize=(max(6, 0.35 * len(labels)), 4))
    xs = range(len(labels))
    ax.bar(xs, g, color="#ff7f0e", label="gather")
    ax.bar(xs, c, bottom=g, color="#1f77b4", label="compute")
    ax.bar(xs, s, bottom=[a + b for a, b in zip(g, c)], color="#2ca02c", label="scatter")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, rotation=70, fontsize=6)
    ax.set_ylabel("% of the converted loop's time")
    ax.legend(fontsize=7)
    fig.suptitle(f"{title}: gather / compute / scatter (soaview, fast, {storage})")
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"shares-{storage}.png"), dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("outdir")
    ap.add_argument("--title", default="soaview-sph")
    a = ap.parse_args()
    rows = load(a.csv)
    os.makedirs(a.outdir, exist_ok=True)
    for storage in sorted({r["storage"] for r in rows}):
        for fp in ("strict", "fast"):
            cost_plot(rows, storage, fp, a.outdir, a.title)
        speedup_plot(rows, storage, a.outdir, a.title)
        shares_plot(rows, storage, a.outdir, a.title)
    print("\n".join(sorted(os.path.join(a.outdir, f) for f in os.listdir(a.outdir)
                           if f.endswith(".png"))))


if __name__ == "__main__":
    main()
