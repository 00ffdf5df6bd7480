#!/usr/bin/env python3
"""pctable: CPU per page fault by who spends it, pc=inline against
pc=daemon, as the Multics paper's Tables III and IV split it
(docs/measurement.md, "Page control per fault").

For each page control, boots the kernel under `-icount shift=0,sleep=off`
with mm=paging, a memory cap and a 64M paging disk, reads `vmstat -j`,
runs one hog workload, reads `vmstat -j` again, and reports the change in
the page-control meters (struct fl_vmstat's pcm_* and sw_* fields,
kernel/include/pcmeter.h), in instructions (icount: cycles are
instructions):

  fault handler      per fault (user page faults, entry to exit less time away)
  core manager       per fault, and per run of its loop
  PD manager         per fault, and per run of its loop
  disk interrupts    per fault, and per interrupt
  RWS moves          per fault, and per run of the PD manager's moves
                     (pd=: pages moved from the paging device to the disk)
  getwork            per fault, and per switch, for each reason a thread
                     left its hart (awaiting core, disk, core manager,
                     PD manager, pre-emption, other)

The two take about the same number of faults only if the daemon, which
keeps up to freemax frames free, gets that much more memory: --match
raises the daemon's cap in MATCH_STEP_K steps until its fault count is
within MATCH_TOLERANCE of inline's, as the paper set memory so that both
took about the same number of faults; the report says which cap it used.

  python3 tools/pctable.py [--kernel build/kernel.elf] [--initrd build/initrd.cpio]
                           [--mem 8192] [--hog "-p 2 -m 8192 -r 1"] [--cpus 1]
                           [--match] [--json out.json] [--md out.md]
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import faultline as fq  # noqa: E402

DISK_SIZE = "64M"
BOOT_TIMEOUT = 180.0
HOG_TIMEOUT = 1800.0
HOG_IDLE_TIMEOUT = 900.0
DEFAULT_MEM_K = 8192
DEFAULT_HOG = "-p 2 -m 8192 -r 1"
MATCH_TOLERANCE = 0.05          # fault counts within 5%, as the brief of the experiment asks
MATCH_STEP_K = 256              # the daemon's memory grows by this much per try
MATCH_TRIES = 8
WHO = (("fault", "fault handler"), ("coremgr", "core manager"), ("pdmgr", "PD manager"),
       ("diskirq", "disk interrupts"), ("rws", "RWS moves (PD to disk)"))
WHO_EVENTS = {"fault": "pcm_faults", "coremgr": "pcm_coremgr_runs", "pdmgr": "pcm_pdmgr_runs",
              "diskirq": "pcm_diskirqs", "rws": "pcm_rws_runs"}
WHO_PER = {"fault": "fault", "coremgr": "run", "pdmgr": "run", "diskirq": "interrupt",
           "rws": "run"}
# pd=: what the paging device did (vmstat; 0 without one)
PD_FIELDS = ("pd_stores", "pd_reads", "rws_moves", "pd_reclaimed", "pd_full")
SWITCHES = (("core_wait", "awaiting core"), ("disk", "waiting for the disk"),
            ("coremgr", "core manager sleeps"), ("pdmgr", "PD manager sleeps"),
            ("preempt", "pre-emption or yield"), ("other", "other waits"))


def say(msg: str) -> None:
    print(f"pctable: {msg}", file=sys.stderr, flush=True)


# ----- the arithmetic (pure) ---------------------------------------------------------

def delta(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in after if isinstance(after[k], int) and k in before}


def table(d: dict) -> dict:
    """Per-fault and per-event figures from the change in vmstat over a run."""
    faults = d["pcm_faults"]
    if faults <= 0:
        raise ValueError("no page faults were metered (meters=off?)")
    rows = {}
    for key, _ in WHO:
        cycles = d.get("pcm_fault_cycles" if key == "fault" else f"pcm_{key}_cycles", 0)
        events = d.get(WHO_EVENTS[key], 0)
        rows[key] = {"cycles": cycles, "events": events,
                     "per_fault": cycles / faults,
                     "per_event": cycles / events if events else 0.0}
    getwork = {}
    for key, _ in SWITCHES:
        n, cycles = d[f"sw_{key}"], d[f"sw_{key}_cycles"]
        getwork[key] = {"switches": n, "cycles": cycles,
                        "per_fault": cycles / faults, "per_switch": cycles / n if n else 0.0,
                        "switches_per_fault": n / faults}
    total = sum(r["per_fault"] for r in rows.values()) + sum(g["per_fault"] for g in getwork.values())
    return {"faults": faults, "pageins": d["pageins"], "pageouts": d["pageouts"],
            "core_waits": d["core_waits"], "zeroed_fills": d["zeroed_fills"],
            **{k: d.get(k, 0) for k in PD_FIELDS},
            "who": rows, "getwork": getwork, "total_per_fault": total}


def within(a: int, b: int, tolerance: float = MATCH_TOLERANCE) -> bool:
    return abs(a - b) <= tolerance * max(a, b)


def markdown(results: dict) -> str:
    names = list(results)
    out = ["| instructions per fault | " + " | ".join(names) + " |",
           "|---|" + "---:|" * len(names)]

    def row(label, values):
        out.append(f"| {label} | " + " | ".join(values) + " |")

    row("memory cap", [f"{results[n]['mem_k']}K" for n in names])
    row("faults", [str(results[n]["table"]["faults"]) for n in names])
    for key, label in WHO:
        row(label, [f"{results[n]['table']['who'][key]['per_fault']:.0f}" for n in names])
    for key, label in SWITCHES:
        row(f"getwork: {label}", [f"{results[n]['table']['getwork'][key]['per_fault']:.0f}"
                                  for n in names])
    row("**total**", [f"**{results[n]['table']['total_per_fault']:.0f}**" for n in names])
    out += ["", "| per event (instructions) | " + " | ".join(names) + " |",
            "|---|" + "---:|" * len(names)]
    for key, label in WHO:
        row(f"{label}, per {WHO_PER[key]}",
            [f"{results[n]['table']['who'][key]['per_event']:.0f} "
             f"(x{results[n]['table']['who'][key]['events']})" for n in names])
    for key, label in SWITCHES:
        row(f"getwork, per switch: {label}",
            [f"{results[n]['table']['getwork'][key]['per_switch']:.0f} "
             f"(x{results[n]['table']['getwork'][key]['switches']})" for n in names])
    return "\n".join(out) + "\n"


# ----- running ---------------------------------------------------------------------

def run_one(args, pc: str, mem_k: int, workdir: Path, extra: str = "") -> dict:
    """One boot, one hog run; extra: more boot parameters (pd=SIZE gets
    its paging device from the Machine)."""
    tag = "-" + extra.replace("=", "") if extra else ""
    m = fq.Machine(args.kernel, args.initrd, workdir=workdir, name=f"pctable-{pc}-{mem_k}{tag}",
                   arch=args.arch)
    try:
        m.start(cpus=args.cpus, icount=True, disk_size=DISK_SIZE,
                append=f"mm=paging pc={pc} mem={mem_k}K pcmeters=on {extra}".strip())
        m.expect_prompt(timeout=BOOT_TIMEOUT)   # the harts are online before init starts
        before = vmstat(m)
        m.send(f"hog {args.hog}")
        m.expect_prompt(timeout=HOG_TIMEOUT, idle_timeout=HOG_IDLE_TIMEOUT)
        hog = [o for o in fq.parse_json_lines(m.log) if o.get("bench") == "hog"]
        after = vmstat(m)
    finally:
        m.close()
    if not hog or hog[-1]["bad_pages"] or hog[-1]["failed_children"]:
        raise RuntimeError(f"pc={pc} mem={mem_k}K: the hog run failed: {hog}")
    d = delta(before, after)
    return {"pc": pc, "mem_k": mem_k, "extra": extra, "hog": hog[-1], "delta": d,
            "table": table(d)}


def vmstat(m) -> dict:
    start = len(m.log)
    m.send("vmstat -j")
    m.expect_prompt(timeout=60)
    recs = [o for o in fq.parse_json_lines(m.log[start:]) if o.get("vmstat") == "counters"]
    if not recs:
        raise RuntimeError("vmstat -j printed no record")
    return recs[-1]


def measure(args, workdir: Path, progress=say) -> dict:
    progress(f"pc=inline mem={args.mem}K: hog {args.hog}")
    inline = run_one(args, "inline", args.mem, workdir)
    mem = args.mem
    progress(f"pc=daemon mem={mem}K")
    daemon = run_one(args, "daemon", mem, workdir)
    tries = 0
    while args.match and not within(daemon["table"]["faults"], inline["table"]["faults"]) \
            and tries < MATCH_TRIES:
        tries += 1
        # More faults than inline: the free list took memory from the pages.
        mem += MATCH_STEP_K if daemon["table"]["faults"] > inline["table"]["faults"] else -MATCH_STEP_K
        progress(f"pc=daemon took {daemon['table']['faults']} faults against inline's "
                 f"{inline['table']['faults']}: again with mem={mem}K")
        daemon = run_one(args, "daemon", mem, workdir)
    return {"inline": inline, "daemon": daemon,
            "matched": within(daemon["table"]["faults"], inline["table"]["faults"])}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernel", default="build/kernel.elf")
    p.add_argument("--initrd", default="build/initrd.cpio")
    p.add_argument("--arch", default=fq.DEFAULT_ARCH)
    p.add_argument("--mem", type=int, default=DEFAULT_MEM_K, help="inline's memory cap, KiB")
    p.add_argument("--hog", default=DEFAULT_HOG, help="hog's arguments")
    p.add_argument("--cpus", type=int, default=1)
    p.add_argument("--match", action="store_true",
                   help="raise the daemon's memory until its faults are within 5%% of inline's")
    p.add_argument("--workdir", default="build/pctable")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--md", help="write the Markdown tables here")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    res = measure(args, workdir)
    md = markdown({"pc=inline": res["inline"], "pc=daemon": res["daemon"]})
    print(md)
    if not res["matched"]:
        say("the fault counts are more than 5% apart")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1) + "\n")
    if args.md:
        Path(args.md).write_text(md)
    return 0 if res["matched"] or not args.match else 1


if __name__ == "__main__":
    sys.exit(main())
