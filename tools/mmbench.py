#!/usr/bin/env python3
"""mmbench: the memory managers compared on one over-committed workload.

For each configuration (mm=swap, mm=paging, mm=paging refbits=sw) boots the
kernel under `-icount shift=0,sleep=off` with mem=8M and a 64M swap disk,
runs the same hog workload needing four times physical memory on one hart,
and reads:

  hog's FL-JSON record    elapsed_ms (virtual time under icount), bad pages
  `vmstat -j`             page-ins/outs, swap-ins/outs, reclaims, clock scans
  `lat meters`            the kernel meters over the hog run alone (they are
                          reset just before it): vm.*, fault.* events, in
                          instructions (= cycles under icount)

and writes OUT_DIR/mm.md (a table per manager) and OUT_DIR/mm.json.

  python3 tools/mmbench.py [--kernel build/kernel.elf] [--initrd build/initrd.cpio]
                           [--out-dir docs/results] [--only swap|paging|paging-sw]
  python3 tools/mmbench.py --from-log DIR   # re-render from kept console logs
"""

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import faultline_qemu as fq  # noqa: E402

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
METER_EVENTS = ("vm.pagein", "vm.pageout", "vm.swapin", "vm.swapout", "vm.minor_fault")
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
    for obj in fq.parse_json_lines(_json_lines(console)):
        if obj.get("bench") == "hog":
            hog = obj
        elif obj.get("vmstat") == "counters":
            vmstat = obj
        elif "meters" in obj:
            meters = {m["event"]: m for m in obj["meters"] if wanted_meter(m.get("event", ""))}
    return {"hog": hog, "vmstat": vmstat, "meters": meters}


def _json_lines(console: str) -> str:
    """A job's output may follow the shell prompt on the same line: put every
    FL-JSON record at the start of its own line."""
    return re.sub(r"(?m)^.*?(FL-JSON \{)", r"\1", console)


def wanted_meter(event: str) -> bool:
    return event in METER_EVENTS or event.startswith(METER_PREFIXES)


def meter_stats(meter: dict) -> dict:
    count = meter.get("count", 0)
    return {"count": count,
            "min": meter.get("min") if count else None,
            "mean": meter["sum"] / count if count else None,
            "max": meter.get("max") if count else None}


def summarize(name: str, parsed: dict) -> dict:
    hog, vm = parsed["hog"] or {}, parsed["vmstat"] or {}
    return {
        "config": name,
        "append": f"{CONFIGS[name][0]} {MEM}" if name in CONFIGS else None,
        "hog_args": CONFIGS[name][1] if name in CONFIGS else None,
        "elapsed_ms": hog.get("elapsed_ms"),
        "bad_pages": hog.get("bad_pages"),
        "failed_children": hog.get("failed_children"),
        "pages_checked": hog.get("pages_checked"),
        "vmstat": {k: vm.get(k) for k in VMSTAT_FIELDS},
        "meters": {e: meter_stats(m) for e, m in sorted(parsed["meters"].items())},
    }


