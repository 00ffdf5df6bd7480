"""What `lat` prints, parsed and turned into tables (used by tools/report.py).

The benchmarks and the boot configurations they need (RUNS), parsing of
console logs into results, what is missing or failed, the comparison with
the Cache Kernel, and the Markdown of results.md, meters.md and the
summary docs/measurement.md quotes. No QEMU and no matplotlib here: tests
and `report.py --input` use it on saved logs.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path
from typing import Iterable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import faultline as fq  # noqa: E402

# ----- what lat prints --------------------------------------------------------

# Every benchmark, in report order, with what it measures (from where to
# where). `lat` prints sigreturn along with signal_self.
BENCHES = (
    ("getpid", "trap round trip: ecall, trap entry, getpid, trap exit, sret"),
    ("nop", "null system call through the full trap path"),
    ("signal_self", "signal to self: post, handler entry, sigreturn"),
    ("sigreturn", "sigreturn alone: from the call to the restored context"),
    ("kill_self", "kill of one's own pid: post, handler entry, sigreturn"),
    ("signal_cross", "signal to a thread on another hart, to its return"),
    ("sigpingpong", "sigsuspend ping-pong of two processes on one hart, one way"),
    ("sigpingpong_cross", "sigsuspend ping-pong of two processes across harts, one way"),
    ("yield", "yield between two processes on one hart, per switch"),
    ("fault_zero", "demand-zero first touch: fault to resumed instruction"),
    ("fault_read", "first read of an untouched page: the shared zero page mapped"),
    ("segv_catch", "SIGSEGV caught by a user handler, and its return"),
    ("minor_fault", "hidden resident page remapped on touch"),
    ("pagein", "page read back from the swap device on touch"),
    ("swapin", "mm=swap: whole process written out and read back"),
    ("fork", "fork + child exit + wait, a small process (cycles: two harts)"),
    ("fork_used", "the same after the process touched and freed 16 MiB"),
    ("forkexec", "fork + exec of the smallest program (/true) + exit + wait (cycles)"),
    ("ulf_fault", "fault in a managed page: to the user-level handler, its load, resumed"),
    ("trap_forward", "getpid forwarded to a user-level emulator and answered"),
)
BENCH_NAMES = tuple(name for name, _ in BENCHES)
# Results `lat` prints for one name on its command line.
LAT_PRINTS = {"signal_self": ("signal_self", "sigreturn")}


@dataclasses.dataclass(frozen=True)
class Run:
    """One boot: its kernel arguments, harts (None: --cpus), disk, and the
    benchmarks `lat` runs in it. Results of a primary run are the report's
    benchmarks; the others are kept under their run's name."""
    name: str
    title: str
    lat: tuple
    append: str = ""
    cpus: Optional[int] = None
    disk_size: Optional[str] = "64M"
    primary: bool = True

    def expected(self, only: Optional[Iterable[str]] = None) -> list:
        names = [n for lat in self.lat for n in LAT_PRINTS.get(lat, (lat,))]
        return [n for n in names if only is None or n in only]


RUNS = (
    Run("main", "default memory manager (mm=paging), a 64M disk",
        ("getpid", "nop", "signal_self", "kill_self", "signal_cross", "sigpingpong",
         "sigpingpong_cross", "yield", "fault_zero", "fault_read", "segv_catch", "minor_fault",
         "pagein", "fork", "fork_used", "forkexec", "ulf_fault", "trap_forward")),
    Run("swap", "mm=swap, a 64M disk, one hart", ("swapin",), append="mm=swap", cpus=1),
    Run("nometers", "meters=off, no disk: the same paths without the kernel meters",
        ("getpid", "nop", "signal_self", "kill_self", "signal_cross", "sigpingpong",
         "sigpingpong_cross", "fault_zero", "fault_read", "segv_catch"),
        append="meters=off", disk_size=None, primary=False),
)
RUNS_BY_NAME = {r.name: r for r in RUNS}
assert sorted(n for r in RUNS if r.primary for n in r.expected()) == sorted(BENCH_NAMES)

