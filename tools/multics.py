#!/usr/bin/env python3
"""multics: the Multics page-control experiments (`make repro-multics`).

Two parts, each for pc=inline and pc=daemon (docs/measurement.md,
"Page control per fault" and "The idle-time experiment"):

1. Tables III and IV: CPU per fault by who spends it, one hart under
   -icount, at equal fault counts (tools/pctable.py does the runs); then
   pc=daemon again with a paging device (pd=PD_SIZE, at the daemon's
   memory), whose faults are served from the paging device or the disk
   and whose PD manager moves pages on to the disk (RWS).
2. The idle-time experiment: two harts, host-timed (two harts under
   -icount crawl while paging, docs/measurement.md), the same paging
   workload beside LOAD_PROCS background `spin -d DUTY` loads, the duty
   cycle varied so that idle time goes from about 90% to about 0%. Each
   run reports the workload's elapsed time, the total page-control CPU per
   fault, the faulting threads' delay per fault, and the idle fraction
   (the harts' idle turns over the run's cycles on both harts). The
   break-even idle fraction is where the daemon's elapsed time crosses
   inline's, set beside the paper's 80%.

Writes OUT/multics.md, OUT/multics.json and the plots OUT/multics-cpu.png
(stacked bars of CPU per fault by component) and OUT/multics-idle.png
(elapsed time and fault delay against idle fraction), with a progress bar
on stderr. QUICK=1 (--quick) runs a small version for tests.

  python3 tools/multics.py [--kernel K] [--initrd I] [--out docs/results] [--quick]
"""

import argparse
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

import faultline as fq  # noqa: E402
from faultline.progress import Progress  # noqa: E402
import pctable  # noqa: E402

PCS = ("inline", "daemon")
PD_SIZE = "4M"                 # the paging device of the third column: half the workload's pages
DISK_SIZE = "64M"
IDLE_CPUS = 2
LOAD_PROCS = 2                 # one spinner per hart
FULL = {"table_mem": 8192, "table_hog": "-p 2 -m 8192 -r 1",
        "idle_mem": 6144, "idle_hog": "-p 2 -m 4096 -r 1",
        "duties": (0, 25, 50, 75, 90, 100)}
QUICK = {"table_mem": 6144, "table_hog": "-p 1 -m 8192 -r 1",
         "idle_mem": 6144, "idle_hog": "-p 1 -m 4096 -r 1",
         "duties": (0, 60)}
# The idle-time runs' disk (disklat=, kernel/dev/blk_latency.c): QEMU's image
# file answers at once, so without a service time the paging workload
# leaves a hart idle only a little (56% at most with no load) and the
# duty cycle cannot sweep idle time from about 90% down to 0.
IDLE_DISKLAT = "500us"
BOOT_TIMEOUT = 180.0
HOG_TIMEOUT = 1800.0
LOAD_SETTLE_S = 0.5            # the spinners start before the workload does
# The paper (Table III and its text), in microseconds of a 645.
PAPER = {"inline_us": 2976, "daemon_us": 4430, "daemon_delay_us": 369, "break_even_idle": 0.80}


# ----- the idle-time runs --------------------------------------------------------

def vmstat(m) -> dict:
    start = len(m.log)
    m.send("vmstat -j")
    m.expect_prompt(timeout=60)
    return [o for o in fq.parse_json_lines(m.log[start:]) if o.get("vmstat") == "counters"][-1]


def idle_run(args, cfg: dict, pc: str, duty: int, workdir: Path) -> dict:
    m = fq.Machine(args.kernel, args.initrd, workdir=workdir, name=f"idle-{pc}-{duty}",
                   arch=args.arch)
    try:
        m.start(cpus=IDLE_CPUS, disk_size=DISK_SIZE,
                append=f"mm=paging pc={pc} mem={cfg['idle_mem']}K pcmeters=on disklat={IDLE_DISKLAT}")
        m.expect_prompt(timeout=BOOT_TIMEOUT)   # the harts are online before init starts
        if duty:
            for _ in range(LOAD_PROCS):
                m.send(f"spin -d {duty} &")
                m.expect_prompt(timeout=60)
            time.sleep(LOAD_SETTLE_S)
        before = vmstat(m)
        m.send(f"hog {cfg['idle_hog']}")
        m.expect_prompt(timeout=HOG_TIMEOUT)
        hog = [o for o in fq.parse_json_lines(m.log) if o.get("bench") == "hog"][-1]
        after = vmstat(m)
    finally:
        m.close()
    if hog["bad_pages"] or hog["failed_children"]:
        raise RuntimeError(f"pc={pc} duty={duty}: the hog run failed: {hog}")
    return summarize_idle(pc, duty, hog, pctable.delta(before, after))


