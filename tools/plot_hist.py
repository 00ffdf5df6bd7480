"""Plots of faultline's measurements (tools/report.py, tools/mmbench.py).

Three kinds, each drawn only where it says something:

  plot_paths      every path's median as a bar, split into the parts the
                  kernel meters time (stacked), so one picture shows what
                  each operation costs and where that goes;
  plot_histogram  a log2 histogram, only for a result whose samples spread
                  over more than one bucket (under icount most paths put
                  every sample in one bucket, and results.md says so);
  plot_mm         the memory managers side by side: pages moved, the
                  kernel's work moving them, and elapsed virtual time.

The kernel and `lat` keep log2 histograms: bucket k counts the samples in
[2^k, 2^(k+1)), and only non-empty buckets are printed, as [lo, hi, count]
triples. matplotlib is imported lazily with the Agg backend: the reports
must work without a display, and the parsing code without matplotlib.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional, Sequence, Tuple, Union

Bucket = Tuple[float, float, int]

FIGURE_DPI = 100
HIST_SIZE = (7.5, 4.2)            # inches
PATHS_WIDTH = 13.0
PATHS_ROW_HEIGHT = 0.42           # inches per bar
PATHS_PANEL_EXTRA = 1.0           # title and axis of each panel
MM_SIZE = (12.0, 4.4)
# Counts on a log scale, so a handful of slow samples stay visible beside
# a peak of thousands; the axis starts below one sample so a single one shows.
COUNT_AXIS_BOTTOM = 0.5
# One colour per part name, the same in every panel; "rest" is what the
# user-level time holds beyond the metered parts (trap entry and exit).
PART_COLOURS = {
    "total": "#4c72b0", "rest": "#c7c7c7",
    "entry_to_frame": "#dd8452", "zeroing": "#55a868", "frame_to_map": "#c44e52",
    "map_to_exit": "#8172b3", "delivery": "#937860", "return": "#da8bc3",
    "remap": "#17becf", "pagein": "#bcbd22", "swapout": "#9467bd", "swapin": "#2ca02c",
}
PART_LABELS = {
    "total": "whole operation (median)",
    "rest": "trap entry/exit and the rest, outside the metered parts",
    "entry_to_frame": "fault: trap entry -> frame", "zeroing": "fault: zeroing (or reading) the frame",
    "frame_to_map": "fault: frame -> mapping", "map_to_exit": "fault: mapping -> exit",
    "delivery": "signal: post -> handler on the other hart",
    "return": "signal: handler -> interrupted code",
    "remap": "minor fault: the remap", "pagein": "page-in: the kernel's own work (mean)",
    "swapout": "swap-out: own work (mean)", "swapin": "swap-in: own work (mean)",
}


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


# A result is drawn as a histogram only if its samples spread: at least
# two log2 buckets each hold a real share of them (SPREAD_SHARE, and never
# a lone sample), and the max is at least SPREAD_RATIO above the min. One
# sample an interrupt slowed, or a few instructions across a bucket edge
# (1019 and 1024), is not a distribution worth a picture; results.md
# states such outliers in words.
SPREAD_SHARE = 0.01
SPREAD_MIN_COUNT = 2
SPREAD_RATIO = 1.25


def spread(hist: Iterable[Sequence], stats: Optional[dict] = None) -> bool:
    """True if the samples spread enough to be worth a histogram."""
    buckets = normalize_hist(hist)
    total = sum(c for _, _, c in buckets)
    big = [b for b in buckets if b[2] >= max(SPREAD_MIN_COUNT, SPREAD_SHARE * total)]
    if len(big) < 2:
        return False
    lo, hi = _num(stats, "min"), _num(stats, "max")
    return lo is None or hi is None or hi >= SPREAD_RATIO * max(lo, 1.0)


def _save(fig, path: Union[str, Path]) -> Path:
    """Lays the figure out and writes it as PNG, creating the folder."""
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    return path


def plot_histogram(path: Union[str, Path], title: str, hist: Iterable[Sequence],
                   unit: str = "instructions", marks: Optional[dict] = None) -> Optional[Path]:
    """One log2 histogram as PNG, with the min, median, p90 and max of
    `marks` (a result object) drawn as lines. Returns the path, or None when
    there is nothing to draw (no non-empty bucket)."""
    buckets = normalize_hist(hist)
    if not buckets:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=HIST_SIZE, dpi=FIGURE_DPI)
    try:
        # A zero-valued sample lands in [0, 1): a log axis cannot start at 0,
        # so that bucket is drawn from 1/2 (still one log2 step wide).
        lefts = [lo if lo > 0 else hi / 2 for lo, hi, _ in buckets]
        widths = [hi - left for left, (_, hi, _) in zip(lefts, buckets)]
        counts = [c for _, _, c in buckets]
        ax.bar(lefts, counts, width=widths, align="edge", edgecolor="black", linewidth=0.5,
               color=PART_COLOURS["total"])
        for left, width, count in zip(lefts, widths, counts):
            ax.annotate(str(count), (left + width / 2, count), ha="center", va="bottom",
                        fontsize="small")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_ylim(bottom=COUNT_AXIS_BOTTOM, top=max(counts) * 3)
        ax.set_xlabel(f"{unit} per sample (log2 buckets)")
        ax.set_ylabel("samples (log scale)")
        styles = {"min": ":", "median": "-", "p90": "--", "max": "-."}
        for key, style in styles.items():
            value = (marks or {}).get(key)
            if isinstance(value, (int, float)) and value > 0:
                ax.axvline(value, color="black", linestyle=style, linewidth=1,
                           label=f"{key} {value:,.0f}")
        if marks:
            ax.legend(fontsize="small", loc="upper right")
        ax.set_title(title, fontsize="medium")
        return _save(fig, path)
    finally:
        plt.close(fig)


# ----- per-path medians with their breakdown ----------------------------------

def _num(obj, key: str) -> Optional[float]:
    value = obj.get(key) if isinstance(obj, dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else None


def _part(obj: dict, name: str, key: str = "mean") -> Optional[float]:
    parts = obj.get("parts") if isinstance(obj, dict) else None
    return _num(parts.get(name), key) if isinstance(parts, dict) else None


def path_rows(benches: dict) -> list:
    """Panels of bars: [(panel title, [(label, [(part, value)], note)], x label)].
    A bar's segments add up to the value it stands for; a path with parts
    from the meters shows them, and what the whole holds beyond them as
    "rest" (never negative: a part's mean may exceed its share of a median)."""
    def whole(name, parts=(), key="mean"):
        obj = benches.get(name)
        total = _num(obj, "median")
        if total is None:
            return None
        segs, used = [], 0.0
        for p in parts:
            v = _part(obj, p, key)
            if v is not None:
                segs.append((p, v))
                used += v
        if segs:
            segs.insert(0, ("rest", max(total - used, 0.0)))
        else:
            segs = [("total", total)]
        return (name, segs, f"{total:,.0f}")

    def unit_of(*names):
        """The unit of the first of these benchmarks that is there."""
        for name in names:
            obj = benches.get(name)
            if isinstance(obj, dict) and obj.get("unit"):
                return obj["unit"]
        return "?"

    calls = [whole(n) for n in ("getpid", "nop", "signal_self", "kill_self", "sigreturn",
                                "segv_catch")]
    calls.append(whole("signal_cross", ("delivery", "return"), key="median"))
    calls += [whole(n) for n in ("sigpingpong", "sigpingpong_cross")]
    faults = [whole("fault_zero", ("entry_to_frame", "zeroing", "frame_to_map", "map_to_exit")),
              whole("minor_fault", ("remap",))]
    pagein = benches.get("pagein")
    if _part(pagein, "pagein") is not None:
        wait = _part(pagein, "device_wait")
        faults.append(("pagein (own work)", [("pagein", _part(pagein, "pagein"))],
                       f"{_part(pagein, 'pagein'):,.0f} (mean)"
                       + (f" + {wait:,.0f} waiting, not drawn" if wait else "")))
    swap = benches.get("swapin")
    swaps = []
    for p in ("swapout", "swapin"):
        v = _part(swap, p)
        if v is not None:
            swaps.append((f"{p} (per round)", [(p, v)], f"{v:,.0f} (mean)"))
    wait = _part(swap, "device_wait")
    med = "medians; parts are kernel meter means"
    panels = [("system calls and signals", [r for r in calls if r], f"{unit_of('nop', 'getpid', 'signal_self', 'segv_catch')} ({med})"),
              ("page faults", [r for r in faults if r], f"{unit_of('fault_zero', 'minor_fault', 'pagein')} ({med})"),
              ("whole-process swap (mm=swap run): 64 heap pages and the image"
               + (f"; time switched out, {wait:,.0f} on average, not drawn" if wait else ""),
               swaps, f"{(swap or {}).get('unit', '?')} (kernel meter means, own work)")]
    return [(t, rows, xlabel) for t, rows, xlabel in panels if rows]


def plot_paths(path: Union[str, Path], benches: dict, title: str) -> Optional[Path]:
    """One figure, a panel per kind of path, a horizontal bar per path,
    each panel with a legend of the parts it shows."""
    panels = path_rows(benches)
    if not panels:
        return None
    plt = _pyplot()
    heights = [len(rows) * PATHS_ROW_HEIGHT + PATHS_PANEL_EXTRA for _, rows, _ in panels]
    fig, axes = plt.subplots(len(panels), 1, squeeze=False, dpi=FIGURE_DPI,
                             figsize=(PATHS_WIDTH, sum(heights) + 0.6),
                             gridspec_kw={"height_ratios": heights})
    try:
        for ax, (panel, rows, xlabel) in zip((a for row in axes for a in row), panels):
            labels = [r[0] for r in rows][::-1]
            seen = {}
            for y, (_, segs, note) in enumerate(rows[::-1]):
                left = 0.0
                for name, value in segs:
                    if value <= 0:
                        continue
                    bar = ax.barh(y, value, left=left, color=PART_COLOURS.get(name, "#999999"),
                                  edgecolor="black", linewidth=0.4)
                    seen.setdefault(name, bar)
                    left += value
                ax.annotate(note, (left, y), xytext=(4, 0), textcoords="offset points",
                            va="center", fontsize="small")
            ax.set_yticks(range(len(labels)))
            ax.set_yticklabels(labels)
            ax.set_title(panel, fontsize="medium", loc="left")
            ax.set_xlabel(xlabel)
            ax.margins(x=0.4)
            ax.xaxis.set_major_formatter(_thousands())
            order = [n for n in PART_LABELS if n in seen]
            if len(order) > 1:
                ax.legend([seen[n] for n in order], [PART_LABELS[n] for n in order],
                          loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small",
                          frameon=False)
        fig.suptitle(f"What each path costs: {title}", fontsize="medium")
        return _save(fig, path)
    finally:
        plt.close(fig)


def _thousands():
    from matplotlib.ticker import FuncFormatter
    return FuncFormatter(lambda v, _: f"{v:,.0f}")


# ----- memory managers ---------------------------------------------------------

MM_PAGE_SERIES = (("pages in", ("pageins", "swapin_pages")),
                  ("pages out", ("pageouts", "swapout_pages")))
NS_PER_S = 1e9


def _sum_counts(vmstat: dict, keys: Sequence[str]) -> Optional[float]:
    values = [vmstat.get(k) for k in keys]
    values = [v for v in values if isinstance(v, (int, float))]
    return float(sum(values)) if values else None


def _ranged_bars(ax, rows: Sequence[dict], series: Sequence[tuple]) -> None:
    """Grouped bars, one group per manager: series is [(label, colour,
    value(row), low(row), high(row))]. Each bar is the median run with the
    range over the runs as an error bar, and is labelled above that bar's
    range so no label sits on a bar or a whisker."""
    width = 0.8 / len(series)
    top = 0.0
    for i, (label, colour, value, low, high) in enumerate(series):
        values = [value(r) or 0 for r in rows]
        lo = [low(r) if low(r) is not None else v for r, v in zip(rows, values)]
        hi = [high(r) if high(r) is not None else v for r, v in zip(rows, values)]
        pos = [x + (i - (len(series) - 1) / 2) * width for x in range(len(rows))]
        ax.bar(pos, values, width, label=label if len(series) > 1 else None, color=colour,
               edgecolor="black", linewidth=0.4, capsize=3,
               yerr=[[max(v - a, 0) for v, a in zip(values, lo)],
                     [max(b - v, 0) for v, b in zip(values, hi)]])
        for x, v, h in zip(pos, values, hi):
            ax.annotate(f"{v:,.0f}", (x, max(v, h)), xytext=(0, 2), textcoords="offset points",
                        ha="center", va="bottom", fontsize="x-small")
        top = max([top] + hi)
    ax.set_ylim(0, top * 1.3 if top else 1)      # room for the labels and the legend
    ax.set_xticks(list(range(len(rows))))
    ax.set_xticklabels([r["config"] for r in rows])
    ax.yaxis.set_major_formatter(_thousands())
    if len(series) > 1:
        ax.legend(fontsize="small", loc="upper left")


def plot_mm(path: Union[str, Path], results: Sequence[dict], title: str) -> Optional[Path]:
    """Per manager (mmbench results): pages moved in and out, the kernel's
    own work per page moved (vm.* meters, waits left out), and the elapsed
    virtual time, which is host-paced. A result repeated over several runs
    shows the median run, with the range as an error bar."""
    rows = [r for r in results if r.get("vmstat")]
    if not rows:
        return None
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=MM_SIZE, dpi=FIGURE_DPI)
    try:
        blue, orange = "#1f77b4", "#ff7f0e"

        def pages(keys, which):
            return lambda r: _sum_counts(r.get(which) or r["vmstat"], keys)
        _ranged_bars(axes[0], rows, [
            (label, colour, pages(keys, "vmstat"), pages(keys, "vmstat_min"),
             pages(keys, "vmstat_max"))
            for (label, keys), colour in zip(MM_PAGE_SERIES, (blue, orange))])
        axes[0].set_ylabel("pages (4 KiB)")
        axes[0].set_title("pages moved to and from the disk", fontsize="medium")

        def field(key, scale=1.0):
            return lambda r: r.get(key) / scale if r.get(key) is not None else None
        _ranged_bars(axes[1], rows, [
            ("page in (with making room)", blue, field("in_per_page"),
             field("in_per_page_min"), field("in_per_page_max")),
            ("page out", orange, field("out_per_page"), field("out_per_page_min"),
             field("out_per_page_max"))])
        axes[1].set_ylabel("instructions per page")
        axes[1].set_title("kernel's own work per page moved\n(vm.* meters, waits left out)",
                          fontsize="medium")

        ms = 1000.0
        _ranged_bars(axes[2], rows, [
            ("elapsed", PART_COLOURS["total"], field("elapsed_ms", ms),
             field("elapsed_ms_min", ms), field("elapsed_ms_max", ms))])
        axes[2].set_ylabel("virtual seconds")
        axes[2].set_title("hog's elapsed virtual time\n(host-paced while the disk works: "
                          "mm.md)", fontsize="medium")
        fig.suptitle(title, fontsize="medium")
        return _save(fig, path)
    finally:
        plt.close(fig)