STATS = ("min", "median", "mean", "p90", "max")
# Statistic used for every comparison: robust against the odd sample that
# an interrupt or a first-touch miss made slower.
CENTRAL = "median"
FALLBACK = "mean"

DONE_KEY = "lat"
DONE_VALUE = "done"
START_VALUE = "start"
FAILED_KEY = "failed"
METERS_KEY = "meters"
# What `lat` says its counters count ({"lat": "start", "counters": ..}).
COUNTERS_ICOUNT = "icount"
COUNTERS_HOST = "host"

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

# ----- parsing ----------------------------------------------------------------

def parse_console(text: str, expected: Optional[Iterable[str]] = None, run: str = "") -> dict:
    """Groups the FL-JSON objects of one console log (one boot).

    Returns {"benches": {name: obj}, "failed": {name: reason},
    "expected": [name, ...], "meters": [meter, ...],
    "meters_by_bench": {name: [meter, ...]}, "done": bool, "start": obj|None,
    "counters": "icount"|"host"|None, "other": [obj, ...], "errors": [str, ...]}.
    expected: the benchmarks this boot was to print (default: all).

    `lat` prints the kernel meters after each benchmark, reset before it,
    as {"meters": [...], "bench": NAME}; a meters object without "bench"
    (one taken over the whole run) is filed under "". In the flat "meters"
    list every meter carries the name of its benchmark under "bench".
    A benchmark `lat` could not run is {"bench": NAME, "failed": REASON}.

    A line whose JSON does not parse is recorded in "errors" instead of
    aborting the whole report: a run of several minutes should not be lost
    to one garbled line. A benchmark printed twice keeps its last result.
    """
    benches, failed, meters_by_bench, other, errors = {}, {}, {}, [], []
    done, start = False, None
    text = fq.json_lines_apart(text.replace("\r", ""))
    for number, line in enumerate(text.splitlines(), 1):
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
        elif obj.get(DONE_KEY) == START_VALUE:
            start = obj
        # Meters first: a meters object also names its benchmark.
        elif isinstance(obj.get(METERS_KEY), list):
            owner = str(obj.get("bench", ""))
            meters_by_bench[owner] = [dict(m, bench=owner) for m in obj[METERS_KEY]
                                      if isinstance(m, dict)]
        elif "bench" in obj and FAILED_KEY in obj:
            failed[str(obj["bench"])] = str(obj[FAILED_KEY])
        elif "bench" in obj:
            benches[str(obj["bench"])] = dict(obj, run=run) if run else obj
        else:
            other.append(obj)
    meters = [m for group in meters_by_bench.values() for m in group]
    counters = start.get("counters") if start else None
    return {"benches": benches, "failed": failed,
            "expected": list(BENCH_NAMES if expected is None else expected),
            "meters": meters, "meters_by_bench": meters_by_bench, "done": done,
            "start": start, "counters": counters, "other": other, "errors": errors}


def combine(runs: dict) -> dict:
    """Merges the parsed logs of several boots, {run name: parsed}, into one
    report: the benchmarks, meters and failures of primary runs at the top
    level (as parse_console gives them), each run kept under "runs"."""
    out = {"benches": {}, "failed": {}, "expected": [], "meters": [], "meters_by_bench": {},
           "done": True, "other": [], "errors": [], "runs": {}}
    for name, parsed in runs.items():
        out["runs"][name] = parsed
        out["done"] &= parsed["done"]
        out["errors"] += [f"{name}: {e}" for e in parsed["errors"]]
        out["other"] += parsed["other"]
        spec = RUNS_BY_NAME.get(name)
        if spec is not None and not spec.primary:
            continue
        out["expected"] += [n for n in parsed["expected"] if n not in out["expected"]]
        out["benches"].update(parsed["benches"])
        out["failed"].update(parsed["failed"])
        out["meters"] += parsed["meters"]
        out["meters_by_bench"].update(parsed["meters_by_bench"])
    kinds = {p["counters"] for p in runs.values()}
    out["counters"] = kinds.pop() if len(kinds) == 1 else None
    return out


