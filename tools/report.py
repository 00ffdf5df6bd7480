#!/usr/bin/env python3
"""Runs faultline's microbenchmarks and turns their output into reports.

  report.py [--kernel build/kernel.elf] [--initrd build/initrd.cpio]
            [--cpus 2] [--mem 128M] [--out-dir build/bench]
            [--run NAME]... [--bench NAME]... [--docs-md docs/measurement.md]
  report.py --input LOG [--input LOG]... [--out-dir DIR]

Each benchmark runs in the configuration it needs, one boot per
configuration (RUNS below): the main run (default memory manager, a 64M
disk so that pagein has a swap device, --cpus harts for signal_cross),
an mm=swap run for swapin, and a meters=off run of the paths whose cost
with and without the meters docs/measurement.md quotes. Every boot is under
`-icount shift=0,sleep=off`; the kernel says at boot what its counters
count and `lat` labels its units from that. The tool waits for the shell
and every secondary hart, runs `lat NAME...`, collects its FL-JSON lines up
to {"lat": "done"}, halts, and writes into --out-dir:

  results.json   every FL-JSON object, grouped, with run metadata
  results.md     status (missing and failed benchmarks first), benchmark
                 table, and the comparison with the Cache Kernel
  meters.md      the in-kernel meter events
  paths.png      per-path medians with their breakdowns
  hist-<bench>.png  histograms, only of results that have a spread
  console-<run>.log the raw console of each boot

--input LOG parses saved console logs instead of booting (a log named
console-<run>.log is taken as that run). A benchmark that `lat` did not
print is reported as missing and one it could not run as failed, never
filled in; either makes the exit status 1. --docs-md rewrites the
generated blocks of that doc (<!-- begin:bench-... -->). docs/measurement.md
describes the method.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterable, Optional

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
sys.path.insert(0, str(TOOLS))

import docblocks  # noqa: E402
from fastpath_table import table_markdown  # noqa: E402
import faultline as fq  # noqa: E402

# The benchmarks, RUNS, parsing, the comparison and the Markdown live in
# bench_results; report.NAME keeps working for every name there.
from bench_results import *  # noqa: E402,F401,F403

# Boot: seconds to the first prompt and to each "hart N online" line; lat:
# seconds for the whole run and without any console output. Generous, since
# icount makes TCG slower and CI machines are shared; FL_TIMEOUT_SCALE
# scales all of them (see faultline.timeout_scale).
BOOT_TIMEOUT = 180.0
HART_TIMEOUT = 60.0
LAT_TIMEOUT = 1800.0
LAT_IDLE_TIMEOUT = 300.0
HALT_TIMEOUT = 60.0

HART_ONLINE = re.compile(r"faultline: hart (\d+) online")
HARTS_BANNER = re.compile(r"faultline: harts: (\d+)")
COUNTERS_LINE = re.compile(r"faultline: counters: (instructions|host-timed)")
VERSION_BANNER = re.compile(r"^faultline (\S+) \(riscv64\) booting", re.MULTILINE)


def say(msg: str) -> None:
    print(f"report: {msg}", file=sys.stderr, flush=True)


# ----- outputs ----------------------------------------------------------------

def plot_title(parsed: dict, meta: dict) -> str:
    counters = {COUNTERS_ICOUNT: "icount shift=0", COUNTERS_HOST: "host-timed"}.get(
        parsed.get("counters"), "counters unknown")
    commit = (meta.get("git_commit") or "unknown")[:12]
    main = ((parsed.get("runs") or {}).get("main") or {}).get("config") or {}
    where = (f"; main run {meta.get('cpus') or main.get('cpus') or '?'} harts, "
             f"{main.get('append') or 'mm=paging'}, {main.get('disk') or 'no'} disk") if main else ""
    return f"faultline {commit}, QEMU {meta.get('qemu_version') or '?'}, {counters}{where}"


def write_plots(parsed: dict, meta: dict, out_dir: Path) -> list:
    """paths.png (every path's median and its breakdown), and a histogram
    for each result whose samples spread over more than one log2 bucket:
    a one-bar histogram says nothing results.md does not."""
    import plot_hist
    title = plot_title(parsed, meta)
    written = []
    path = plot_hist.plot_paths(out_dir / "paths.png", parsed["benches"], title)
    if path:
        written.append(path)
    for name, obj in parsed["benches"].items():
        if plot_hist.spread(obj.get("hist"), obj):
            path = plot_hist.plot_histogram(
                out_dir / hist_filename(name), f"{name} ({obj.get('run', '')} run): {title}",
                obj.get("hist"), obj.get("unit", "?"), marks=obj)
            if path:
                written.append(path)
    return written


def results_doc(parsed: dict, meta: dict, plots: Iterable = ()) -> dict:
    """results.json: enough to render every report again (tests do)."""
    found = problems(parsed)
    return {
        "metadata": meta,
        "benches": parsed["benches"],
        "missing": found["missing"],
        "failed": found["failed"],
        "unfinished": found["unfinished"],
        "meters": parsed["meters"],
        "done": parsed["done"],
        "other": parsed["other"],
        "errors": parsed["errors"],
        "comparison": comparison(parsed),
        "plots": sorted(Path(p).name for p in plots),
        "runs": {name: {k: v for k, v in p.items() if k != "meters"}
                 for name, p in (parsed.get("runs") or {}).items()},
    }


def parsed_from_doc(doc: dict) -> dict:
    """The parsed report back from results.json (meters come back with
    their runs' benchmarks)."""
    runs = {}
    for name, p in doc["runs"].items():
        p = dict(p)
        p["meters"] = [m for group in p["meters_by_bench"].values() for m in group]
        runs[name] = p
    return combine(runs)


def write_reports(parsed: dict, meta: dict, out_dir: Path, plots: bool = True) -> dict:
    """Writes results.json, results.md, meters.md and the PNGs. Returns
    {"json": path, "md": path, "meters_md": path, "plots": [paths]}."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in list(out_dir.glob("hist-*.png")) + [out_dir / "meters.png"]:
        old.unlink(missing_ok=True)         # no stale plot of an earlier run
    paths = {"json": out_dir / "results.json", "md": out_dir / "results.md",
             "meters_md": out_dir / "meters.md"}
    paths["plots"] = write_plots(parsed, meta, out_dir) if plots else []
    paths["json"].write_text(json.dumps(results_doc(parsed, meta, paths["plots"]), indent=1)
                             + "\n")
    paths["md"].write_text(results_markdown(parsed, meta, paths["plots"]))
    paths["meters_md"].write_text(meters_markdown(parsed))
    return paths


# ----- metadata ---------------------------------------------------------------

def _command_output(cmd: list) -> Optional[str]:
    try:
        res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, timeout=30, cwd=ROOT)
    except (OSError, subprocess.SubprocessError):
        return None
    return res.stdout.strip() if res.returncode == 0 and res.stdout.strip() else None


def qemu_version(qemu: str = fq.QEMU) -> Optional[str]:
    out = _command_output([qemu, "--version"])
    m = re.search(r"version (\S+)", out or "")
    return m.group(1) if m else None


def git_commit() -> Optional[str]:
    commit = _command_output(["git", "rev-parse", "HEAD"])
    if commit and _command_output(["git", "status", "--porcelain", "--untracked-files=no"]):
        commit += "-dirty"      # numbers from uncommitted code: say so
    return commit


def metadata(console: str, *, cpus: Optional[int], icount: Optional[bool], source: str,
             qemu_ver: Optional[str]) -> dict:
    banner = HARTS_BANNER.search(console)
    version = VERSION_BANNER.search(console)
    counters = COUNTERS_LINE.search(console)
    if icount is None and counters:
        icount = counters.group(1) == "instructions"   # what the kernel found
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "git_commit": git_commit(),
        "qemu_version": qemu_ver,
        "kernel_version": version.group(1) if version else None,
        # The kernel's own count beats the command line: it is what ran.
        "cpus": int(banner.group(1)) if banner else cpus,
        "icount": icount,
        "source": source,
    }


# ----- running lat --------------------------------------------------------------

def run_config(run: Run, names: list, default_cpus: Optional[int] = None) -> dict:
    """How a run was booted, for the report (harts: the kernel's banner wins)."""
    return {"append": run.append, "cpus": run.cpus or default_cpus, "disk": run.disk_size,
            "lat": names}


def run_lat(args, run: Run, names: list, out_dir: Path) -> str:
    """Boots one configuration, runs `lat NAMES`, halts; returns the whole
    console text. On a failure after boot the console so far is returned
    and the problem reported, so that the benchmarks that did finish still
    make it into the report."""
    log_path = out_dir / f"console-{run.name}.log"
    echo = (lambda text: sys.stderr.write(text)) if args.verbose else None
    # The disk image and QEMU's scratch files stay out of --out-dir, which
    # may be docs/results.
    scratch = tempfile.TemporaryDirectory(prefix=f"faultline-bench-{run.name}-")
    machine = fq.Machine(args.kernel, args.initrd, workdir=scratch.name, log_path=log_path,
                         name=f"bench-{run.name}", on_output=echo, arch=args.arch)
    cpus = run.cpus or args.cpus
    try:
        machine.start(cpus=cpus, mem=args.mem, append=run.append, icount=True,
                      disk_size=run.disk_size)
        boot = machine.expect_prompt(timeout=BOOT_TIMEOUT)
        banner = HARTS_BANNER.search(boot)
        harts = int(banner.group(1)) if banner else cpus
        # Secondary harts announce themselves; a cross-hart benchmark started
        # before they are all in their schedulers would measure their boot.
        online = len(HART_ONLINE.findall(boot))
        while online < harts - 1:
            machine.expect_line(HART_ONLINE, timeout=HART_TIMEOUT)
            online += 1
        say(f"{run.name}: booted ({run.append or 'default'}, {harts} harts, disk "
            f"{run.disk_size or 'none'}); lat {' '.join(names)}")
        machine.send("lat " + " ".join(names))
        # lat ends with {"lat": "done"} and then the shell prompts again; the
        # prompt also comes back if lat is not in the initrd or it died.
        machine.expect_prompt(timeout=LAT_TIMEOUT, idle_timeout=LAT_IDLE_TIMEOUT)
        machine.send("halt")
        machine.wait_exit(timeout=HALT_TIMEOUT)
    except fq.MachineError as e:
        say(f"{run.name}: run failed: {e}")
    finally:
        machine.close()
        scratch.cleanup()
    return log_path.read_bytes().decode(errors="replace")


def lat_names(run: Run, only: Optional[list]) -> list:
    """The names to give `lat` in this run (signal_self brings sigreturn)."""
    return [n for n in run.lat if only is None or any(
        o in LAT_PRINTS.get(n, (n,)) for o in only)]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.splitlines()[2:]))
    p.add_argument("--kernel", default="build/kernel.elf", help="kernel ELF")
    p.add_argument("--arch", default=fq.DEFAULT_ARCH, choices=sorted(fq.ARCHES),
                   help="the port the kernel was built for (make's ARCH)")
    p.add_argument("--initrd", default="build/initrd.cpio", help="initrd with lat")
    p.add_argument("--cpus", type=int, default=2,
                   help="harts of the runs that do not fix their own (signal_cross needs 2)")
    p.add_argument("--mem", default="128M", help="guest RAM")
    p.add_argument("--out-dir", default="build/bench", help="where the reports go")
    p.add_argument("--run", action="append", choices=[r.name for r in RUNS],
                   help="only this configuration (repeatable; default all)")
    p.add_argument("--bench", action="append", choices=BENCH_NAMES,
                   help="only this benchmark (repeatable; default all)")
    p.add_argument("--input", metavar="LOG", action="append",
                   help="parse this console log instead of booting (repeatable)")
    p.add_argument("--docs-md", metavar="MD", type=Path,
                   help="rewrite the generated blocks of this doc (docs/measurement.md)")
    p.add_argument("--no-plots", action="store_true", help="skip the PNGs")
    p.add_argument("--verbose", action="store_true", help="copy the console to stderr")
    args = p.parse_args(argv)
    if args.cpus < 1:
        p.error("--cpus must be at least 1")
    return args


INPUT_NAME = re.compile(r"console-([A-Za-z0-9_]+)\.log$")


def from_logs(logs: list, only: Optional[list]) -> tuple:
    """Parsed runs from saved console logs: one named console-<run>.log is
    that run, with its expected benchmarks; any other log is expected to
    hold every benchmark (or the --bench ones)."""
    runs, text = {}, ""
    for log in logs:
        console = Path(log).read_bytes().decode(errors="replace")
        text += console
        m = INPUT_NAME.search(Path(log).name)
        spec = RUNS_BY_NAME.get(m.group(1)) if m else None
        if spec:
            parsed = parse_console(console, spec.expected(only), run=spec.name)
            parsed["config"] = run_config(spec, list(spec.lat))
        else:
            name = Path(log).stem
            parsed = parse_console(console, [n for n in BENCH_NAMES if only is None or n in only],
                                   run=name)
        runs[parsed_name(runs, spec.name if spec else Path(log).stem)] = parsed
    return runs, text


def parsed_name(runs: dict, name: str) -> str:
    n, i = name, 2
    while n in runs:
        n, i = f"{name}-{i}", i + 1
    return n


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    only = args.bench
    if args.input:
        runs, console = from_logs(args.input, only)
        # The logs may come from any QEMU run; the kernel's banner says the rest.
        meta = metadata(console, cpus=None, icount=None, source=", ".join(args.input),
                        qemu_ver=None)
    else:
        runs, console = {}, ""
        for run in RUNS:
            names = lat_names(run, only)
            if (args.run and run.name not in args.run) or not names:
                continue
            text = run_lat(args, run, names, out_dir)
            console += text
            parsed = parse_console(text, run.expected(only), run=run.name)
            parsed["config"] = run_config(run, names, args.cpus)
            runs[run.name] = parsed
        main_run = RUNS_BY_NAME["main"]
        meta = metadata(console, cpus=main_run.cpus or args.cpus, icount=True, source="boot",
                        qemu_ver=qemu_version())
        # the main run's banner, not the last one's
        main_text = (out_dir / "console-main.log")
        if "main" in runs and main_text.exists():
            banner = HARTS_BANNER.search(main_text.read_text(errors="replace"))
            meta["cpus"] = int(banner.group(1)) if banner else meta["cpus"]
    parsed = combine(runs)
    paths = write_reports(parsed, meta, out_dir, plots=not args.no_plots)
    if args.docs_md:
        changed = docblocks.rewrite(args.docs_md, {"bench-summary": summary_markdown(parsed, meta),
                                                   "fastpath-targets": table_markdown(parsed)})
        say(f"{args.docs_md}: {'rewrote ' + ', '.join(changed) if changed else 'unchanged'}")
    found = problems(parsed)
    say(f"{len(parsed['benches'])} benchmarks from {len(runs)} run(s), "
        f"{len(parsed['meters'])} meters; wrote {paths['md']}, {paths['meters_md']}, "
        f"{paths['json']} and {len(paths['plots'])} plots")
    for kind in ("missing", "failed", "unfinished"):
        for item in found[kind]:
            say(f"{kind.upper()}: {item}")
    if not runs:
        say("FAILED: nothing ran (no run has those benchmarks)")
        return 1
    # Success means every expected benchmark ran to its end.
    ok = not any(found.values()) and bool(parsed["benches"])
    if ok:
        say(f"all {len(parsed['expected'])} expected benchmarks ran")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
