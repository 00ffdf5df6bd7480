#!/usr/bin/env python3
"""iprofile: where the instructions of one kernel path go, function by
function, by single-stepping it in GDB.

The meters say how long a path took between two stamps; this says what
ran in between. The kernel boots under QEMU with a GDB stub; GDB waits on
trap_vector for a trap that matches the event (a page fault, a given
system call), then steps the hart that took it one instruction at a time,
the other harts held and QEMU's single-step keeping interrupts and timers
out, until that hart is back in user mode (tools/gdb/iprofile-steps.py).
Every instruction is counted against the function that holds it (the
kernel's ELF symbols), so the totals are exact instruction counts of the
path as it ran, not samples.

  python3 tools/iprofile.py EVENT [--run "COMMAND"] [--proc NAME]
          [--samples 5] [--skip 16] [--cpus 2] [--append "BOOT PARAMS"]
          [--timeline] [--json OUT] [--limit N] [--timeout SECONDS]
  python3 tools/iprofile.py --suite docs/results/iprofile.md

EVENT is `fault` (any page fault from user mode), `fault:load`,
`fault:store`, `fault:exec`, or `syscall:NAME` (an ecall with a7 =
SYS_NAME). --run is the shell command that makes the events (default:
the `lat` benchmark that does, e.g. `lat fault_zero`); --proc keeps only
traps of the process with that name (default: the command's first word).
--skip lets that many calls of the event's kernel function pass first
(warm-up: vm_fault for a fault, sys_NAME for a system call). The report
gives each sample's length and, for the median sample, the instructions
by function in order of first appearance (--timeline: every run of
consecutive instructions in one function, in order).

What it is not: a cycle count (a stepped instruction is one instruction,
whatever it would cost on hardware), and not the path with interrupts:
an interrupt that would have come in the middle is held off. A path that
waits for a device or for another hart (the disk, a lock held elsewhere)
does not finish: it is cut at --limit instructions and reported as cut;
samples not taken within --timeout seconds are reported missing. QEMU
runs without -icount here: its GDB stub in QEMU 7.2 stops answering
single steps under -icount. The path is the same; only the values read
from the clocks differ.

--suite steps each path of SUITE (the fast paths docs/measurement.md sets
targets for) and writes their breakdowns as Markdown.

    make iprofile EVENT=fault:store WORKLOAD="lat fault_zero"
    make iprofile-docs          # docs/results/iprofile.md
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
sys.path.insert(0, str(TOOLS))

import faultline as fq  # noqa: E402

STEPS_SCRIPT = TOOLS / "gdb" / "iprofile-steps.py"
SYSCALL_HEADER = ROOT / "include" / "faultline" / "syscall.h"
USER_TOP = 0x4000000000         # kernel/arch/riscv64/include/arch/layout.h
EXC_ECALL_U = 8
PAGE_FAULT_CAUSES = {"fault": (12, 13, 15), "fault:exec": (12,), "fault:load": (13,),
                     "fault:store": (15,)}
# The lat benchmark that makes each kind of event, when --run is not given.
DEFAULT_RUNS = {"fault": "lat fault_zero", "fault:store": "lat fault_zero",
                "fault:load": "lat fault_read", "syscall:nop": "lat nop",
                "syscall:kill": "lat kill_self", "syscall:tkill": "lat signal_self",
                "syscall:fork": "lat fork", "syscall:yield": "lat yield",
                "syscall:sigsuspend": "lat sigpingpong"}
# The paths docs/results/iprofile.md breaks down (--suite): the fast
# paths' targets (docs/measurement.md), each in the lat benchmark that
# measures it.
SUITE = [
    ("syscall:nop", "lat nop", "null system call through the full path (`lat nop`)"),
    ("fault:store", "lat fault_zero", "demand-zero write fault (`lat fault_zero`)"),
    ("fault:load", "lat fault_read", "first read of an untouched page (`lat fault_read`)"),
    ("syscall:kill", "lat kill_self",
     "`kill` of the caller's own pid, to the handler's first instruction (`lat kill_self`)"),
    ("syscall:kill", "lat sigpingpong",
     "ping-pong on one hart, the sender's `kill` of the sleeping receiver (`lat sigpingpong`)"),
    ("syscall:sigsuspend", "lat sigpingpong",
     "ping-pong on one hart, the sender's `sigsuspend`, to the receiver's handler (`lat sigpingpong`)"),
    ("syscall:fork", "lat fork", "`fork`, the parent's call (`lat fork`)"),
]
SUITE_SAMPLES = 3
# fork's call alone is some 20,000 steps, each a GDB round trip: one sample.
SUITE_SAMPLES_LONG = {"syscall:fork": 1}
BOOT_TIMEOUT = 120.0
DEFAULT_LIMIT = 100_000
DEFAULT_TIMEOUT = 600.0


# ----- the kernel's symbols ----------------------------------------------------

def elf_functions(path: Path) -> tuple[list, list]:
    """(sorted start addresses, names) of the ELF64 file's function and
    label symbols: enough to name the function that holds an address."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit(f"iprofile: {path} is not a little-endian ELF64 file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    syms = {}
    for sh in sections:
        if sh[1] != 2:                                   # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], sh[9]):
            name_off, info, _other, shndx, value, _size = struct.unpack_from("<IBBHQQ", data, off)
            kind = info & 0xF
            if shndx == 0 or kind not in (0, 2) or value < USER_TOP:   # NOTYPE labels, FUNC
                continue
            s = strtab[4] + name_off
            name = data[s:data.index(b"\0", s)].decode()
            if not name or name.startswith((".L", "$")):
                continue
            # Prefer a function's own name to a label at the same address.
            if value not in syms or kind == 2:
                syms[value] = name
    addrs = sorted(syms)
    return addrs, [syms[a] for a in addrs]


