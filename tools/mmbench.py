#!/usr/bin/env python3
"""mmbench: the memory managers compared on one over-committed workload.

For each configuration (mm=swap, mm=paging, mm=paging refbits=sw) boots the
kernel under `-icount shift=0,sleep=off` with mem=8M and a 64M swap disk,
runs the same hog workload needing four times physical memory on one hart,
and reads:

  hog's FL-JSON record    elapsed_ms (virtual time under icount), bad pages
  `vmstat -j`             page-ins/outs, swap-ins/outs, reclaims, clock scans
  `lat meters`            the kernel meters over the hog run alone (they are
                          reset just before it): vm.*, fault.* events; the
                          vm.* and fault.* legs are the thread's own work, its
                          time switched out is in vm.page_wait,
                          vm.swap_wait and fault.wait

Each configuration runs --repeat times (3 by `make mmbench`): the disk
answers in host time, so under icount the counts that depend on when it
answers move from run to run, and the report marks every figure that did
(mm.md says why). Writes OUT_DIR/mm.md (a table per manager), mm.json and
mm.png; --docs-md rewrites the <!-- begin:mm-summary --> block of a doc.

  python3 tools/mmbench.py [--kernel build/kernel.elf] [--initrd build/initrd.cpio]
                           [--out-dir build/mmbench] [--repeat N]
                           [--only swap|paging|paging-sw]... [--docs-md docs/measurement.md]
  python3 tools/mmbench.py --from-log DIR   # re-render from kept console logs
  python3 tools/mmbench.py --quick          # one small run per manager (tests)
"""

import argparse
import json
import re
import statistics
import sys
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import docblocks  # noqa: E402
import faultline as fq  # noqa: E402

MEM = "mem=8M"
DISK_SIZE = "64M"
# One hart: under -icount with two harts the paging runs crawl on the host
# (`hog -p 2 -m 4096 -r 1` under mm=paging mem=8M did not finish in 100 s,
# against 9 s with one hart), see docs/measurement.md.
CPUS = 1
ICOUNT_ARGS = ["-icount", "shift=0,sleep=off"]   # what Machine.start(icount=True) adds
# name -> (extra kernel arguments, hog arguments): each needs 4 x 8 MiB;
# under mm=swap a whole process must fit in memory, so more, smaller ones.
CONFIGS = {
    "swap": ("mm=swap", "-p 8 -m 4096 -r 2"),
    "paging": ("mm=paging", "-p 4 -m 8192 -r 2"),
    "paging-sw": ("mm=paging refbits=sw", "-p 4 -m 8192 -r 2"),
}
# --quick: the same managers on a workload that still pages (2x memory, one
# round) but boots and finishes in seconds: a check that the tool works.
QUICK_HOG = {"swap": "-p 4 -m 4096 -r 1", "paging": "-p 2 -m 8192 -r 1",
             "paging-sw": "-p 2 -m 8192 -r 1"}
METER_EVENTS = ("vm.pagein", "vm.pageout", "vm.swapin", "vm.swapout", "vm.minor_fault",
                "vm.page_wait", "vm.swap_wait")
# The kernel's own work moving pages in and out, per page moved. Kept
# apart, never summed: under paging a page-in that finds memory full makes
# room first, so vm.pagein holds the page-out (and the clock's scan) nested
# in it.
IN_EVENTS, IN_PAGES = ("vm.pagein", "vm.swapin"), ("pageins", "swapin_pages")
OUT_EVENTS, OUT_PAGES = ("vm.pageout", "vm.swapout"), ("pageouts", "swapout_pages")
WAIT_EVENTS = ("vm.page_wait", "vm.swap_wait", "fault.wait")
METER_PREFIXES = ("fault.",)
VMSTAT_FIELDS = ("faults", "zero_fills", "minor_faults", "pageins", "pageouts", "reclaims",
                 "clock_scans", "swapins", "swapouts", "swapin_pages", "swapout_pages",
                 "io_errors", "oom_kills")

BOOT_TIMEOUT = 180.0
HART_TIMEOUT = 60.0
HART_ONLINE = re.compile(r"faultline: hart \d+ online")
HOG_TIMEOUT = 1200.0
HOG_IDLE_TIMEOUT = 600.0
HALT_TIMEOUT = 60.0


def say(msg: str) -> None:
    print(f"mmbench: {msg}", file=sys.stderr, flush=True)


# ----- parsing (pure) -------------------------------------------------------------