def summarize_idle(pc: str, duty: int, hog: dict, d: dict) -> dict:
    """Pure: one idle-time run's figures from the change in vmstat."""
    faults = max(d["pcm_faults"], 1)
    cpu = (d["pcm_fault_cycles"] + d["pcm_coremgr_cycles"] + d["pcm_pdmgr_cycles"]
           + d["pcm_diskirq_cycles"] + sum(d[f"sw_{k}_cycles"] for k, _ in pctable.SWITCHES))
    span = max(d["clock_cycles"], 1) * IDLE_CPUS
    return {"pc": pc, "duty": duty, "elapsed_ms": hog["elapsed_ms"], "faults": d["pcm_faults"],
            "cpu_per_fault": cpu / faults,
            "delay_per_fault": d["pcm_fault_delay_cycles"] / faults,
            "idle_fraction": min(d["idle_cycles"] / span, 1.0)}


def break_even(runs: list):
    """The idle fraction at which the daemon's elapsed time crosses
    inline's, interpolated between duty cycles (None if it never does):
    below it inline is faster, above it the daemon."""
    by = {(r["pc"], r["duty"]): r for r in runs}
    points = []
    for duty in sorted({r["duty"] for r in runs}):
        i, dm = by.get(("inline", duty)), by.get(("daemon", duty))
        if i and dm:
            idle = (i["idle_fraction"] + dm["idle_fraction"]) / 2
            points.append((idle, dm["elapsed_ms"] / i["elapsed_ms"] - 1))
    points.sort()
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if y0 > 0 >= y1:
            return x0 + (x1 - x0) * y0 / (y0 - y1)
    if points and all(y <= 0 for _, y in points):
        return 0.0          # the daemon is no slower anywhere measured
    return None


# ----- the report ------------------------------------------------------------------

def pd_markdown(table: dict) -> str:
    """Pure: where the faults were served from and what the PD manager
    moved, pc=daemon without and with the paging device."""
    cols = [("pc=daemon", table["daemon"]["table"]),
            (f"pc=daemon pd={PD_SIZE}", table["daemon_pd"]["table"])]
    out = [f"The paging device (pd={PD_SIZE}, at the daemon's memory): where page-ins came "
           "from, and the PD manager's moves of the oldest pages to the disk (RWS).", "",
           "| | " + " | ".join(n for n, _ in cols) + " |", "|---|" + "---:|" * len(cols)]

    def row(label, f):
        out.append(f"| {label} | " + " | ".join(f(t) for _, t in cols) + " |")

    row("page-ins", lambda t: str(t["pageins"]))
    row("... from the paging device", lambda t: str(t["pd_reads"]))
    row("... from the disk", lambda t: str(t["pageins"] - t["pd_reads"]))
    row("pages written to the paging device", lambda t: str(t["pd_stores"]))
    row("RWS moves (paging device to disk)", lambda t: str(t["rws_moves"]))
    row("dead records reclaimed (no I/O)", lambda t: str(t["pd_reclaimed"]))
    row("RWS instructions per fault", lambda t: f"{t['who']['rws']['per_fault']:.0f}")
    row("RWS instructions per move",
        lambda t: f"{t['who']['rws']['cycles'] / t['rws_moves']:.0f}" if t["rws_moves"] else "-")
    row("total instructions per fault", lambda t: f"{t['total_per_fault']:.0f}")
    return "\n".join(out) + "\n"