def namer(addrs: list, names: list):
    def name_of(pc: int) -> str:
        i = bisect.bisect_right(addrs, pc) - 1
        return names[i] if i >= 0 else f"{pc:#x}"
    return name_of


# ----- the event ---------------------------------------------------------------

def syscall_number(name: str) -> int:
    m = re.search(rf"^#define\s+SYS_{re.escape(name)}\s+(\d+)", SYSCALL_HEADER.read_text(), re.M)
    if not m:
        raise SystemExit(f"iprofile: no system call {name!r} in {SYSCALL_HEADER}")
    return int(m.group(1))


def event_trigger(event: str, names: list) -> str:
    """A function only the event's path calls (gdb/iprofile-steps.py): for
    a system call its table entry (do_sys_NAME, syscall.c's argument
    wrapper, into which sys_NAME may be inlined) or sys_NAME itself."""
    if event in PAGE_FAULT_CAUSES:
        return "vm_fault"
    call = event.split(":", 1)[1]
    for name in (f"do_sys_{call}", f"sys_{call}"):
        if name in names:
            return name
    raise SystemExit(f"iprofile: no do_sys_{call} or sys_{call} in the kernel")


def event_condition(event: str, proc: str) -> str:
    """GDB's condition on trap_vector for the event. At trap_vector,
    sscratch holds the trapframe (the thread: trap.S) if the trap came from
    user mode, 0 if from the kernel."""
    if event in PAGE_FAULT_CAUSES:
        cause = " || ".join(f"$scause == {c}" for c in PAGE_FAULT_CAUSES[event])
    elif event.startswith("syscall:"):
        cause = f"$scause == {EXC_ECALL_U} && $a7 == {syscall_number(event.split(':', 1)[1])}"
    else:
        raise SystemExit(f"iprofile: unknown event {event!r}: fault, fault:load, fault:store, "
                         "fault:exec or syscall:NAME")
    cond = f"$sscratch != 0 && ({cause})"
    if proc:
        cond += f' && $_streq(((struct thread *)$sscratch)->proc->name, "{proc}")'
    return cond


# ----- running it --------------------------------------------------------------