def parse_run(console: str) -> dict:
    """From one run's console text: {"hog": record, "vmstat": record,
    "meters": {event: meter}}, each None/empty if missing. The meters are
    those of the last `lat meters` (the one after the hog run)."""
    hog, vmstat, meters = None, None, {}
    for obj in fq.parse_json_lines(fq.json_lines_apart(console)):
        if obj.get("bench") == "hog":
            hog = obj
        elif obj.get("vmstat") == "counters":
            vmstat = obj
        elif "meters" in obj:
            meters = {m["event"]: m for m in obj["meters"] if wanted_meter(m.get("event", ""))}
    return {"hog": hog, "vmstat": vmstat, "meters": meters}


def wanted_meter(event: str) -> bool:
    return event in METER_EVENTS or event.startswith(METER_PREFIXES)


def meter_stats(meter: dict) -> dict:
    count = meter.get("count", 0)
    return {"count": count,
            "min": meter.get("min") if count else None,
            "mean": meter["sum"] / count if count else None,
            "max": meter.get("max") if count else None}


def summarize(name: str, parsed: dict, hog_args: Optional[str] = None) -> dict:
    """One run's figures."""
    hog, vm = parsed["hog"] or {}, parsed["vmstat"] or {}
    meters = {e: meter_stats(m) for e, m in sorted(parsed["meters"].items())}
    return {
        "config": name,
        "append": f"{CONFIGS[name][0]} {MEM}" if name in CONFIGS else None,
        "hog_args": hog_args or (CONFIGS[name][1] if name in CONFIGS else None),
        "elapsed_ms": hog.get("elapsed_ms"),
        "bad_pages": hog.get("bad_pages"),
        "failed_children": hog.get("failed_children"),
        "pages_checked": hog.get("pages_checked"),
        "vmstat": {k: vm.get(k) for k in VMSTAT_FIELDS},
        "meters": meters,
        "in_per_page": per_page(meters, vm, IN_EVENTS, IN_PAGES),
        "out_per_page": per_page(meters, vm, OUT_EVENTS, OUT_PAGES),
    }


def per_page(meters: dict, vm: dict, events, pages_keys) -> Optional[float]:
    """The events' total own work over the pages they moved."""
    pages = sum(vm.get(k) or 0 for k in pages_keys)
    work = sum(m["mean"] * m["count"] for e, m in meters.items() if e in events and m["count"])
    return work / pages if pages and work else None


def _median(values: list):
    values = [v for v in values if isinstance(v, (int, float))]
    if not values:
        return None
    m = statistics.median_low(values)
    return m


def combine_runs(runs: list) -> dict:
    """One configuration's runs: the median run's figures (median_low, so a
    value that was really seen), the range of each, and the runs themselves."""
    first = runs[0]
    out = {k: first[k] for k in ("config", "append", "hog_args")}
    out["runs"] = runs
    out["n_runs"] = len(runs)
    for key in ("elapsed_ms", "bad_pages", "failed_children", "pages_checked", "in_per_page",
                "out_per_page"):
        values = [r[key] for r in runs]
        out[key] = _median(values)
        seen = [v for v in values if isinstance(v, (int, float))]
        out[key + "_min"] = min(seen) if seen else None
        out[key + "_max"] = max(seen) if seen else None
    out["vmstat"] = {k: _median([r["vmstat"][k] for r in runs]) for k in VMSTAT_FIELDS}
    out["vmstat_min"] = {k: _min([r["vmstat"][k] for r in runs]) for k in VMSTAT_FIELDS}
    out["vmstat_max"] = {k: _max([r["vmstat"][k] for r in runs]) for k in VMSTAT_FIELDS}
    events = sorted({e for r in runs for e in r["meters"]})
    out["meters"] = {}
    for e in events:
        stats = [r["meters"].get(e) for r in runs if r["meters"].get(e)]
        out["meters"][e] = {
            f"{k}_{agg.__name__.strip('_')}": agg([s[k] for s in stats])
            for k in ("count", "min", "mean", "max") for agg in (_min, _max)}
    return out


def _min(values):
    values = [v for v in values if isinstance(v, (int, float))]
    return min(values) if values else None


def _max(values):
    values = [v for v in values if isinstance(v, (int, float))]
    return max(values) if values else None


