"""The fast paths against their targets: the table docs/measurement.md
quotes (block fastpath-targets), rendered from a `make bench` run.

Each row names the run and benchmark it reads, its target and what the
path cost before the fast-path work (commit 13d0e3a, or the row's first
measurement), and the peer figure measured with the same method (QEMU
7.2 under icount: Linux 6.12 Debian riscv64, xv6-riscv master; see
docs/measurement.md, "Beside Linux and xv6"). "met" is worked out from
the run, never written by hand; a benchmark the run lacks shows as
missing and the row as not met.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional

from bench_results import summary_value

MISSING = "missing"
FORK_USED_TOLERANCE = 0.05      # fork after using 16 MiB: within 5% of fork
FAULT_TARGET_BEYOND_ZEROING = 300


class Reading(NamedTuple):
    """What a row found in the run: the text of 'now' and whether it is met."""
    now: str
    met: bool


class Row(NamedTuple):
    label: str
    before: str
    target: str
    peer: str
    read: Callable[["Run"], Reading]


class Run:
    """The figures of one bench run (report.parsed_from_doc's shape)."""

    def __init__(self, parsed: dict):
        self.main = parsed.get("benches") or {}
        runs = parsed.get("runs") or {}
        self.off = (runs.get("nometers") or {}).get("benches") or {}
        self.meters = parsed.get("meters") or []

    def on(self, bench: str, part: Optional[str] = None, statistic: str = "median"):
        return summary_value(self.main, bench, part, statistic)[0]

    def meters_off(self, bench: str):
        return summary_value(self.off, bench, None, "median")[0]

    def meter_min(self, event: str) -> Optional[float]:
        found = [m["min"] for m in self.meters
                 if m.get("event") == event and isinstance(m.get("min"), (int, float))]
        return min(found) if found else None


def fmt(value: Optional[float]) -> str:
    return MISSING if value is None else f"{round(value):,}"


def _under(values, limits) -> Reading:
    """Values against upper limits, one each, shown as 'a / b'."""
    met = all(v is not None and v <= lim for v, lim in zip(values, limits))
    return Reading(" / ".join(fmt(v) for v in values), met)


def _fault_zero(run: Run) -> Reading:
    total, zeroing = run.on("fault_zero"), run.on("fault_zero", "zeroing", "mean")
    met = total is not None and zeroing is not None and \
        total <= FAULT_TARGET_BEYOND_ZEROING + zeroing
    return Reading(f"{fmt(total)}, {fmt(zeroing)}", met)


def _fork_used(run: Run) -> Reading:
    fork, used = run.on("fork"), run.on("fork_used")
    before = run.on("fork_used", "before", "mean")
    met = fork is not None and used is not None and used <= fork * (1 + FORK_USED_TOLERANCE)
    return Reading(f"{fmt(used)} (the forks before it: {fmt(before)})", met)


ROWS = (
    Row("null system call, full path (`nop`), meters on / off", "370 / 192", "<= 150 / <= 80",
        "428 / 1,131", lambda r: _under((r.on("nop"), r.meters_off("nop")), (150, 80))),
    Row("one meter record (`meter.self`, cycles)", "61", "<= 15", "-",
        lambda r: _under((r.meter_min("meter.self"),), (15,))),
    Row("`kill` of own pid + handler + `sigreturn` (`kill_self`)", "1,153", "<= 600",
        "5,258 / -", lambda r: _under((r.on("kill_self"),), (600,))),
    Row("sigsuspend ping-pong, one way, same hart / across harts (cycles)", "2,929 / 4,529",
        "<= 1,500 / <= 2,000", "9,117 / 14,620",
        lambda r: _under((r.on("sigpingpong"), r.on("sigpingpong_cross")), (1500, 2000))),
    Row("demand-zero write fault (`fault_zero`), of which zeroing", "1,745, 657",
        "<= 300 + zeroing", "4,547 / ~25,660", _fault_zero),
    Row("first read of an untouched page (`fault_read`)",
        "as `fault_zero` (a frame taken and zeroed)", "<= 300", "1,280 / -",
        lambda r: _under((r.on("fault_read"),), (300,))),
    Row("fork + exit + wait, small process (`fork`, cycles)", "105,066", "<= 40,000",
        "287,398 / 518,834", lambda r: _under((r.on("fork"),), (40000,))),
    Row("the same after using and freeing 16 MiB (`fork_used`)", "134,507",
        "within 5% of `fork`", "-", _fork_used),
    Row("one switch between two processes (`yield`)", "765", "<= 400", "~3,930 (lat_ctx) / -",
        lambda r: _under((r.on("yield"),), (400,))),
)


def table_markdown(parsed: dict) -> str:
    """The block fastpath-targets: one line per row, 'met' from the run."""
    run = Run(parsed)
    lines = ["| path | before | now | target | met | Linux / xv6 |",
             "|---|---:|---:|---:|:-:|---:|"]
    for row in ROWS:
        reading = row.read(run)
        met = "yes" if reading.met else "no"
        lines.append(f"| {row.label} | {row.before} | {reading.now} | {row.target} | {met} "
                     f"| {row.peer} |")
    return "\n".join(lines) + "\n"