def stop_group(proc: subprocess.Popen) -> None:
    """Ends proc's process group (its own: start_new_session) if it still
    runs; one already gone is no error (a timeout racing its end)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def collect(args, cond: str, trigger: str, out_file: Path) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="fl-iprofile-"))
    m = fq.Machine(args.kernel, args.initrd, workdir=workdir, name="iprofile", arch=args.arch)
    gdb = watchdog = None
    try:
        m.start(cpus=args.cpus, mem=args.mem, append=args.append, icount=False, gdb=True)
        m.expect_prompt(timeout=BOOT_TIMEOUT * fq.timeout_scale())
        env = dict(os.environ, FL_IPROF_COND=cond, FL_IPROF_TRIGGER=trigger,
                   FL_IPROF_SAMPLES=str(args.samples),
                   FL_IPROF_SKIP=str(args.skip), FL_IPROF_LIMIT=str(args.limit),
                   FL_IPROF_OUT=str(out_file))
        # The script runs once GDB is attached (a -x file would run first).
        cmd = fq.gdb_command(args.kernel, str(m.gdb_socket), None, [f"source {STEPS_SCRIPT}"])
        gdb = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=env,
                               start_new_session=True)   # its own group: ended by us only
        # A trigger that never runs would keep GDB waiting for ever.
        watchdog = threading.Timer(args.timeout * fq.timeout_scale(), stop_group, (gdb,))
        watchdog.daemon = True
        watchdog.start()
        for line in gdb.stdout:
            if line.startswith(("iprofile:", "Traceback", "gdb.", "Python Exception")) or "Error" in line:
                print(line.rstrip(), file=sys.stderr)
            if "iprofile: armed" in line:
                m.send(args.run)
            if "iprofile: done" in line:
                break
        gdb.wait(timeout=60)
    finally:
        if watchdog:
            watchdog.cancel()
        if gdb:
            stop_group(gdb)
            gdb.wait()
        m.close()


def by_function(pcs: list, name_of) -> list:
    """[(function, instructions)] in order of first appearance."""
    counts: dict = {}
    for pc in pcs:
        f = name_of(pc)
        counts[f] = counts.get(f, 0) + 1
    return list(counts.items())


def timeline(pcs: list, name_of) -> list:
    runs: list = []
    for pc in pcs:
        f = name_of(pc)
        if runs and runs[-1][0] == f:
            runs[-1][1] += 1
        else:
            runs.append([f, 1])
    return runs


def report(args, samples: list, name_of) -> dict:
    lengths = [len(s["pcs"]) for s in samples]
    med = sorted(samples, key=lambda s: len(s["pcs"]))[len(samples) // 2]
    print(f"event {args.event} in `{args.run}`: {len(samples)} samples, "
          f"instructions each: {', '.join(map(str, lengths))} "
          f"(median {statistics.median(lengths):g})")
    cut = [s["sample"] for s in samples if not s["ended"]]
    if cut:
        print(f"CUT at --limit {args.limit} (never back in user mode): samples {cut}")
    print(f"\nmedian sample, {len(med['pcs'])} instructions, by function (first appearance order):")
    funcs = by_function(med["pcs"], name_of)
    for f, n in funcs:
        print(f"  {n:8d}  {f}")
    result = {"event": args.event, "run": args.run, "lengths": lengths,
              "median_sample": {"instructions": len(med["pcs"]), "functions": funcs,
                                "ended": med["ended"]}}
    if args.timeline:
        print("\nmedian sample in order (function, consecutive instructions):")
        runs = timeline(med["pcs"], name_of)
        for f, n in runs:
            print(f"  {n:6d}  {f}")
        result["median_sample"]["timeline"] = runs
    return result


def suite_markdown(rows: list, when: str) -> str:
    out = ["# Where the fast paths' instructions go",
           "",
           f"Generated by `make iprofile-docs` (tools/iprofile.py --suite) on {when}:",
           "each path single-stepped in GDB from its trap's entry to the `sret`",
           "back to user mode, every instruction counted against the function",
           "that holds it (docs/measurement.md, \"Where a path's instructions",
           "go\"). 2 harts, meters on; the median of the samples, functions in",
           "order of first appearance. A path that did not finish is marked.",
           ""]
    for title, r in rows:
        out.append(f"## {title}")
        out.append("")
        if r is None:
            out += ["MISSING: no sample was taken.", ""]
            continue
        med = r["median_sample"]
        out.append(f"`{r['event']}` in `{r['run']}`: {med['instructions']} instructions "
                   f"(samples: {', '.join(map(str, r['lengths']))})"
                   + ("" if med["ended"] else " CUT: never back in user mode") + ".")
        out += ["", "| function | instructions |", "|---|---:|"]
        out += [f"| `{f}` | {n} |" for f, n in med["functions"]]
        out.append("")
    return "\n".join(out)


def run_suite(args, addrs: list, names: list, out_md: Path) -> int:
    import datetime
    name_of = namer(addrs, names)
    rows, missing = [], 0
    for event, run, title in SUITE:
        args.event, args.run = event, run
        args.samples = SUITE_SAMPLES_LONG.get(event, SUITE_SAMPLES)
        cond = event_condition(event, run.split()[0])
        with tempfile.TemporaryDirectory(prefix="fl-iprofile-") as tmp:
            out = Path(tmp) / "samples.jsonl"
            collect(args, cond, event_trigger(event, names), out)
            samples = ([json.loads(line) for line in out.read_text().splitlines()]
                       if out.exists() else [])
        if not samples:
            print(f"iprofile: MISSING: {title}: no sample", file=sys.stderr)
            missing += 1
            rows.append((title, None))
            continue
        rows.append((title, report(args, samples, name_of)))
    out_md.write_text(suite_markdown(rows, datetime.date.today().isoformat()) + "\n")
    print(f"iprofile: wrote {out_md}")
    return 1 if missing else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("event", nargs="?")
    p.add_argument("--suite", metavar="OUT_MD",
                   help="step every path of SUITE and write their breakdowns here")
    p.add_argument("--run", help="shell command that makes the events")
    p.add_argument("--proc", help="only traps of this process (default: the command's name)")
    p.add_argument("--samples", type=int, default=5)
    p.add_argument("--skip", type=int, default=16, help="calls of the event's function to let pass first")
    p.add_argument("--limit", type=int, default=DEFAULT_LIMIT)
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                   help="seconds for all the samples, after the boot")
    p.add_argument("--cpus", type=int, default=2)
    p.add_argument("--mem", default="128M")
    p.add_argument("--append", default="", help="boot parameters")
    p.add_argument("--timeline", action="store_true")
    p.add_argument("--json", help="write the result here")
    p.add_argument("--kernel", default="build/kernel.elf")
    p.add_argument("--initrd", default="build/initrd.cpio")
    p.add_argument("--arch", default=fq.DEFAULT_ARCH)
    args = p.parse_args()
    # Ended from outside (a timeout): the finally blocks still stop the
    # QEMU and GDB this run started, which live in process groups of their own.
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    if args.samples < 1 or args.skip < 0 or args.limit < 1:
        p.error("--samples and --limit must be at least 1, --skip at least 0")
    if args.suite:
        return run_suite(args, *elf_functions(Path(args.kernel)), Path(args.suite))
    if not args.event:
        p.error("an EVENT, or --suite OUT_MD")
    if args.run is None:
        args.run = DEFAULT_RUNS.get(args.event)
        if args.run is None:
            p.error(f"no default command makes {args.event}: give --run")
    proc = args.proc if args.proc is not None else args.run.split()[0]
    cond = event_condition(args.event, proc)
    addrs, names = elf_functions(Path(args.kernel))
    name_of = namer(addrs, names)
    trigger = event_trigger(args.event, names)
    with tempfile.TemporaryDirectory(prefix="fl-iprofile-") as tmp:
        out = Path(tmp) / "samples.jsonl"
        collect(args, cond, trigger, out)
        samples = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    if len(samples) < args.samples:
        print(f"iprofile: MISSING: {args.samples} samples wanted, {len(samples)} taken "
              f"(did `{args.run}` make {args.event} in process {proc!r}?)", file=sys.stderr)
        if not samples:
            return 1
    result = report(args, samples, name_of)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    return 0 if len(samples) == args.samples else 1


if __name__ == "__main__":
    sys.exit(main())