def problems(parsed: dict) -> dict:
    """What went wrong, by kind, each a list of "name" or "name (run)":
    missing (expected, not printed, no failure record), failed (lat could
    not run it, with the reason), unfinished (runs without the done line)."""
    runs = parsed.get("runs") or {"": parsed}
    missing, failed, unfinished = [], [], []
    for run, p in runs.items():
        spec = RUNS_BY_NAME.get(run)
        tag = "" if spec is None or spec.primary else f" ({run})"
        missing += [n + tag for n in p["expected"]
                    if n not in p["benches"] and n not in p["failed"]]
        failed += [f"{n}{tag}: {why}" for n, why in p["failed"].items()]
        if not p["done"]:
            unfinished.append(run or "lat")
    return {"missing": missing, "failed": failed, "unfinished": unfinished}


def missing_benches(parsed: dict) -> list:
    return problems(parsed)["missing"]


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
    # The paper's own operations: a fault handled at user level, a trap
    # answered by a user-level emulator (kernel/ulf, docs/ulf.md).
    trap_fwd = central(b.get("trap_forward"))
    ulf = central(b.get("ulf_fault"))
    ulf_transfer = central(part(parsed, "ulf_fault", "transfer"))
    ulf_load, ulf_resume = (central(part(parsed, "ulf_fault", p)) for p in ("load", "resume"))
    ulf_mapping = ulf_load + ulf_resume if ulf_load is not None and ulf_resume is not None else None

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
        ("trap to a user-level emulator (getpid)", PAPER_TRAP_US, "trap_forward", trap_fwd),
        ("page fault to a user-level handler", PAPER_FAULT_US, "ulf_fault", ulf),
        ("  transfer to the handler", PAPER_FAULT_TRANSFER_US,
         "ulf_fault.parts.transfer (mean)", ulf_transfer),
        ("  mapping load and resume", PAPER_FAULT_MAPPING_US,
         "ulf_fault.parts.load + resume (mean)", ulf_mapping),
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
        # The paper's trap to its emulator is its base (a getpid, "the
        # cost of a trap"); faultline's base is the null call through the
        # full trap path. Units differ (us on a 68040, instructions here):
        # only these ratios compare.
        ("forwarded trap / null call (nop)", 1.0, ratio(trap_fwd, null_call)),
        ("user-level fault / null call (nop)", ratio(PAPER_FAULT_US, PAPER_TRAP_US),
         ratio(ulf, null_call)),
        ("  transfer / null call (nop)", ratio(PAPER_FAULT_TRANSFER_US, PAPER_TRAP_US),
         ratio(ulf_transfer, null_call)),
        ("  load and resume / null call (nop)", ratio(PAPER_FAULT_MAPPING_US, PAPER_TRAP_US),
         ratio(ulf_mapping, null_call)),
        ("user-level fault / forwarded trap", ratio(PAPER_FAULT_US, PAPER_TRAP_US),
         ratio(ulf, trap_fwd)),
        ("user-level fault transfer share", share(PAPER_FAULT_TRANSFER_US, PAPER_FAULT_MAPPING_US),
         share(ulf_transfer, ulf_mapping)),
    ]
    return {
        "rows": [{"operation": op, "paper_us": us, "faultline_source": src, "faultline": val}
                 for op, us, src, val in rows],
        "shapes": [{"ratio": name, "paper": p, "faultline": f} for name, p, f in shapes],
    }


# ----- Markdown ---------------------------------------------------------------

MISSING = "missing"
FAILED = "failed"
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


def unit_note(counters: Optional[str]) -> str:
    if counters == COUNTERS_ICOUNT:
        return ("The kernel found its counters counting instructions (QEMU `-icount "
                "shift=0`): `instructions` are retired instructions, and `cycles` (the "
                "kernel meters, `signal_cross`) are the same ticks of the one virtual "
                "clock the harts share, which also jumps over idle time.")
    if counters == COUNTERS_HOST:
        return ("**Host-timed:** the kernel found its counters following the host's "
                "clock (no icount), so every number is `host-cycles`: host time, "
                "which moves with host load. Compare them with nothing but each other.")
    return "The log does not say what the counters counted (no `lat` start line)."


