#!/usr/bin/env python3
"""Runs faultline's microbenchmarks and turns their output into reports.

  report.py [--kernel build/kernel.elf] [--initrd build/initrd.cpio]
            [--cpus 2] [--mem 128M] [--out-dir build/bench] [--input LOG]

Boots the kernel under `-icount shift=0` (so every count is a deterministic
number of instructions), waits for the shell and for every secondary hart,
runs `lat`, collects its FL-JSON lines up to {"lat": "done"}, halts, and
writes into --out-dir:

  results.json   every FL-JSON object, grouped, plus run metadata
  results.md     benchmark table and the comparison with the Cache Kernel
  meters.md      the in-kernel meter events
  hist-<bench>.png, meters.png   log2 histograms
  console.log    the raw console (when booting)

--input LOG parses an existing console log instead of booting. A benchmark
that `lat` did not print is reported as missing, never filled in.
docs/measurement.md describes the method.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Optional

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
sys.path.insert(0, str(TOOLS))

import faultline_qemu as fq  # noqa: E402

# ----- what lat prints --------------------------------------------------------

# Every benchmark `lat` is expected to run, in report order, with what it
# measures (from where to where). A name missing from the log is "missing".
BENCHES = (
    ("getpid", "trap round trip: ecall, trap entry, getpid, trap exit, sret"),
    ("nop", "null system call through the full trap path"),
    ("signal_self", "signal to self: post, handler entry, sigreturn"),
    ("sigreturn", "sigreturn alone: from the call to the restored context"),
    ("signal_cross", "signal to a thread on another hart, to its return"),
    ("fault_zero", "demand-zero first touch: fault to resumed instruction"),
    ("segv_catch", "SIGSEGV caught by a user handler, and its return"),
)
BENCH_NAMES = tuple(name for name, _ in BENCHES)

STATS = ("min", "median", "mean", "p90", "max")
# Statistic used for every comparison: robust against the odd sample that
# an interrupt or a first-touch miss made slower.
CENTRAL = "median"
FALLBACK = "mean"

DONE_KEY = "lat"
DONE_VALUE = "done"
METERS_KEY = "meters"

# ----- the Cache Kernel's figures (Cheriton & Duda, OSDI 1994, section 5) ----
# Microseconds on a 25 MHz Motorola 68040 (ParaDiGM).
PAPER_TRAP_US = 37              # trap to the emulator: a getpid
PAPER_SIGNAL_US = 71            # signal to a thread on another processor
PAPER_SIGNAL_DELIVERY_US = 44
PAPER_SIGNAL_RETURN_US = 27
PAPER_FAULT_US = 99             # page fault handled by the application kernel
PAPER_FAULT_TRANSFER_US = 32    # transfer to the application kernel
PAPER_FAULT_MAPPING_US = 67     # optimized mapping load
PAPER_MACHINE = "25 MHz 68040"

# Kernel meter events whose sum plays the part of the paper's fault
# "transfer" and "mapping load" components. faultline resolves a demand-zero
# fault inside the kernel: getting a frame is its analog of handing the fault
# to a handler, and installing the mapping plus the return its analog of the
# mapping load and resume.
FAULT_TRANSFER_METERS = ("fault.entry_to_frame",)
FAULT_MAPPING_METERS = ("fault.frame_to_map", "fault.map_to_exit")

# Boot: seconds to the first prompt and to each "hart N online" line; lat:
# seconds for the whole run and without any console output. Generous, since
# icount makes TCG slower and CI machines are shared; FL_TIMEOUT_SCALE
# scales all of them (see faultline_qemu.timeout_scale).
BOOT_TIMEOUT = 180.0
HART_TIMEOUT = 60.0
LAT_TIMEOUT = 1800.0
LAT_IDLE_TIMEOUT = 300.0
HALT_TIMEOUT = 60.0

HART_ONLINE = re.compile(r"faultline: hart (\d+) online")
HARTS_BANNER = re.compile(r"faultline: harts: (\d+)")
VERSION_BANNER = re.compile(r"^faultline (\S+) \(riscv64\) booting", re.MULTILINE)


def say(msg: str) -> None:
    print(f"report: {msg}", file=sys.stderr, flush=True)


# ----- parsing ----------------------------------------------------------------

def parse_console(text: str) -> dict:
    """Groups the FL-JSON objects of a console log.

    Returns {"benches": {name: obj}, "meters": [meter, ...],
    "meters_by_bench": {name: [meter, ...]}, "done": bool,
    "other": [obj, ...], "errors": [str, ...]}.

    `lat` prints the kernel meters after each benchmark, reset before it,
    as {"meters": [...], "bench": NAME}; a meters object without "bench"
    (one taken over the whole run) is filed under "". In the flat "meters"
    list every meter carries the name of its benchmark under "bench".

    A line whose JSON does not parse is recorded in "errors" instead of
    aborting the whole report: a run of several minutes should not be lost
    to one garbled line. A benchmark printed twice keeps its last result.
    """
    benches, meters_by_bench, other, errors = {}, {}, [], []
    done = False
    for number, line in enumerate(text.replace("\r", "").splitlines(), 1):
        if not line.startswith(fq.JSON_TAG):
            continue
        try:
            obj = json.loads(line[len(fq.JSON_TAG):])
        except json.JSONDecodeError as e:
            errors.append(f"line {number}: {e}")
            continue
        if not isinstance(obj, dict):
            errors.append(f"line {number}: not a JSON object")
        elif obj.get(DONE_KEY) == DONE_VALUE:
            done = True
        # Meters first: a meters object also names its benchmark.
        elif isinstance(obj.get(METERS_KEY), list):
            owner = str(obj.get("bench", ""))
            meters_by_bench[owner] = [dict(m, bench=owner) for m in obj[METERS_KEY]
                                      if isinstance(m, dict)]
        elif "bench" in obj:
            benches[str(obj["bench"])] = obj
        else:
            other.append(obj)
    meters = [m for group in meters_by_bench.values() for m in group]
    return {"benches": benches, "meters": meters, "meters_by_bench": meters_by_bench,
            "done": done, "other": other, "errors": errors}


def missing_benches(parsed: dict) -> list:
    return [name for name in BENCH_NAMES if name not in parsed["benches"]]


def stat(obj: Optional[dict], key: str = CENTRAL) -> Optional[float]:
    """A number from a stats object, or None if absent or not a number."""
    if not isinstance(obj, dict):
        return None
    value = obj.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def central(obj: Optional[dict]) -> Optional[float]:
    """The value used for comparisons: the median, or the mean for a part
    taken from a kernel meter (a meter keeps no samples, so no median)."""
    value = stat(obj, CENTRAL)
    return value if value is not None else stat(obj, FALLBACK)


def part(parsed: dict, bench: str, name: str) -> Optional[dict]:
    parts = parsed["benches"].get(bench, {}).get("parts")
    return parts.get(name) if isinstance(parts, dict) else None


def meter_mean(meters: Iterable[dict], event: str) -> Optional[float]:
    """Mean of one meter event (sum / count), or None if nothing counted it.
    A meter kept for all harts (hart -1) is used as is; otherwise the
    per-hart meters are pooled. Never both: that would count samples twice."""
    rows = [m for m in meters if m.get("event") == event and isinstance(m.get("count"), int)]
    pooled = [m for m in rows if m.get("hart", -1) in (-1, None)] or rows
    count = sum(m["count"] for m in pooled)
    total = sum(m.get("sum", 0) for m in pooled)
    return total / count if count else None


def meters_total(meters: Iterable[dict], events: Iterable[str]) -> Optional[float]:
    """Sum of the means of several events; None if any of them is absent
    (a partial sum would understate the component)."""
    meters = list(meters)
    means = [meter_mean(meters, e) for e in events]
    return None if any(m is None for m in means) else sum(means)


# ----- the Cache Kernel comparison --------------------------------------------

def ratio(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return a / b if a is not None and b not in (None, 0) else None


def share(a: Optional[float], b: Optional[float]) -> Optional[float]:
    """a as a fraction of a + b."""
    return ratio(a, a + b) if a is not None and b is not None else None


def fault_without_zeroing(parsed: dict) -> Optional[float]:
    """fault_zero's central value minus its frame zeroing: the paper's 99 us
    excludes zeroing ("a page fault that entails page zeroing ... incurs
    costs that make the Cache Kernel overhead insignificant")."""
    total = central(parsed["benches"].get("fault_zero"))
    zeroing = central(part(parsed, "fault_zero", "zeroing"))
    return total - zeroing if total is not None and zeroing is not None else None


def fault_component(parsed: dict, names: Iterable[str]) -> Optional[float]:
    """Sum of fault segments: from fault_zero's parts when it has them all,
    else from the kernel meters read after fault_zero (or over the run).
    Part and meter names are the event names without the "fault." prefix."""
    names = list(names)
    values = [central(part(parsed, "fault_zero", n.split(".", 1)[-1])) for n in names]
    if all(v is not None for v in values):
        return sum(values)
    by_bench = parsed["meters_by_bench"]
    meters = by_bench.get("fault_zero", by_bench.get("", []))
    return meters_total(meters, names)


def comparison(parsed: dict) -> dict:
    """The numbers for the Cache Kernel tables: absolute rows (paper us
    beside faultline counts) and shape rows (ratios, breakdown shares).
    Every faultline value is None when the data for it is missing."""
    b = parsed["benches"]
    trap = central(b.get("getpid"))
    null_call = central(b.get("nop"))
    signal = central(b.get("signal_cross"))
    delivery = central(part(parsed, "signal_cross", "delivery"))
    ret = central(part(parsed, "signal_cross", "return"))
    fault = fault_without_zeroing(parsed)
    transfer = fault_component(parsed, FAULT_TRANSFER_METERS)
    mapping = fault_component(parsed, FAULT_MAPPING_METERS)

    rows = [
        ("trap (getpid)", PAPER_TRAP_US, "getpid", trap),
        ("  null call, full trap path", PAPER_TRAP_US, "nop", null_call),
        ("signal to a thread on another CPU", PAPER_SIGNAL_US, "signal_cross", signal),
        ("  delivery", PAPER_SIGNAL_DELIVERY_US, "signal_cross.parts.delivery", delivery),
        ("  return from handler", PAPER_SIGNAL_RETURN_US, "signal_cross.parts.return", ret),
        ("page fault (without zeroing)", PAPER_FAULT_US, "fault_zero - parts.zeroing", fault),
        ("  transfer to handler", PAPER_FAULT_TRANSFER_US,
         " + ".join(FAULT_TRANSFER_METERS) + " (mean)", transfer),
        ("  mapping load", PAPER_FAULT_MAPPING_US,
         " + ".join(FAULT_MAPPING_METERS) + " (mean)", mapping),
    ]
    shapes = [
        ("cross-CPU signal / trap", ratio(PAPER_SIGNAL_US, PAPER_TRAP_US), ratio(signal, trap)),
        ("page fault / trap", ratio(PAPER_FAULT_US, PAPER_TRAP_US), ratio(fault, trap)),
        # The paper's trap goes all the way to a user-level emulator; if
        # faultline's getpid takes a shortcut, the null call is the fairer base.
        ("cross-CPU signal / null call (nop)", ratio(PAPER_SIGNAL_US, PAPER_TRAP_US),
         ratio(signal, null_call)),
        ("page fault / null call (nop)", ratio(PAPER_FAULT_US, PAPER_TRAP_US),
         ratio(fault, null_call)),
        ("signal delivery / return", ratio(PAPER_SIGNAL_DELIVERY_US, PAPER_SIGNAL_RETURN_US),
         ratio(delivery, ret)),
        ("signal delivery share of delivery + return",
         share(PAPER_SIGNAL_DELIVERY_US, PAPER_SIGNAL_RETURN_US), share(delivery, ret)),
        ("fault transfer / mapping load", ratio(PAPER_FAULT_TRANSFER_US, PAPER_FAULT_MAPPING_US),
         ratio(transfer, mapping)),
        ("fault transfer share of transfer + mapping",
         share(PAPER_FAULT_TRANSFER_US, PAPER_FAULT_MAPPING_US), share(transfer, mapping)),
    ]
    return {
        "rows": [{"operation": op, "paper_us": us, "faultline_source": src, "faultline": val}
                 for op, us, src, val in rows],
        "shapes": [{"ratio": name, "paper": p, "faultline": f} for name, p, f in shapes],
    }


# ----- Markdown ---------------------------------------------------------------

MISSING = "missing"
NO_DATA = "n/a"
NULL_PART = "not measured"
# Decimal places for non-integer statistics (means) and for ratios.
VALUE_DECIMALS = 1
RATIO_DECIMALS = 2
PERCENT = 100
ICOUNT_TEXT = {True: "shift=0,sleep=off", False: "off"}   # None: unknown (a log from elsewhere)


def fmt(value) -> str:
    """Integers as they are, other numbers to VALUE_DECIMALS places."""
    if value is None or isinstance(value, bool):
        return NO_DATA
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.{VALUE_DECIMALS}f}"
    return str(value)