def fmt(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.0f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def fmt_range(lo, hi) -> str:
    """One value if the runs agreed, else "lo .. hi"."""
    if lo == hi or hi is None or lo is None:
        return fmt(lo if lo is not None else hi)
    return f"{fmt(lo)} .. {fmt(hi)}"


MOVES_NOTE = (
    "**Which figures move, and why.** Under `-icount shift=0,sleep=off` the "
    "instructions a hart runs are counted exactly, but the virtio-blk disk completes "
    "requests in host time. A thread that waits for the disk switches out and, with "
    "nothing else to run, its hart idles; under `sleep=off` QEMU then moves the virtual "
    "clock straight to the next timer deadline. The kernel's 10 ms scheduler tick keeps "
    "arming one, so while the host works on one request the idle hart runs tick after "
    "tick, each a few hundred instructions, each 10 virtual ms: the virtual clock runs "
    "as fast as the host can run the idle tick, and a disk wait costs anything from two "
    "thousand virtual ns (the request done before the thread slept) to seconds (see the "
    "spread of `vm.page_wait`, `vm.swap_wait` and `fault.wait`; one 8-process swap run "
    "that took about 15 s of host time counted 5,026 virtual s of elapsed time). So "
    "everything that reads the clock depends on how busy the host was: the elapsed time, "
    "which process the scheduler runs at each tick, and the swapper's decisions, which "
    "are made in virtual time (`SWAPPER_PERIOD_MS`, `SWAP_MIN_IN_MS`, `SWAP_MIN_OUT_MS` "
    "in kernel/include/config.h). A different order of events moves different pages: the "
    "counts of page-ins, page-outs, swap-ins, swap-outs and clock scans, and the count "
    "and mean of every meter, move with it. What does not move: the pages checked and "
    "found bad (the workload's own), and a path's own-work minimum where the path takes "
    "the same branch. A page-in or page-out whose request completed before the thread "
    "slept runs no sleep and wake-up and has the completion interrupt counted as time "
    "off its work, so its minimum is lower than that of one that slept (for a page-in "
    "by about a hundred instructions: the sleep and the wake-up); which of the two a "
    "run's minimum comes from is again up to the host. Compare managers by what moved and by the own work per page, "
    "not by elapsed time.\n")


def markdown(results: list) -> str:
    """results: combine_runs() per configuration (or one summarize() each)."""
    results = [r if "runs" in r else combine_runs([r]) for r in results]
    n = max((r["n_runs"] for r in results), default=1)
    out = ["# faultline memory managers under a 4x over-commit\n",
           f"Each run boots with `{MEM}` (8 MiB of frames for everything), a {DISK_SIZE} "
           f"virtio-blk swap disk and {CPUS} hart under `{' '.join(ICOUNT_ARGS)}`, and runs "
           "one `hog` needing four times physical memory, then `vmstat -j` and "
           f"`lat meters`; each configuration ran {n} time(s). Times are virtual "
           "(icount: one instruction = one ns while a hart runs). Meter values are per "
           "event, over the hog run alone (the meters are reset just before it): the "
           "`vm.*` and `fault.*` legs are the thread's own work, in instructions; the "
           "time it spent switched out, waiting for the disk or for room, is in "
           "`vm.page_wait`, `vm.swap_wait` and `fault.wait`, which count virtual time "
           "including the clock's jumps over idle. A figure shown as `a .. b` differed "
           "between runs (lowest .. highest); a single number was the same in every run. "
           "Regenerate with `make mmbench` (docs/measurement.md).\n",
           MOVES_NOTE]
    for r in results:
        vm, lo, hi = r["vmstat"], r["vmstat_min"], r["vmstat_max"]
        out.append(f"## {r['config']}: `{r['append']}`, `hog {r['hog_args']}`\n")
        header = "| measure | " + " | ".join(f"run {i + 1}" for i in range(r["n_runs"])) + \
            " | range |"
        out.append(header + "\n|---|" + "---:|" * (r["n_runs"] + 1))

        def row(label, get):
            values = [get(run) for run in r["runs"]]
            seen = [v for v in values if isinstance(v, (int, float))]
            rng = fmt_range(min(seen), max(seen)) if seen else "–"
            return f"| {label} | " + " | ".join(fmt(v) for v in values) + f" | {rng} |"
        out.append(row("workload elapsed (virtual ms)", lambda x: x["elapsed_ms"]))
        out.append(row("pages checked", lambda x: x["pages_checked"]))
        out.append(row("bad pages / failed children",
                       lambda x: (x["bad_pages"] or 0) + (x["failed_children"] or 0)
                       if x["bad_pages"] is not None else None))
        for label, key in (("page-ins", "pageins"), ("page-outs", "pageouts"),
                           ("swap-ins (processes)", "swapins"),
                           ("swap-outs (processes)", "swapouts"),
                           ("swap-in pages", "swapin_pages"), ("swap-out pages", "swapout_pages"),
                           ("reclaims", "reclaims"), ("clock scans", "clock_scans"),
                           ("faults", "faults"), ("minor faults", "minor_faults"),
                           ("I/O errors", "io_errors"), ("OOM kills", "oom_kills")):
            out.append(row(label, lambda x, k=key: x["vmstat"][k]))
        out.append(row("own work per page out (instructions)", lambda x: x["out_per_page"]))
        out.append(row("own work per page in, with making room (instructions)",
                       lambda x: x["in_per_page"]))
        out.append("")
        out.append("| meter event | count | min | mean | max |\n|---|---:|---:|---:|---:|")
        for event, m in r["meters"].items():
            out.append(f"| {event} | {fmt_range(m['count_min'], m['count_max'])} "
                       f"| {fmt_range(m['min_min'], m['min_max'])} "
                       f"| {fmt_range(m['mean_min'], m['mean_max'])} "
                       f"| {fmt_range(m['max_min'], m['max_max'])} |")
        out.append("")
    return "\n".join(out)


def summary_markdown(results: list) -> str:
    """The block docs/measurement.md quotes (mm-summary): per manager, what
    moved, the kernel's own work per page, and the elapsed time, each as
    the range over the runs."""
    results = [r if "runs" in r else combine_runs([r]) for r in results]
    n = max((r["n_runs"] for r in results), default=1)
    lines = [f"`make docs-results` (`{MEM}`, a {DISK_SIZE} disk, {CPUS} hart, "
             f"`{' '.join(ICOUNT_ARGS)}`), {n} run(s) per manager; `a .. b` is the "
             "lowest .. highest over the runs. Own work per page is the `vm.*` meters' "
             "instructions (waits left out) over the pages moved; a page-in's includes "
             "making room when memory is full. Elapsed time is host-paced (below).\n"]
    rows = []
    for r in results:
        lo, hi = r["vmstat_min"], r["vmstat_max"]
        swap = r["config"] == "swap"
        out_key, in_key = ("swapout_pages", "swapin_pages") if swap else ("pageouts", "pageins")
        moves = ("swapouts", "swap-outs") if swap else ("clock_scans", "clock scans")
        secs = [v / 1000 if v is not None else None
                for v in (r["elapsed_ms_min"], r["elapsed_ms_max"])]
        rows.append([f"`{r['append']}`",
                     f"{fmt(r['pages_checked'])} / "
                     f"{fmt_range(r['bad_pages_min'], r['bad_pages_max'])}",
                     fmt_range(lo[out_key], hi[out_key]), fmt_range(lo[in_key], hi[in_key]),
                     f"{fmt_range(lo[moves[0]], hi[moves[0]])} {moves[1]}",
                     fmt_range(r["out_per_page_min"], r["out_per_page_max"]),
                     fmt_range(r["in_per_page_min"], r["in_per_page_max"]),
                     fmt_range(*secs)])
    lines.append("| manager | pages checked / bad | pages out | pages in | moves | "
                 "own work per page out | own work per page in | elapsed (virtual s) |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# ----- running -------------------------------------------------------------------

def run_config(args, name: str, out_dir: Path, index: int, hog_args: str) -> str:
    extra, _ = CONFIGS[name]
    log_path = out_dir / f"mmbench-{name}-{index}.log"
    m = fq.Machine(args.kernel, args.initrd, workdir=out_dir, log_path=log_path,
                   name=f"mmbench-{name}", arch=args.arch)
    try:
        m.start(cpus=CPUS, append=f"{extra} {MEM}", icount=True,
                disk_size=DISK_SIZE)
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        # let the other harts' "hart N online" lines land before the first command
        while len(HART_ONLINE.findall(m.log)) < CPUS - 1:
            m.expect(HART_ONLINE, timeout=HART_TIMEOUT)
        m.run_shell("lat meters")          # drops the boot's meters
        say(f"{name} run {index}: hog {hog_args}")
        m.send(f"hog {hog_args}")
        m.expect_prompt(timeout=HOG_TIMEOUT, idle_timeout=HOG_IDLE_TIMEOUT)
        m.run_shell("lat meters")
        m.run_shell("vmstat -j")
        m.send("halt")
        m.wait_exit(timeout=HALT_TIMEOUT)
    except fq.MachineError as e:
        say(f"{name} run {index}: run failed: {e}")
    finally:
        m.close()
    return log_path.read_bytes().decode(errors="replace")


def logs_of(log_dir: Path, name: str) -> list:
    """Kept console logs of one configuration, in run order."""
    pattern = re.compile(rf"mmbench-{re.escape(name)}-(\d+)\.log$")   # not paging-sw for paging
    found = [(int(m.group(1)), p) for p in log_dir.glob(f"mmbench-{name}-*.log")
             if (m := pattern.match(p.name))]
    numbered = [p for _, p in sorted(found)]
    single = log_dir / f"mmbench-{name}.log"
    return numbered or ([single] if single.exists() else [])


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument("--kernel", default="build/kernel.elf")
    p.add_argument("--arch", default=fq.DEFAULT_ARCH, choices=sorted(fq.ARCHES),
                   help="the port the kernel was built for (make's ARCH)")
    p.add_argument("--initrd", default="build/initrd.cpio")
    p.add_argument("--out-dir", default="build/mmbench", type=Path,
                   help="where mm.md, mm.json and mm.png go (docs/results: make docs-results)")
    p.add_argument("--log-dir", default="build/mmbench", type=Path,
                   help="where the console logs and disks go")
    p.add_argument("--only", choices=sorted(CONFIGS), action="append")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="runs of each configuration (make mmbench: 3)")
    p.add_argument("--quick", action="store_true",
                   help="a small hog (2x memory, one round): checks the tool, not the managers")
    p.add_argument("--from-log", type=Path, metavar="DIR",
                   help="no QEMU: re-render from DIR/mmbench-<config>-<n>.log")
    p.add_argument("--docs-md", type=Path, metavar="MD",
                   help="rewrite the mm-summary block of this doc")
    p.add_argument("--no-plots", action="store_true")
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    names = args.only or list(CONFIGS)
    results, complete = [], True
    for name in names:
        hog_args = QUICK_HOG[name] if args.quick else CONFIGS[name][1]
        if args.from_log:
            consoles = [p.read_text(errors="replace") for p in logs_of(args.from_log, name)]
            if not consoles:
                say(f"{name}: no logs in {args.from_log}")
                complete = False
                continue
            hog_args = None
        else:
            args.log_dir.mkdir(parents=True, exist_ok=True)
            consoles = [run_config(args, name, args.log_dir, i + 1, hog_args)
                        for i in range(args.repeat)]
        runs = []
        for i, console in enumerate(consoles, 1):
            parsed = parse_run(console)
            if parsed["hog"] is None or parsed["vmstat"] is None:
                say(f"{name} run {i}: MISSING: no hog or vmstat record in the console; see the log")
                complete = False
            args_seen = hog_args
            if args_seen is None and parsed["hog"]:
                h = parsed["hog"]       # a kept log says what hog was asked for
                args_seen = f"-p {h.get('procs')} -m {h.get('kib_per_proc')} -r {h.get('rounds')}"
            runs.append(summarize(name, parsed, args_seen))
        results.append(combine_runs(runs))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "mm.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out_dir / "mm.md").write_text(markdown(results))
    wrote = [args.out_dir / "mm.md", args.out_dir / "mm.json"]
    if not args.no_plots:
        import plot_hist
        png = plot_hist.plot_mm(args.out_dir / "mm.png", results, plot_title(results))
        if png:
            wrote.append(png)
    if args.docs_md:
        changed = docblocks.rewrite(args.docs_md, {"mm-summary": summary_markdown(results)})
        say(f"{args.docs_md}: {'rewrote ' + ', '.join(changed) if changed else 'unchanged'}")
    say("wrote " + ", ".join(str(p) for p in wrote))
    for r in results:
        if any((run["bad_pages"] or 0) or (run["failed_children"] or 0) for run in r["runs"]):
            say(f"{r['config']}: FAILED: bad pages or failed children")
            complete = False
    return 0 if complete else 1


def plot_title(results: list) -> str:
    n = max((r["n_runs"] for r in results), default=1)
    return (f"Memory managers, hog at 4x memory: {MEM}, {DISK_SIZE} disk, {CPUS} hart, "
            f"icount shift=0; median of {n} run(s), bars show the range")


if __name__ == "__main__":
    sys.exit(main())