def status_markdown(parsed: dict) -> str:
    found = problems(parsed)
    out = []
    if found["missing"]:
        out.append("**Missing** (expected, but `lat` printed nothing for them): "
                   + ", ".join(f"`{m}`" for m in found["missing"]) + ".\n")
    if found["failed"]:
        out.append("**Failed** (`lat` could not run them):\n\n"
                   + "".join(f"- `{f.split(':', 1)[0]}`:{f.split(':', 1)[1]}\n"
                             for f in found["failed"]))
    if found["unfinished"]:
        out.append("**Unfinished:** no `{\"lat\": \"done\"}` line in "
                   + ", ".join(f"`{u}`" for u in found["unfinished"])
                   + ": `lat` did not finish there.\n")
    if not out:
        out.append(f"All {len(parsed['expected'])} expected benchmarks ran.\n")
    return "\n".join(out)


def bench_rows(parsed: dict) -> list:
    """One row per benchmark and per part; missing and failed benchmarks
    say so."""
    rows = []
    order = [n for n in BENCH_NAMES if n in parsed["expected"] or n in parsed["benches"]]
    names = order + sorted(set(parsed["benches"]) - set(order))
    for name in names:
        obj = parsed["benches"].get(name)
        if obj is None:
            state = FAILED if name in parsed["failed"] else MISSING
            rows.append([name, "", state, "", ""] + [state] * len(STATS))
            continue
        unit = obj.get("unit", "?")
        run = obj.get("run", "")
        rows.append([name, run, unit, fmt(obj.get("n", obj.get("rounds"))),
                     fmt(obj.get("overhead"))] + [fmt(stat(obj, k)) for k in STATS])
        parts = obj.get("parts")
        if isinstance(parts, dict):
            for pname, pobj in parts.items():
                if not isinstance(pobj, dict):
                    # lat prints null for a part it could not measure.
                    rows.append([f"{name}.{pname}", run, NULL_PART, "", ""]
                                + [NO_DATA] * len(STATS))
                    continue
                rows.append([f"{name}.{pname}", run, pobj.get("unit", unit),
                             fmt(pobj.get("n", obj.get("n"))), fmt(pobj.get("overhead"))]
                            + [fmt(stat(pobj, k)) for k in STATS])
    return rows


def config_rows(parsed: dict) -> list:
    rows = []
    for name, p in (parsed.get("runs") or {}).items():
        cfg = p.get("config") or {}
        start = p.get("start") or {}
        rows.append([name, f"`{cfg.get('append') or '(none)'}`",
                     fmt(start.get("harts", cfg.get("cpus"))),
                     cfg.get("disk") or "none", p.get("counters") or "unknown",
                     ", ".join(p["expected"])])
    return rows


def hist_filename(bench: str) -> str:
    return "hist-" + re.sub(r"[^A-Za-z0-9_.-]", "_", bench) + ".png"


def spread_markdown(parsed: dict, plots: list) -> str:
    """Which results have a distribution worth a histogram, and which put
    every sample in one log2 bucket (said here instead of a one-bar plot)."""
    drawn = {Path(p).name for p in plots}
    lines = []
    for name, obj in parsed["benches"].items():
        buckets = [b for b in obj.get("hist") or [] if len(b) == 3 and b[2]]
        if not buckets:
            continue
        if len(buckets) == 1:
            lo, hi, count = buckets[0]
            lines.append(f"- `{name}`: all {count} samples in one log2 bucket, {lo}..{hi}")
        elif hist_filename(name) not in drawn and "min" in obj and "max" in obj:
            top = max(buckets, key=lambda b: b[2])
            total = sum(b[2] for b in buckets)
            lines.append(f"- `{name}`: {top[2]} of {total} samples in {top[0]}..{top[1]}, "
                         f"{total - top[2]} outside it (min {fmt(obj['min'])}, max "
                         f"{fmt(obj['max'])}): outliers, not a distribution")
        elif hist_filename(name) in drawn:
            lines.append(f"- `{name}`: spread over {len(buckets)} log2 buckets, "
                         f"see `{hist_filename(name)}`")
        else:
            lines.append(f"- `{name}`: spread over {len(buckets)} log2 buckets")
    return "\n".join(lines) + "\n" if lines else "No histograms in the log.\n"


