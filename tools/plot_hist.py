"""Histogram plots for faultline's measurements (used by tools/report.py).

The kernel and `lat` keep log2 histograms: bucket k counts the samples in
[2^k, 2^(k+1)), and only non-empty buckets are printed, as [lo, hi, count]
triples. Plotting them on a log2 x axis keeps every bucket the same width,
so the shape of the distribution (one tight peak, or a long tail from an
interrupt that landed inside a sample) is visible at a glance.

matplotlib is imported lazily with the Agg backend: report.py must work on a
machine without a display, and the parsing code must not need matplotlib.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional, Sequence, Tuple, Union

Bucket = Tuple[float, float, int]

# Figure size in inches and resolution: readable when embedded in Markdown
# at page width, small enough to keep build/bench/ light.
FIGURE_SIZE = (7.0, 4.0)
FIGURE_DPI = 100
# Several meter events share one figure; this many columns of small plots.
METER_COLUMNS = 3
METER_PANEL_HEIGHT = 2.4
# Counts are drawn on a log scale so that a handful of slow samples (an
# interrupt inside a measured interval) stay visible beside a peak of
# thousands; the axis starts below one sample so a single one shows.
COUNT_AXIS_BOTTOM = 0.5


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")           # no display needed, and no window pops up
    import matplotlib.pyplot as plt
    return plt


def normalize_hist(hist: Iterable[Sequence]) -> list:
    """[[lo, hi, count], ...] -> sorted (lo, hi, count) tuples on log2 edges.

    Bucket k is [2^k, 2^(k+1)); `lat` prints its upper bound inclusive
    (2^(k+1) - 1) and bucket 0 as [0, 1]. Only `lo` identifies the bucket,
    so the edges are rebuilt from it: lo > 0 gives [lo, 2 lo), lo = 0 gives
    [0, 1). Malformed or empty rows are dropped: a plot must not fail on one
    bad row.
    """
    out = []
    for row in hist or ():
        try:
            lo, count = float(row[0]), int(row[2])
        except (TypeError, ValueError, IndexError):
            continue
        if count > 0 and lo >= 0:
            out.append((lo, 2 * lo if lo > 0 else 1.0, count))
    out.sort()
    return out


def _draw(ax, buckets: list, unit: str) -> None:
    # A zero-valued sample lands in [0, 1): a log axis cannot start at 0, so
    # that bucket is drawn from 1/2 instead (still one log2 step wide).
    lefts = [lo if lo > 0 else hi / 2 for lo, hi, _ in buckets]
    widths = [hi - left for left, (_, hi, _) in zip(lefts, buckets)]
    counts = [c for _, _, c in buckets]
    ax.bar(lefts, counts, width=widths, align="edge", edgecolor="black", linewidth=0.5)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_ylim(bottom=COUNT_AXIS_BOTTOM)
    ax.set_xlabel(f"{unit} (log2 buckets)")
    ax.set_ylabel("samples")


def _save(fig, path: Union[str, Path]) -> Path:
    """Lays the figure out and writes it as PNG, creating the folder."""
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    return path


def plot_histogram(path: Union[str, Path], title: str, hist: Iterable[Sequence],
                   unit: str = "instructions") -> Optional[Path]:
    """Writes one bar chart of a log2 histogram as PNG. Returns the path, or
    None when there is nothing to draw (no non-empty bucket)."""
    buckets = normalize_hist(hist)
    if not buckets:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=FIGURE_SIZE, dpi=FIGURE_DPI)
    try:
        _draw(ax, buckets, unit)
        ax.set_title(title)
        return _save(fig, path)
    finally:
        plt.close(fig)


def plot_meters(path: Union[str, Path], meters: Sequence[dict],
                title: str = "kernel meters") -> Optional[Path]:
    """One PNG with a small histogram per meter event (and hart). Returns the
    path, or None when no meter has a non-empty histogram."""
    panels = []
    for meter in meters:
        buckets = normalize_hist(meter.get("hist"))
        if buckets:
            hart = meter.get("hart", -1)
            label = meter.get("event", "?") + ("" if hart in (-1, None) else f" hart {hart}")
            if meter.get("bench"):
                label += f" [{meter['bench']}]"
            panels.append((label, buckets, meter.get("unit", "cycles")))
    if not panels:
        return None
    plt = _pyplot()
    rows = (len(panels) + METER_COLUMNS - 1) // METER_COLUMNS
    width = FIGURE_SIZE[0] * METER_COLUMNS / 1.5
    fig, axes = plt.subplots(rows, METER_COLUMNS, squeeze=False, dpi=FIGURE_DPI,
                             figsize=(width, METER_PANEL_HEIGHT * rows))
    try:
        flat = [ax for row in axes for ax in row]
        for ax, (label, buckets, unit) in zip(flat, panels):
            _draw(ax, buckets, unit)
            ax.set_title(label, fontsize="small")
        for ax in flat[len(panels):]:
            ax.set_visible(False)
        fig.suptitle(title)
        return _save(fig, path)
    finally:
        plt.close(fig)
