#!/usr/bin/python3
"""sph-plot: figures in the style of [Radtke2025], section 7 (docs/references.md),
from soaview-sph's CSV.

  /usr/bin/python3 tools/sph-plot.py RESULTS.csv OUTDIR [--title TEXT]

Writes to OUTDIR:
  cost-<storage>-<fpmode>.png   cost per particle update (ns) against ppc,
                                one line per build, one panel per kernel
  speedup-<storage>.png         soaview (and offload) over plain per kernel
                                and ppc, strict and fast
  shares-<storage>.png          gather / compute / scatter share of the
                                soaview build per kernel (paper Table 2)
  shares-<storage>-<build>.png  the same for the offload and cuda builds,
                                with the copies to and from the device
  step-<storage>.png            the kernel "step": time per time step (ms)
                                against ppc, one line per build, one panel
                                per variant and fp mode (run-gpu.sh sph-step)
  threads-<kernel>-ppc<N>.png   for a launcher-count CSV (run-gpu.sh sph-launchers, with
                                a threads column): cost per particle update
                                of the device build against the number of
                                host threads launching cells, plain and the
                                10x line for reference
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
# The sweep builds in their backend's colour: one sweep per kernel solid, the
# view region dashed.
STYLES = {"offload-sweep": ("#d62728", "-"), "offload-region": ("#d62728", "--"),
          "cuda-sweep": ("#9467bd", "-"), "cuda-region": ("#9467bd", "--")}


def load(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            r["ppc"] = int(r["ppc"])
            r["particles"] = int(r["particles"])
            r["ns_per_update"] = float(r["ns_per_update"])
            if "threads" in r:
                r["threads"] = int(r["threads"])
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
    if not builds:  # say, only the sweep builds' steps (run-gpu.sh sph-step)
        return
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


PHASES = [("index_share", "lists (index)", "#bcbd22"),
          ("gather_share", "gather", "#ff7f0e"),
          ("to_device_share", "copy to device", "#8c564b"),
          (None, "compute", "#1f77b4"),
          ("from_device_share", "copy back", "#e377c2"),
          ("scatter_share", "scatter", "#2ca02c")]


def shares_plot(rows, storage, out, title, build="soaview"):
    """Phase shares of one build (fast mode): gather, compute, scatter, and
    for device builds the copies and the kernel (compute)."""
    sel = [r for r in rows if r["storage"] == storage and r["build"] == build
           and r.get("gather_share") and r["fpmode"] == "fast"]
    if not sel:
        return
    device = any(r.get("kernel_share") for r in sel)
    labels, bars = [], {name: [] for _, name, _ in PHASES}
    for r in sel:
        labels.append(f'{r["kernel"][:7]} {r["variant"][:5]} {r["ppc"]}')
        shares = {}
        for key, name, _ in PHASES:
            if key:
                shares[name] = 100 * float(r.get(key) or 0)
        if device:
            shares["compute"] = 100 * float(r["kernel_share"])
        else:
            shares["compute"] = max(0.0, 100 - sum(shares.values()))
        for name in bars:
            bars[name].append(shares[name])
    fig, ax = plt.subplots(figsize=(max(6, 0.35 * len(labels)), 4))
    xs = range(len(labels))
    bottom = [0.0] * len(labels)
    for key, name, color in PHASES:
        if not device and key in ("to_device_share", "from_device_share"):
            continue
        label = "kernel" if device and name == "compute" else name
        ax.bar(xs, bars[name], bottom=bottom, color=color, label=label)
        bottom = [a + b for a, b in zip(bottom, bars[name])]
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, rotation=70, fontsize=6)
    ax.set_ylabel("% of the converted loop's time")
    ax.legend(fontsize=7)
    what = "gather / copies / kernel / scatter" if device else "gather / compute / scatter"
    fig.suptitle(f"{title}: {what} ({build}, fast, {storage})", fontsize=9)
    fig.tight_layout()
    name = f"shares-{storage}.png" if build == "soaview" else f"shares-{storage}-{build}.png"
    fig.savefig(os.path.join(out, name), dpi=110)
    plt.close(fig)


def step_plot(rows, storage, out, title):
    """Time per time step (ns per update times particles) against ppc."""
    sel = [r for r in rows if r["storage"] == storage and r["kernel"] == "step"]
    if not sel:
        return
    fps = sorted({r["fpmode"] for r in sel}, key=lambda x: x != "strict")
    variants = sorted({r["variant"] for r in sel})
    fig, axes = plt.subplots(len(fps), len(variants), squeeze=False,
                             figsize=(5 * len(variants), 3.6 * len(fps)))
    for row, fp in zip(axes, fps):
        for ax, v in zip(row, variants):
            by = collections.defaultdict(list)
            for r in sel:
                if (r["fpmode"], r["variant"]) == (fp, v):
                    by[r["build"]].append((r["ppc"], r["ns_per_update"] * r["particles"] / 1e6))
            for b, pts in sorted(by.items()):
                pts.sort()
                color, ls = STYLES.get(b, (COLORS.get(b), "-"))
                ax.plot([p for p, _ in pts], [t for _, t in pts], marker="o",
                        color=color, ls=ls, label=b)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(f"step ({v}), {fp}", fontsize=9)
            ax.set_xlabel("particles per cell")
            ax.set_ylabel("ms per time step")
            ax.legend(fontsize=7)
    fig.suptitle(f"{title}: time per step, {storage} storage")
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"step-{storage}.png"), dpi=110)
    plt.close(fig)


def threads_plot(rows, out, title):
    """Cost per update against launching threads, one line per variant."""
    for kernel, ppc in sorted({(r["kernel"], r["ppc"]) for r in rows}):
        sel = [r for r in rows if r["kernel"] == kernel and r["ppc"] == ppc]
        fig, ax = plt.subplots(figsize=(6, 4))
        for i, variant in enumerate(sorted({r["variant"] for r in sel})):
            color = "C%d" % i
            dev = sorted((r["threads"], r["ns_per_update"]) for r in sel
                         if r["variant"] == variant and r["build"] != "plain")
            plain = sorted(r["ns_per_update"] for r in sel
                           if r["variant"] == variant and r["build"] == "plain")
            build = next(r["build"] for r in sel if r["build"] != "plain")
            ax.plot([t for t, _ in dev], [v for _, v in dev], "o-", color=color,
                    label="%s %s" % (variant, build))
            if plain:
                med = plain[len(plain) // 2]
                ax.axhline(med, color=color, ls=":", lw=1,
                           label="%s plain (median of runs)" % variant)
                ax.axhline(med / 10, color=color, ls="--", lw=1,
                           label="%s: 10x plain" % variant)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("host threads launching cells (one cell per launch)")
        ax.set_ylabel("ns per particle update")
        ax.set_title("%s: %s, ppc %d" % (title, kernel, ppc))
        ax.legend(fontsize=7)
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "threads-%s-ppc%d.png" % (kernel, ppc)), dpi=110)
        plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("outdir")
    ap.add_argument("--title", default="soaview-sph")
    a = ap.parse_args()
    rows = load(a.csv)
    os.makedirs(a.outdir, exist_ok=True)
    if rows and "threads" in rows[0]:
        threads_plot(rows, a.outdir, a.title)
        rows = []
    for storage in sorted({r["storage"] for r in rows}):
        for fp in ("strict", "fast"):
            cost_plot(rows, storage, fp, a.outdir, a.title)
        speedup_plot(rows, storage, a.outdir, a.title)
        step_plot(rows, storage, a.outdir, a.title)
        for build in ("soaview", "offload", "cuda"):
            shares_plot(rows, storage, a.outdir, a.title, build)
    print("\n".join(sorted(os.path.join(a.outdir, f) for f in os.listdir(a.outdir)
                           if f.endswith(".png"))))


if __name__ == "__main__":
    main()