def results_markdown(parsed: dict, meta: dict, plots: Iterable = ()) -> str:
    cmp = comparison(parsed)
    counters = parsed.get("counters")
    out = ["# faultline benchmark results\n",
           f"Run: {meta.get('date', '?')}, commit {meta.get('git_commit') or 'unknown'}, "
           f"QEMU {meta.get('qemu_version') or 'unknown'}, "
           f"icount {ICOUNT_TEXT.get(meta.get('icount'), 'unknown')}.\n",
           "## Status\n", status_markdown(parsed)]
    if parsed.get("runs"):
        out.append("## Configurations\n")
        out.append("One boot per configuration; each benchmark runs in the one it needs.\n")
        out.append(_table(["run", "boot arguments", "harts", "disk", "counters", "benchmarks"],
                          config_rows(parsed)))
    out.append("## Benchmarks\n")
    out.append(unit_note(counters) + " `overhead` is the cost of the counter reads around "
               "one sample, which `lat` has already subtracted from every statistic. Parts "
               "taken from kernel meters have no median or p90 (a meter keeps no samples). "
               "`swapin` is per round, from the kernel's meters alone.\n")
    out.append(_table(["benchmark", "run", "unit", "n", "overhead"] + list(STATS),
                      bench_rows(parsed)))
    off = (parsed.get("runs") or {}).get("nometers")
    if off and off["benches"]:
        out.append("\nThe same paths with `meters=off` (run `nometers`):\n")
        out.append(_table(["benchmark", "run", "unit", "n", "overhead"] + list(STATS),
                          bench_rows(dict(off, expected=[n for n in off["expected"]]))))
    out.append("\n## Spread\n")
    out.append(spread_markdown(parsed, list(plots)))
    out.append("\n## Comparison with the Cache Kernel\n")
    unit = {COUNTERS_ICOUNT: "instructions", COUNTERS_HOST: "host-cycles"}.get(counters, "?")
    out.append(f"faultline's numbers are {unit} ({CENTRAL}s); the Cache Kernel's are "
               f"microseconds on a {PAPER_MACHINE}. "
               "The units do not convert, so the comparison is of shapes: how the "
               "operations relate to a trap, and how each splits into its parts.\n")
    out.append(_table(["operation", f"Cache Kernel (us, {PAPER_MACHINE})",
                       "faultline source", f"faultline ({unit})"],
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


# ----- the summary quoted in docs/measurement.md ---------------------------------

# (label, benchmark, part or None, statistic, repeats under icount?)
SUMMARY_ROWS = (
    ("getpid round trip (light path in the vector)", "getpid", None, "median", "yes"),
    ("null system call, full trap path", "nop", None, "median", "yes"),
    ("signal to self, catch and return", "signal_self", None, "median", "yes"),
    ("sigreturn alone (handler end -> resumed)", "sigreturn", None, "median", "yes"),
    ("kill of own pid, catch and return", "kill_self", None, "median", "yes"),
    ("SIGSEGV catch and return", "segv_catch", None, "median", "yes"),
    ("signal to a thread on another hart", "signal_cross", None, "median", "within ~10%"),
    ("... delivery (post -> handler on the other hart)", "signal_cross", "delivery", "median",
     "within ~10%"),
    ("... return (handler -> interrupted loop)", "signal_cross", "return", "median", "yes"),
    ("sigsuspend ping-pong, one way, same hart", "sigpingpong", None, "median", "yes"),
    ("sigsuspend ping-pong, one way, across harts", "sigpingpong_cross", None, "median",
     "within ~10%"),
    ("yield to another process, per switch", "yield", None, "median", "yes"),
    ("demand-zero first touch", "fault_zero", None, "median", "yes"),
    ("... trap entry -> frame in hand", "fault_zero", "entry_to_frame", "mean", "yes"),
    ("... zeroing the frame", "fault_zero", "zeroing", "mean", "yes"),
    ("... frame -> mapping installed", "fault_zero", "frame_to_map", "mean", "yes"),
    ("... mapping -> fault exit (with the meter records)", "fault_zero", "map_to_exit", "mean",
     "yes"),
    ("first read of an untouched page (zero page mapped)", "fault_read", None, "median", "yes"),
    ("minor fault (hidden page remapped), user-timed", "minor_fault", None, "median", "yes"),
    ("... the remap itself", "minor_fault", "remap", "mean", "yes"),
    ("page-in: the kernel's own work", "pagein", "pagein", "min",
     "two paths: slept for the disk or not"),
    ("... time switched out waiting for the disk", "pagein", "device_wait", "mean",
     "no: the disk answers in host time"),
    ("fork + exit + wait, small process", "fork", None, "median", "within ~10%"),
    ("... the same after using and freeing 16 MiB", "fork_used", None, "median", "within ~10%"),
    ("... the same forks in that process before it used them", "fork_used", "before", "mean",
     "within ~10%"),
    ("fork + exec of /true + exit + wait", "forkexec", None, "median", "within ~10%"),
    ("whole-process swap-out (64 heap pages + image), own work", "swapin", "swapout", "mean",
     "nearly"),
    ("... swapped back in, own work", "swapin", "swapin", "mean", "nearly"),
    ("... time switched out (disk, TLB shootdown)", "swapin", "device_wait", "mean",
     "no: the disk answers in host time"),
)


def summary_value(benches: dict, bench: str, part_name: Optional[str], statistic: str):
    obj = benches.get(bench)
    if obj is None:
        return None, None
    if part_name:
        parts = obj.get("parts") or {}
        obj = parts.get(part_name)
        if not isinstance(obj, dict):
            return None, None
    return stat(obj, statistic), obj.get("unit")


def summary_markdown(parsed: dict, meta: dict) -> str:
    """The table docs/measurement.md quotes (block bench-summary)."""
    off = ((parsed.get("runs") or {}).get("nometers") or {}).get("benches", {})
    found = problems(parsed)
    cpus = meta.get("cpus")
    lines = [f"`make docs-results` at commit {meta.get('git_commit') or 'unknown'} "
             f"(QEMU {meta.get('qemu_version') or 'unknown'}, `-icount "
             f"{ICOUNT_TEXT.get(meta.get('icount'), 'unknown')}`, counters: "
             f"{parsed.get('counters') or 'unknown'}; main run {cpus if cpus else '?'} "
             "harts, default mm=paging and a 64M disk; swapin under mm=swap, one hart). "
             "Parts from kernel meters are means (meters keep no samples) unless "
             "the statistic says otherwise.\n"]
    if found["missing"] or found["failed"]:
        lines.append("**Not measured:** " + "; ".join(found["missing"] + found["failed"]) + "\n")
    rows = []
    for label, bench, part_name, statistic, repeats in SUMMARY_ROWS:
        value, unit = summary_value(parsed["benches"], bench, part_name, statistic)
        value_off, _ = summary_value(off, bench, part_name, statistic)
        rows.append([label, statistic, unit or NO_DATA, fmt_int(value),
                     fmt_int(value_off) if bench in off else "", repeats])
    lines.append(_table(["path", "statistic", "unit", "meters on", "meters=off",
                         "repeats under icount"], rows))
    return "\n".join(lines)


def fmt_int(value) -> str:
    """Rounded, with thousands separators: the summary is for reading."""
    if value is None or isinstance(value, bool):
        return NO_DATA
    return f"{round(value):,}"


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
    out.append(unit_note(parsed.get("counters")) + " Meters are reset before each "
               "benchmark and read after it. Hart `all` is a meter kept for all harts "
               "together. Events that counted nothing during a benchmark are left out. "
               "`vm.*` and `fault.*` legs are the thread's own work; what it spent switched "
               "out is in `vm.page_wait`, `vm.swap_wait` and `fault.wait`.\n")
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