def _table(header: list, rows: list) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def bench_rows(parsed: dict) -> list:
    """One row per benchmark and per part; missing benchmarks say so."""
    rows = []
    names = list(BENCH_NAMES) + sorted(set(parsed["benches"]) - set(BENCH_NAMES))
    for name in names:
        obj = parsed["benches"].get(name)
        if obj is None:
            rows.append([name, MISSING, "", ""] + [MISSING] * len(STATS))
            continue
        unit = obj.get("unit", "?")
        rows.append([name, unit, fmt(obj.get("n")), fmt(obj.get("overhead"))]
                    + [fmt(stat(obj, k)) for k in STATS])
        parts = obj.get("parts")
        if isinstance(parts, dict):
            for pname, pobj in parts.items():
                if not isinstance(pobj, dict):
                    # lat prints null for a part it could not measure.
                    rows.append([f"{name}.{pname}", NULL_PART, "", ""] + [NO_DATA] * len(STATS))
                    continue
                rows.append([f"{name}.{pname}", pobj.get("unit", unit),
                             fmt(pobj.get("n", obj.get("n"))), fmt(pobj.get("overhead"))]
                            + [fmt(stat(pobj, k)) for k in STATS])
    return rows


def results_markdown(parsed: dict, meta: dict) -> str:
    cmp = comparison(parsed)
    missing = missing_benches(parsed)
    out = ["# faultline benchmark results\n",
           f"Run: {meta.get('date', '?')}, commit {meta.get('git_commit') or 'unknown'}, "
           f"QEMU {meta.get('qemu_version') or 'unknown'}, {meta.get('cpus', '?')} harts, "
           f"icount {ICOUNT_TEXT.get(meta.get('icount'), 'unknown')}.\n"]
    if not parsed["done"]:
        out.append("**Warning:** the log has no `{\"lat\": \"done\"}` line: `lat` did not "
                   "finish, so some results may be absent.\n")
    if missing:
        out.append("Missing (not printed by `lat`): " + ", ".join(f"`{m}`" for m in missing)
                   + ".\n")
    out.append("## Benchmarks\n")
    out.append("`overhead` is the cost of the counter reads around one sample, which "
               "`lat` has already subtracted from every statistic; under icount every "
               "unit is one instruction (one virtual nanosecond).\n")
    out.append(_table(["benchmark", "unit", "n", "overhead"] + list(STATS),
                      bench_rows(parsed)))
    out.append("\n## Comparison with the Cache Kernel\n")
    out.append(f"faultline's numbers are instruction counts under `-icount shift=0` "
               f"({CENTRAL}s); the Cache Kernel's are microseconds on a {PAPER_MACHINE}. "
               "The units do not convert, so the comparison is of shapes: how the "
               "operations relate to a trap, and how each splits into its parts.\n")
    out.append(_table(["operation", f"Cache Kernel (us, {PAPER_MACHINE})",
                       "faultline source", "faultline (instructions)"],
                      [[r["operation"], r["paper_us"], r["faultline_source"],
                        fmt(r["faultline"])] for r in cmp["rows"]]))
    out.append("\n")
    out.append(_table(["ratio", "Cache Kernel", "faultline"],
                      [[s["ratio"], fmt_ratio(s["ratio"], s["paper"]),
                        fmt_ratio(s["ratio"], s["faultline"])] for s in cmp["shapes"]]))
    out.append("\nThe paper's page fault is resolved by a user-level application kernel; "
               "faultline's `fault_zero` is resolved in the kernel, so its transfer and "
               "mapping components are kernel meter segments (the parts of `fault_zero`). "
               f"`{NO_DATA}` means the data for that value was not in the log.\n")
    if parsed["errors"]:
        out.append("\n## Unparsed lines\n\n" + "".join(f"- {e}\n" for e in parsed["errors"]))
    return "\n".join(out)