def fmt(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.0f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def markdown(results: list) -> str:
    out = ["# faultline memory managers under a 4x over-commit\n",
           f"Each run boots with `{MEM}` (8 MiB of frames for everything), a {DISK_SIZE} "
           f"virtio-blk swap disk and {CPUS} hart(s) under `{' '.join(ICOUNT_ARGS)}`, and runs "
           "one `hog` needing four times physical memory, then `vmstat -j` and "
           "`lat meters`. Times are virtual (icount: one instruction = one ns); meter values "
           "are cycles per event over the hog run alone (the meters are reset just "
           "before it). A cycle is an instruction while the hart runs, but under "
           "`sleep=off` a hart waiting for the disk jumps the virtual clock to its next "
           "timer event, so the elapsed time and the means and maxima of events that wait "
           "for the disk (vm.pagein, vm.pageout, vm.swapin, vm.swapout, and "
           "fault.entry_to_frame, which includes making room) are dominated by those "
           "jumps; the minima and the events that never wait are instruction counts. Regenerate with `make mmbench` "
           "(docs/measurement.md).\n"]
    for r in results:
        vm = r["vmstat"]
        out.append(f"## {r['config']}: `{r['append']}`, `hog {r['hog_args']}`\n")
        out.append("| measure | value |\n|---|---:|")
        rows = [("workload elapsed (virtual ms)", r["elapsed_ms"]),
                ("pages checked / bad / failed children",
                 f"{fmt(r['pages_checked'])} / {fmt(r['bad_pages'])} / "
                 f"{fmt(r['failed_children'])}"),
                ("page-ins", vm["pageins"]), ("page-outs", vm["pageouts"]),
                ("swap-ins (processes)", vm["swapins"]), ("swap-outs (processes)", vm["swapouts"]),
                ("swap-in pages", vm["swapin_pages"]), ("swap-out pages", vm["swapout_pages"]),
                ("reclaims", vm["reclaims"]), ("clock scans", vm["clock_scans"]),
                ("faults", vm["faults"]), ("minor faults", vm["minor_faults"]),
                ("I/O errors / OOM kills", f"{fmt(vm['io_errors'])} / {fmt(vm['oom_kills'])}")]
        out += [f"| {k} | {fmt(v)} |" for k, v in rows]
        out.append("")
        out.append("| meter event | count | min | mean | max |\n|---|---:|---:|---:|---:|")
        for event, s in r["meters"].items():
            out.append(f"| {event} | {fmt(s['count'])} | {fmt(s['min'])} | {fmt(s['mean'])} "
                       f"| {fmt(s['max'])} |")
        out.append("")
    return "\n".join(out)


# ----- running -------------------------------------------------------------------

def run_config(args, name: str, out_dir: Path) -> str:
    extra, hog_args = CONFIGS[name]
    log_path = out_dir / f"mmbench-{name}.log"
    m = fq.Machine(args.kernel, args.initrd, workdir=out_dir, log_path=log_path,
                   name=f"mmbench-{name}")
    try:
        m.start(cpus=CPUS, append=f"{extra} {MEM}", icount=True,
                disk_size=DISK_SIZE)
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        # let the other harts' "hart N online" lines land before the first command
        while len(HART_ONLINE.findall(m.log)) < CPUS - 1:
            m.expect(HART_ONLINE, timeout=HART_TIMEOUT)
        m.run_shell("lat meters")          # drops the boot's meters
        say(f"{name}: hog {hog_args}")
        m.send(f"hog {hog_args}")
        m.expect_prompt(timeout=HOG_TIMEOUT, idle_timeout=HOG_IDLE_TIMEOUT)
        m.run_shell("lat meters")
        m.run_shell("vmstat -j")
        m.send("halt")
        m.wait_exit(timeout=HALT_TIMEOUT)
    except fq.MachineError as e:
        say(f"{name}: run failed: {e}")
    finally:
        m.close()
    return log_path.read_bytes().decode(errors="replace")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument("--kernel", default="build/kernel.elf")
    p.add_argument("--initrd", default="build/initrd.cpio")
    p.add_argument("--out-dir", default="docs/results", type=Path,
                   help="where mm.md and mm.json go")
    p.add_argument("--log-dir", default="build/mmbench", type=Path,
                   help="where the console logs and disks go")
    p.add_argument("--only", choices=sorted(CONFIGS), action="append")
    p.add_argument("--from-log", type=Path, metavar="DIR",
                   help="no QEMU: re-render from DIR/mmbench-<config>.log")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    names = args.only or list(CONFIGS)
    results = []
    for name in names:
        if args.from_log:
            console = (args.from_log / f"mmbench-{name}.log").read_text(errors="replace")
        else:
            args.log_dir.mkdir(parents=True, exist_ok=True)
            console = run_config(args, name, args.log_dir)
        parsed = parse_run(console)
        if parsed["hog"] is None or parsed["vmstat"] is None:
            say(f"{name}: no hog or vmstat record in the console; see the log")
        results.append(summarize(name, parsed))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "mm.json").write_text(json.dumps(results, indent=1) + "\n")
    (args.out_dir / "mm.md").write_text(markdown(results))
    say(f"wrote {args.out_dir / 'mm.md'} and {args.out_dir / 'mm.json'}")
    complete = all(r["elapsed_ms"] is not None and r["vmstat"]["faults"] is not None
                   for r in results)
    return 0 if complete else 1


if __name__ == "__main__":
    sys.exit(main())