def report(table: dict, runs: list, cfg: dict, quick: bool) -> str:
    ti, td = table["inline"]["table"], table["daemon"]["table"]
    be = break_even(runs)
    out = ["# Multics page control, reproduced", "",
           "Generated by `make repro-multics`" + (" QUICK=1 (a small run: not results)" if quick else "")
           + " (tools/multics.py); method in docs/measurement.md, \"Page control per fault\" "
           "and \"The idle-time experiment\".", "",
           "## Tables III and IV: CPU per fault by who spends it", "",
           f"One hart, `-icount shift=0`, `hog {cfg['table_hog']}`; memory "
           f"{table['inline']['mem_k']}K (inline) and {table['daemon']['mem_k']}K (daemon), "
           f"faults {ti['faults']} and {td['faults']}"
           + (" (within 5%)." if table["matched"] else " (NOT within 5%)."), "",
           pctable.markdown({"pc=inline": table["inline"], "pc=daemon": table["daemon"],
                             f"pc=daemon pd={PD_SIZE}": table["daemon_pd"]}),
           pd_markdown(table), "",
           "Beside the paper (units differ: 645 microseconds there, instructions here):", "",
           "| | paper | here |", "|---|---:|---:|",
           f"| daemon / inline, CPU per fault | {PAPER['daemon_us'] / PAPER['inline_us']:.2f} | "
           f"{td['total_per_fault'] / ti['total_per_fault']:.2f} |",
           f"| fault handler's share, inline | (all of it) | "
           f"{ti['who']['fault']['per_fault'] / ti['total_per_fault']:.0%} |",
           f"| fault handler's share, daemon | | "
           f"{td['who']['fault']['per_fault'] / td['total_per_fault']:.0%} |", "",
           "![CPU per fault](multics-cpu.png)", "",
           "## The idle-time experiment", "",
           f"{IDLE_CPUS} harts, host-timed cycles (not icount), `hog {cfg['idle_hog']}` beside "
           f"{LOAD_PROCS} `spin -d DUTY` loads; memory {cfg['idle_mem']}K; the disk modelled at "
           f"{IDLE_DISKLAT} a request (`disklat={IDLE_DISKLAT}`).", "",
           "| pc | load duty % | idle fraction | elapsed ms | CPU per fault | fault delay per fault | faults |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for r in sorted(runs, key=lambda r: (r["duty"], r["pc"])):
        out.append(f"| {r['pc']} | {r['duty']} | {r['idle_fraction']:.2f} | {r['elapsed_ms']} | "
                   f"{r['cpu_per_fault']:.0f} | {r['delay_per_fault']:.0f} | {r['faults']} |")
    idles = [r["idle_fraction"] for r in runs] or [0.0]
    span = f"{min(idles):.2f} to {max(idles):.2f}"
    if be is None:
        verdict = f"none: the daemon was slower at every idle fraction measured ({span})"
    elif be == 0.0:
        verdict = f"none: the daemon finished first at every idle fraction measured ({span})"
    else:
        verdict = f"{be:.2f}"
    out += ["", "Break-even idle fraction (the daemon's elapsed time crosses inline's): " + verdict
            + f"; the paper's: about {PAPER['break_even_idle']:.2f}.", "",
            "![elapsed and delay against idle fraction](multics-idle.png)", ""]
    return "\n".join(out)


def plots(table: dict, runs: list, out: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    names = ["pc=inline", "pc=daemon"]
    tabs = [table["inline"]["table"], table["daemon"]["table"]]
    parts = [(label, [t["who"][k]["per_fault"] for t in tabs]) for k, label in pctable.WHO]
    parts.append(("getwork", [sum(g["per_fault"] for g in t["getwork"].values()) for t in tabs]))
    bottom = [0.0, 0.0]
    for label, values in parts:
        ax.bar(names, values, bottom=bottom, label=label)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_ylabel("instructions per fault")
    ax.set_title("CPU per page fault by who spends it (1 hart, icount)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "multics-cpu.png", dpi=100)
    plt.close(fig)

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
    for pc in PCS:
        rs = sorted((r for r in runs if r["pc"] == pc), key=lambda r: r["idle_fraction"])
        xs = [r["idle_fraction"] for r in rs]
        a1.plot(xs, [r["elapsed_ms"] for r in rs], marker="o", label=f"pc={pc}")
        a2.plot(xs, [r["delay_per_fault"] for r in rs], marker="o", label=f"pc={pc}")
    a1.set_xlabel("idle fraction")
    a1.set_ylabel("workload elapsed (ms)")
    a2.set_xlabel("idle fraction")
    a2.set_ylabel("fault delay per fault (host cycles)")
    for a in (a1, a2):
        a.axvline(PAPER["break_even_idle"], linestyle="--", color="grey", label="paper's break-even")
        a.legend()
    fig.tight_layout()
    fig.savefig(out / "multics-idle.png", dpi=100)
    plt.close(fig)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernel", default="build/kernel.elf")
    p.add_argument("--initrd", default="build/initrd.cpio")
    p.add_argument("--arch", default=fq.DEFAULT_ARCH)
    p.add_argument("--out", default="docs/results")
    p.add_argument("--workdir", default="build/multics")
    p.add_argument("--quick", action="store_true", help="a small run (tests), not results")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    cfg = QUICK if args.quick else FULL
    out, workdir = Path(args.out), Path(args.workdir)
    out.mkdir(parents=True, exist_ok=True)
    workdir.mkdir(parents=True, exist_ok=True)
    bar = Progress(3 + len(cfg["duties"]) * len(PCS))
    targs = SimpleNamespace(kernel=args.kernel, initrd=args.initrd, arch=args.arch,
                            mem=cfg["table_mem"], hog=cfg["table_hog"], cpus=1, match=True)
    table = pctable.measure(targs, workdir, progress=bar.step)
    bar.step(f"pc=daemon pd={PD_SIZE} mem={table['daemon']['mem_k']}K")
    table["daemon_pd"] = pctable.run_one(targs, "daemon", table["daemon"]["mem_k"], workdir,
                                         extra=f"pd={PD_SIZE}")
    runs = []
    for duty in cfg["duties"]:
        for pc in PCS:
            bar.step(f"idle time: pc={pc}, load duty {duty}%")
            runs.append(idle_run(args, cfg, pc, duty, workdir))
    bar.end()
    (out / "multics.json").write_text(json.dumps({"table": table, "idle": runs,
                                                  "break_even": break_even(runs)}, indent=1) + "\n")
    (out / "multics.md").write_text(report(table, runs, cfg, args.quick))
    plots(table, runs, out)
    print(f"multics: wrote {out / 'multics.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