def fmt_ratio(name: str, value: Optional[float]) -> str:
    if value is None:
        return NO_DATA
    if "share" in name:
        return f"{value * PERCENT:.0f}%"
    return f"{value:.{RATIO_DECIMALS}f}"


def meters_markdown(parsed: dict) -> str:
    out = ["# faultline kernel meters\n"]
    if not parsed["meters"]:
        out.append("No meters in the log (`lat` prints them after each benchmark).\n")
        return "\n".join(out)
    out.append("Kernel meters in cycles (instructions under icount), reset before each "
               "benchmark and read after it. Hart `all` is a meter kept for all harts "
               "together. Events that counted nothing during a benchmark are left out.\n")
    for bench, meters in parsed["meters_by_bench"].items():
        rows = []
        for m in meters:
            count = m.get("count")
            if not count:
                continue
            mean = m["sum"] / count if isinstance(count, int) and "sum" in m else None
            hart = m.get("hart", -1)
            rows.append([m.get("event", "?"), "all" if hart in (-1, None) else hart,
                         m.get("unit", "?"), fmt(count), fmt(m.get("min")), fmt(mean),
                         fmt(m.get("max")), fmt(m.get("sum"))])
        out.append(f"## {'during `' + bench + '`' if bench else 'whole run'}\n")
        out.append(_table(["event", "hart", "unit", "count", "min", "mean", "max", "sum"], rows)
                   if rows else "No event counted anything.\n")
    return "\n".join(out)


