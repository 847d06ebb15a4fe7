#!/usr/bin/env python3
"""Plots a `tmasim sweep` table: cycles (top) and TMA bandwidth (bottom) against the first
swept key, one line per value of the second key (and of any after the third), one column
of panels per value of the third.

usage: plot_sweep.py SWEEP.csv OUT.png OUT.svg KEY1 [KEY2 [KEY3 ...]]"""
import csv
import itertools
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def number(v):
    try:
        return float(v)
    except ValueError:
        return None


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    table, png, svg, keys = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with open(table) as f:
        rows = [r for r in csv.DictReader(f) if not r.get("error")]
    if not rows:
        sys.exit("plot_sweep: no point ran")
    x_key = keys[0]
    facet_key = keys[2] if len(keys) > 2 else None
    series_keys = [k for k in keys[1:] if k != facet_key]
    distinct = lambda k: list(dict.fromkeys(r[k] for r in rows))  # noqa: E731
    facets = distinct(facet_key) if facet_key else [None]
    series = list(itertools.product(*[distinct(k) for k in series_keys])) if series_keys else [()]
    xs = distinct(x_key)
    numeric_x = all(number(x) is not None for x in xs)
    position = {x: (number(x) if numeric_x else i) for i, x in enumerate(xs)}

    fig, axes = plt.subplots(2, len(facets), figsize=(4.2 * len(facets) + 1.5, 7), squeeze=False, sharex=True,
                             sharey="row")
    metrics = [("cycles", "cycles (all CTAs done)"), ("tma_bandwidth_gbs", "TMA bandwidth (GB/s)")]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    # Series that coincide stay visible: each its own marker and dash, drawn a little translucent.
    markers, dashes = "osD^vP*X", ["-", "--", "-.", ":"]
    for col, facet in enumerate(facets):
        for row, (metric, label) in enumerate(metrics):
            ax = axes[row][col]
            for s, values in enumerate(series):
                pts = [r for r in rows if (facet is None or r[facet_key] == facet)
                       and all(r[k] == v for k, v in zip(series_keys, values))]
                pts.sort(key=lambda r: position[r[x_key]])
                name = ", ".join(f"{k}={v}" for k, v in zip(series_keys, values)) or "model"
                ax.plot([position[r[x_key]] for r in pts], [float(r[metric]) for r in pts],
                        marker=markers[s % len(markers)], linestyle=dashes[s % len(dashes)],
                        markersize=7 - 3 * s / max(1, len(series) - 1), alpha=0.8,
                        color=colours[s % len(colours)], label=name)
            ax.grid(True, alpha=0.3)
            if col == 0:
                ax.set_ylabel(label)
            if row == 0 and facet is not None:
                ax.set_title(f"{facet_key} = {facet}")
            if row == 1:
                ax.set_xlabel(x_key)
                if not numeric_x:
                    ax.set_xticks(range(len(xs)), xs)
    for row in axes:  # shared per row: the data's range over every panel, a margin either side
        lo, hi = min(ax.dataLim.y0 for ax in row), max(ax.dataLim.y1 for ax in row)
        pad = 0.05 * (hi - lo) if hi > lo else 0.05 * abs(hi) or 1.0
        row[0].set_ylim(lo - pad, hi + pad)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if len(series) > 1:
        fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.95), ncol=min(len(series), 4),
                   frameon=False)
    fig.suptitle(f"tmasim sweep: {table.rsplit('/', 1)[-1]}", y=0.99, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.9 if len(series) > 1 else 0.96))
    fig.savefig(png, dpi=110)
    fig.savefig(svg)


if __name__ == "__main__":
    main()
