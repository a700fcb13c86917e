#!/usr/bin/env python3
"""The two-rank step of call s16c against the 1.8x target: the build before
(old), and the inner rows before the exchange with 1, 2 and 4 edge rows a
side; ms per step from the transcripts (median of 3, slowest rank).
  /usr/bin/python3 plot.py   (writes inner-rows.png here)"""
import os
import re
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))


def steps(name):
    """{ppc: step_ms} of one transcript of s16c."""
    out, ppc = {}, None
    for line in open(os.path.join(here, "s16c", name + ".txt")):
        m = re.match(r"== ppc (\d+),", line)
        if m:
            ppc = int(m.group(1))
        elif line.startswith("cuda-region"):
            out[ppc] = float(line.split()[3])
    return out


rows = [("before (old)", "old_r2"), ("inner rows, 1 edge row", "new_r2"),
        ("2 edge rows", "new_r2_k2"), ("4 edge rows", "new_r2_k4")]
one = steps("new_r1")
fig, axes = plt.subplots(1, 2, figsize=(8, 3.6))
for ax, ppc in zip(axes, (256, 1024)):
    vals = [steps(f)[ppc] for _, f in rows]
    ax.bar(range(len(rows)), vals, color=["#999999", "#4477aa", "#66ccee", "#228833"])
    ax.axhline(one[ppc] / 1.8, color="#cc3311", ls="--", label="1 GPU / 1.8")
    ax.axhline(one[ppc] / 2, color="#000000", ls=":", label="1 GPU / 2")
    for i, v in enumerate(vals):
        ax.text(i, v, f"{one[ppc] / v:.2f}x", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r for r, _ in rows], rotation=20, ha="right", fontsize=8)
    ax.set_ylim(min(vals + [one[ppc] / 2]) * 0.9, max(vals) * 1.06)
    ax.set_title(f"ppc {ppc}: 2 GPUs, ms per step")
    ax.legend(fontsize=7, loc="upper right")
fig.suptitle("soaview-sph-mpi cuda-region, 2^20 particles, 2 x H200 (s16c); above the bars: the new build's one-GPU step over the bar", fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(here, "inner-rows.png"), dpi=110)