# ----- outputs ----------------------------------------------------------------

def hist_filename(bench: str) -> str:
    return "hist-" + re.sub(r"[^A-Za-z0-9_.-]", "_", bench) + ".png"


def write_plots(parsed: dict, out_dir: Path) -> list:
    """One PNG per benchmark that has a histogram, one for the meters."""
    import plot_hist
    written = []
    for name, obj in parsed["benches"].items():
        path = plot_hist.plot_histogram(out_dir / hist_filename(name), f"{name}",
                                        obj.get("hist"), obj.get("unit", "instructions"))
        if path:
            written.append(path)
    path = plot_hist.plot_meters(out_dir / "meters.png", parsed["meters"])
    if path:
        written.append(path)
    return written


def write_reports(parsed: dict, meta: dict, out_dir: Path, plots: bool = True) -> dict:
    """Writes results.json, results.md, meters.md and the PNGs. Returns
    {"json": path, "md": path, "meters_md": path, "plots": [paths]}."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    doc = {
        "metadata": meta,
        "benches": parsed["benches"],
        "missing": missing_benches(parsed),
        "meters": parsed["meters"],
        "done": parsed["done"],
        "other": parsed["other"],
        "errors": parsed["errors"],
        "comparison": comparison(parsed),
    }
    paths = {"json": out_dir / "results.json", "md": out_dir / "results.md",
             "meters_md": out_dir / "meters.md"}
    paths["json"].write_text(json.dumps(doc, indent=2, sort_keys=False) + "\n")
    paths["md"].write_text(results_markdown(parsed, meta))
    paths["meters_md"].write_text(meters_markdown(parsed))
    paths["plots"] = write_plots(parsed, out_dir) if plots else []
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

def run_lat(args, out_dir: Path) -> str:
    """Boots, runs lat, halts; returns the whole console text. On a failure
    after boot the console so far is returned and the problem reported, so
    that the benchmarks that did finish still make it into the report."""
    log_path = out_dir / "console.log"
    echo = (lambda text: sys.stderr.write(text)) if args.verbose else None
    machine = fq.Machine(args.kernel, args.initrd, workdir=out_dir, log_path=log_path,
                         name="bench", on_output=echo)
    try:
        machine.start(cpus=args.cpus, mem=args.mem, icount=True)
        boot = machine.expect_prompt(timeout=BOOT_TIMEOUT)
        banner = HARTS_BANNER.search(boot)
        harts = int(banner.group(1)) if banner else args.cpus
        # Secondary harts announce themselves; a cross-hart benchmark started
        # before they are all in their schedulers would measure their boot.
        online = len(HART_ONLINE.findall(boot))
        while online < harts - 1:
            machine.expect_line(HART_ONLINE, timeout=HART_TIMEOUT)
            online += 1
        say(f"booted, {harts} harts online; running lat")
        machine.send("lat")
        # lat ends with {"lat": "done"} and then the shell prompts again; the
        # prompt also comes back if lat is not in the initrd or it died.
        machine.expect_prompt(timeout=LAT_TIMEOUT, idle_timeout=LAT_IDLE_TIMEOUT)
        machine.send("halt")
        machine.wait_exit(timeout=HALT_TIMEOUT)
    except fq.MachineError as e:
        say(f"run failed: {e}")
    finally:
        machine.close()
    return log_path.read_bytes().decode(errors="replace")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.splitlines()[2:]))
    p.add_argument("--kernel", default="build/kernel.elf", help="kernel ELF")
    p.add_argument("--initrd", default="build/initrd.cpio", help="initrd with lat")
    p.add_argument("--cpus", type=int, default=2,
                   help="harts (signal_cross needs at least 2)")
    p.add_argument("--mem", default="128M", help="guest RAM")
    p.add_argument("--out-dir", default="build/bench", help="where the reports go")
    p.add_argument("--input", metavar="LOG", help="parse this console log instead of booting")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG histograms")
    p.add_argument("--verbose", action="store_true", help="copy the console to stderr")
    args = p.parse_args(argv)
    if args.cpus < 1:
        p.error("--cpus must be at least 1")
    return args


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if args.input:
        console = Path(args.input).read_bytes().decode(errors="replace")
        # The log may come from any QEMU run; only the kernel's banner is known.
        meta = metadata(console, cpus=None, icount=None, source=str(args.input), qemu_ver=None)
    else:
        console = run_lat(args, out_dir)
        meta = metadata(console, cpus=args.cpus, icount=True, source="boot",
                        qemu_ver=qemu_version())
    parsed = parse_console(console)
    paths = write_reports(parsed, meta, out_dir, plots=not args.no_plots)
    missing = missing_benches(parsed)
    say(f"{len(parsed['benches'])} benchmarks, {len(parsed['meters'])} meters; "
        f"wrote {paths['md']}, {paths['meters_md']}, {paths['json']} "
        f"and {len(paths['plots'])} plots")
    if missing:
        say("missing: " + ", ".join(missing))
    if not parsed["done"]:
        say('no {"lat": "done"} line: lat did not finish')
    # Success means lat ran to its end; missing benchmarks are reported, not
    # an error, so that the report works while lat grows.
    return 0 if parsed["done"] and parsed["benches"] else 1


if __name__ == "__main__":
    sys.exit(main())
