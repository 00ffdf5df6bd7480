#!/usr/bin/env python3
"""repro_unix: paged versus swapped UNIX, response time against load
(`make repro-unix`; papers/003, docs/results/unix.md).

The paper ran a shell script on a VAX 11/780 while people worked: a loop
that recorded the load (users logged in, user processes), ran three tasks
under `time` (`man man` to /dev/null, a CPU-bound job, the compile of a
small C program) and slept. It compared V7's swapping with Berkeley's
paging by the median, mean, 75th and 90th percentile of the response
times per load level.

Here the same probe (user/files/unix/probe, in the shell's language) runs
on faultline under mm=swap and under mm=paging, for each number of
simulated users (usersim, with its editing, formatting and compiling
scripts and a big job sweeping four times memory, as MACSYMA did), on a
machine scaled like the VAX (SCALE below, and docs/results/unix.md,
"Method"): one hart, `-icount shift=10` (1.024 us of virtual time per
instruction: 0.98 million instructions a second), mem=5M (2096 KiB
of frames), a disk of 30 ms per access (disklat=30ms). Times are the
virtual clock's seconds, which on that scale are VAX seconds.

Writes OUT/unix.md, OUT/unix.json and the plots OUT/unix-*.png, with a
progress bar on stderr. --quick (make repro-unix QUICK=1) runs a small
version, a check of the tool rather than results.

  python3 tools/repro_unix.py [--kernel K] [--initrd I] [--out docs/results] [--quick]
"""

import argparse
import datetime
import json
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import faultline as fq  # noqa: E402
from faultline.progress import Progress  # noqa: E402
import unixstats as st  # noqa: E402

MANAGERS = ("swap", "paging")
# The machine, scaled like the VAX 11/780 (docs/results/unix.md, "Method").
ICOUNT_SHIFT = 10          # 2^10 ns of virtual time per instruction: 0.98 MIPS
MEM = "5M"                 # 524 frames (2096 KiB) for users and per-process kernel memory
DISKLAT = "30ms"           # an RP06's access time, per request
DISK_SIZE = "64M"
CPUS = 1
QEMU_MEM = "128M"
SCRIPTS = ("unix/edit", "unix/format", "unix/compile")
SEED = 1
FULL = {"users": (0, 1, 2, 3, 4, 5, 6, 7, 8), "iterations": 40, "pause_ms": 5000,
        "think_ms": 10000, "big_kib": 8192, "warmup_ms": 30000}
QUICK = {"users": (1, 4), "iterations": 3, "pause_ms": 2000,
         "think_ms": 10000, "big_kib": 8192, "warmup_ms": 10000}
BOOT_TIMEOUT = 180.0
RUN_TIMEOUT = 3000.0       # host seconds for one probe run
LOG_FILE = "plog"
TASK_NAMES = {"man": "man man > /dev/null", "cpu": "cpubound (CPU-bound job)",
              "cc": "cc wordfreq.c (compile of a small C program)"}
SHORT_NAMES = {"man": "man man", "cpu": "cpubound", "cc": "cc wordfreq.c"}
BY_LABEL = {"users": "users logged in", "procs": "user processes"}
TIME_LABEL = "response time (s, virtual; ~1 VAX 11/780 MIPS)"

# The paper's findings (its Section 4), set beside ours in the report.
PAPER = {
    "cpu": "The CPU-bound job did better under paging, by users and by user processes "
           "(Figures 5, 6): blocked by nothing but the quantum, it got the processor "
           "more often while others waited for page faults.",
    "cc": "The compile did better under swapping, clearest by user processes (Figures 7, 8): "
          "the big jobs paging allowed took the compiler's pages.",
    "man": "`man man` was roughly even: swapping slightly better at higher loads, "
           "neither better throughout (Figures 3, 4).",
    "predictor": "The number of user processes predicted response time better than the "
                 "number of users (better-behaved curves, Figures 9, 10).",
}
EVEN_RATIO = 1.25          # "roughly even": within 25% either way (geometric mean of p75s)


# ----- one run: a manager, a number of users ------------------------------------------

def boot(args, name: str, mm: str, workdir: Path, disklat: bool):
    m = fq.Machine(args.kernel, args.initrd, workdir=workdir, name=name, arch=args.arch)
    append = f"mm={mm} mem={MEM}" + (f" disklat={DISKLAT}" if disklat else "")
    m.start(cpus=CPUS, mem=QEMU_MEM, append=append, disk_size=DISK_SIZE,
            extra_args=["-icount", f"shift={ICOUNT_SHIFT},sleep=off"])
    return m


def disk_model_available(args, workdir: Path) -> bool:
    """Does this kernel take disklat= (the block layer's latency model)?"""
    m = boot(args, "unix-disklat-check", "swap", workdir, disklat=True)
    try:
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        return True
    except fq.MachineExited:
        if "disklat" in m.log:
            return False
        raise
    finally:
        m.close()


def vmstat(m) -> dict:
    start = len(m.log)
    m.send("vmstat -j")
    m.expect_prompt(timeout=120)
    found = [o for o in fq.parse_json_lines(m.log[start:]) if o.get("vmstat") == "counters"]
    return found[-1] if found else {}


def probe_run(args, cfg: dict, mm: str, users: int, workdir: Path, disklat: bool, bar) -> dict:
    """Boots, starts `users` simulated users (and the big job), runs the
    probe, and returns its records and the memory manager's counters."""
    name = f"unix-{mm}-{users}"
    m = boot(args, name, mm, workdir, disklat)
    try:
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        if users:
            big = f" -b {cfg['big_kib']}" if cfg["big_kib"] else ""
            m.send(f"usersim -n {users} -s {SEED} -t {cfg['think_ms']}{big} {' '.join(SCRIPTS)} &")
            m.expect_prompt(timeout=120)
        m.send(f"sleep {cfg['warmup_ms']}")
        m.expect_prompt(timeout=RUN_TIMEOUT)
        start = len(m.log)
        m.send(f"sh unix/probe {cfg['iterations']} {LOG_FILE} {cfg['pause_ms']}")
        seen, deadline = 0, time.monotonic() + RUN_TIMEOUT
        while "probe end" not in m.log[start:]:
            n = len(re.findall(r"^probe \d+", m.log[start:], re.MULTILINE))
            if n > seen:
                bar.advance(f"mm={mm} users={users} iteration {n}/{cfg['iterations']}", n - seen)
                seen = n
            if not m.running:
                raise RuntimeError(f"{name}: QEMU ended during the probe:\n{m.tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name}: the probe did not finish in {RUN_TIMEOUT:.0f}s:\n{m.tail()}")
            time.sleep(0.2)
        m.expect_prompt(timeout=120)
        bar.advance(f"mm={mm} users={users} done", cfg["iterations"] - seen)
        text = m.log[start:]
        log = text[text.index("probe log"):text.index("probe end")]
        counters = vmstat(m)
    finally:
        m.close()
    records = st.parse_log(log, mm=mm, users_set=users)
    return {"mm": mm, "users_set": users, "records": records, "vmstat": counters,
            "log": str(m.log_path)}


# ----- the report --------------------------------------------------------------------

def analyse(records: list) -> dict:
    """Curves per task, manager and load count; the comparisons the
    findings rest on; the correlations of response time with each count."""
    out = {"curves": {}, "compare": {}, "r": {}}
    for task in st.TASKS:
        for by in st.BY:
            for mm in MANAGERS:
                g = st.group(records, task, mm, by)
                out["curves"][f"{task}/{mm}/{by}"] = st.curves(g) if g else {}
                out["r"][f"{task}/{mm}/{by}"] = st.correlation(records, task, mm, by)
            a, b = out["curves"][f"{task}/paging/{by}"], out["curves"][f"{task}/swap/{by}"]
            out["compare"][f"{task}/{by}"] = st.compare(a, b)      # a = paging, b = swap
    return out


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


def verdicts(an: dict) -> dict:
    """Each paper finding against ours: (reproduced?, what we found)."""
    out = {}

    def both(task):
        return [an["compare"][f"{task}/{by}"] for by in st.BY]

    def said(task):
        return "; ".join(f"by {BY_LABEL[by]}: paging lower at {c['a_lower']} of {c['levels']} levels, "
                         f"swap at {c['b_lower']}, paging/swap p75 {fmt(c['ratio'])}"
                         for by, c in zip(st.BY, both(task)))

    cs = both("cpu")
    ok = all(c["levels"] and c["a_lower"] > c["b_lower"] and (c["ratio"] or 1) < 1 for c in cs)
    out["cpu"] = (ok, said("cpu"))
    cs = both("cc")
    by_procs = an["compare"]["cc/procs"]
    ok = bool(by_procs["levels"]) and by_procs["b_lower"] > by_procs["a_lower"] \
        and (by_procs["ratio"] or 1) > 1
    out["cc"] = (ok, said("cc"))
    cs = both("man")
    ok = all(c["levels"] and c["ratio"] is not None and 1 / EVEN_RATIO <= c["ratio"] <= EVEN_RATIO
             for c in cs)
    out["man"] = (ok, said("man") + f" (even: within {EVEN_RATIO:.2f}x)")
    pairs = [(an["r"][f"{t}/{mm}/procs"], an["r"][f"{t}/{mm}/users"], t, mm)
             for t in st.TASKS for mm in MANAGERS]
    pairs = [p for p in pairs if p[0] is not None and p[1] is not None]
    better = sum(1 for p, u, _, _ in pairs if p > u)
    out["predictor"] = (bool(pairs) and better > len(pairs) / 2,
                        f"r(procs) > r(users) for {better} of {len(pairs)} task/manager pairs: "
                        + ", ".join(f"{t}/{mm} {p:.2f} vs {u:.2f}" for p, u, t, mm in pairs))
    return out


def report(runs: list, an: dict, cfg: dict, quick: bool, disklat: bool, meta: dict) -> str:
    records = [r for run in runs for r in run["records"]]
    n = {mm: sum(1 for r in records if r["mm"] == mm) for mm in MANAGERS}
    out = ["# Paged versus swapped UNIX: response time against load, reproduced", "",
           "Generated by `make repro-unix`"
           + (" QUICK=1 (a small run: a check of the tool, not results)" if quick else " (the full sweep)")
           + f" (tools/repro_unix.py) on {meta['date']}, commit {meta['commit']}; "
           "the paper is papers/003 (a VAX 11/780 under V7's swapping and Berkeley's paging).", "",
           "## Method", "",
           "The paper's probe, a shell script, loops: it records the load, runs three tasks under "
           "`time`, and sleeps; people worked meanwhile. Here `sh unix/probe` "
           "(user/files/unix/probe) does the same on faultline, `who -c` giving the load, while "
           "`usersim` (user/usersim.c) keeps simulated users at work: each logs in and runs "
           "editing, formatting and compiling scripts (user/files/unix/) with think times, and a "
           f"big job sweeps {cfg['big_kib']} KiB over and over, four times memory, as "
           "MACSYMA swept 2 MB on a 512 KB machine. Under mm=swap a process must fit in memory, "
           "so the big job cannot run there (its tries fail at once): the paper's V7 load had no "
           "MACSYMA either, which paging brought.", "",
           "The machine is scaled like the VAX 11/780, so that a disk access, a quantum and a "
           "task's instructions stand to each other as they did there:", "",
           "| quantity | VAX 11/780 (paper) | faultline here | ratio |",
           "|---|---|---|---|",
           f"| instruction rate | about 1 MIPS | `-icount shift={ICOUNT_SHIFT}`: 1.024 us per instruction, "
           "0.98 MIPS of virtual time | 1:1 (a RISC-V instruction does less than a VAX one) |",
           "| disk access | about 30 ms (RP06) | "
           + (f"`disklat={DISKLAT}` per request (kernel/dev/blk_latency.c), one request at a time"
              if disklat else "no latency model in this kernel: the disk answers in host time, "
              "the virtual clock jumping a tick (10 ms) at a time while it waits")
           + " | 1:1, but a request is one 4 KiB page: swapping a process is one request per page, "
             "not one transfer |",
           f"| memory | 512 KB, about 400 KB left by the kernel | `mem={MEM}`: 524 frames "
           "(2096 KiB) for user pages and the kernel's per-process memory (a 16 KiB kernel "
           "stack and page tables, about 30 KiB a process); `mem=4M`, the smallest that boots, "
           "left the compile no room under swap once users were in | 4:1 in bytes, and programs "
           "here are 1.5-5x bigger |",
           "| process sizes | sh ~30 KB, cc passes ~60 KB, nroff ~60 KB | sh 52 KiB; cc of "
           "wordfreq.c: c0 352, c1 188, as 316 KiB resident; man+nroff ~100 KiB | 1.5-5:1 |",
           "| big job | MACSYMA, 2 MB (4x memory) | `hog -p 1 -m "
           f"{cfg['big_kib']}` (4x memory) | 1:1 in ratio to memory |",
           "| clock tick, quantum | 100 Hz; V7 reschedules each second, 4BSD every 100 ms | "
           "10 ms tick and quantum | 1:1 tick, shorter quantum |",
           "| swapper residence | V7: in 2 s, out 3 s before moving again | 100 ms in, 50 ms out "
           "(kernel/include/config.h) | 20-60x shorter: faultline's swapper moves sooner |",
           f"| think time | people | mean {cfg['think_ms'] / 1000:.0f} s between scripts, "
           "3-10 s pauses inside them | - |",
           f"| probe pause | a few minutes | {cfg['pause_ms'] / 1000:.0f} s | - |",
           "", "Times are seconds of the virtual clock; on this scale they compare with the "
           "paper's VAX seconds. Under icount a run's instruction counts are deterministic, but "
           "the disk completes in host time, so the interleaving of users and disk moves "
           "between runs.", "",
           f"Runs: one hart, mm=swap and mm=paging, users {', '.join(map(str, cfg['users']))}, "
           f"{cfg['iterations']} probe iterations each after a {cfg['warmup_ms'] / 1000:.0f} s "
           f"warm-up; {n['swap']} samples under swap, {n['paging']} under paging "
           "(the paper: 431 and 1455 at Berkeley).", ""]

    out += ["## The paper's findings and ours", "",
            "| finding (paper) | faultline | reproduced |", "|---|---|---|"]
    v = verdicts(an)
    for key in ("cpu", "cc", "man", "predictor"):
        out.append(f"| {PAPER[key]} | {v[key][1]} | {'yes' if v[key][0] else 'no'} |")
    out += ["", "Comparisons use the smoothed 75th percentile (levels i-1, i, i+1 pooled) at the "
            "load levels both managers reached; the ratio is their geometric mean, paging over "
            "swap. The predictor is Pearson's r between a task's response times and each load "
            "count over the individual samples.", ""]

    out += ["## Figures", "",
            "Figures 1 and 2 of the paper: `man man`, four statistics against users.", "",
            "![man man: median, mean, p75, p90 by users](unix-fig1-2.png)", ""]
    for task in st.TASKS:
        out += [f"{TASK_NAMES[task]}: smoothed 75th percentile against users and against user "
                "processes, swap and paging on the same axes.", "",
                f"![{task}](unix-{task}.png)", ""]

    out += ["## Response time per load level", "",
            "Seconds (virtual). n: samples at the level; p75s: the 75th percentile over levels "
            "i-1, i, i+1.", ""]
    for task in st.TASKS:
        for by in st.BY:
            out += [f"### {TASK_NAMES[task]}, by {BY_LABEL[by]}", "",
                    "| mm | " + BY_LABEL[by] + " | n | median | mean | p75 | p90 | p75s |",
                    "|---|---:|---:|---:|---:|---:|---:|---:|"]
            for mm in MANAGERS:
                for level, s in an["curves"][f"{task}/{mm}/{by}"].items():
                    out.append(f"| {mm} | {level} | {s['n']} | {s['median']:.2f} | {s['mean']:.2f} | "
                               f"{s['p75']:.2f} | {s['p90']:.2f} | {s['p75s']:.2f} |")
            out.append("")

    out += ["## The memory managers at work", "",
            "Counters at the end of each run (vmstat): how much moved to and from the disk.", "",
            "| mm | users started | samples | swap-outs | swap-ins | page-outs | page-ins | OOM kills |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for run in sorted(runs, key=lambda r: (r["mm"], r["users_set"])):
        c = run["vmstat"]
        out.append(f"| {run['mm']} | {run['users_set']} | {len(run['records'])} | "
                   f"{c.get('swapouts', '-')} | {c.get('swapins', '-')} | {c.get('pageouts', '-')} | "
                   f"{c.get('pageins', '-')} | {c.get('oom_kills', '-')} |")
    out.append("")
    return "\n".join(out)


def plots(an: dict, out: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, mm, fig_no in zip(axes, MANAGERS, (1, 2)):
        c = an["curves"][f"man/{mm}/users"]
        xs = list(c)
        for stat, label in (("median", "median"), ("mean", "mean"), ("p75", "75th percentile"),
                            ("p90", "90th percentile")):
            ax.plot(xs, [c[x][stat] for x in xs], marker="o", label=label)
        ax.set_title(f"man man, mm={mm} (cf. the paper's Figure {fig_no})")
        ax.set_xlabel("users logged in")
        ax.set_ylabel(TIME_LABEL)
        ax.legend()
    fig.tight_layout()
    fig.savefig(out / "unix-fig1-2.png", dpi=100)
    plt.close(fig)

    for task in st.TASKS:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
        for ax, by in zip(axes, st.BY):
            for mm in MANAGERS:
                c = an["curves"][f"{task}/{mm}/{by}"]
                xs = list(c)
                ax.plot(xs, [c[x]["p75s"] for x in xs], marker="o", label=f"mm={mm}")
            ax.set_title(f"{SHORT_NAMES[task]}: 75th percentile (smoothed), by {BY_LABEL[by]}",
                         fontsize=10)
            ax.set_xlabel(BY_LABEL[by])
            ax.set_ylabel(TIME_LABEL)
            ax.legend()
        fig.tight_layout()
        fig.savefig(out / f"unix-{task}.png", dpi=100)
        plt.close(fig)


# ----- main ---------------------------------------------------------------------------

def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernel", default="build/kernel.elf")
    p.add_argument("--initrd", default="build/initrd.cpio")
    p.add_argument("--arch", default=fq.DEFAULT_ARCH)
    p.add_argument("--out", default="docs/results")
    p.add_argument("--workdir", default="build/unix")
    p.add_argument("--jobs", type=int, default=2, help="QEMUs at once (each uses one host core)")
    p.add_argument("--quick", action="store_true", help="a small run (tests), not results")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    cfg = QUICK if args.quick else FULL
    out, workdir = Path(args.out), Path(args.workdir)
    out.mkdir(parents=True, exist_ok=True)
    workdir.mkdir(parents=True, exist_ok=True)
    # The commit of the tree the run starts from (the kernel it boots was
    # built from it), not of whatever the tree has become when it ends.
    meta = {"date": None, "commit": git_commit()}
    disklat = disk_model_available(args, workdir)
    if not disklat:
        print(f"repro_unix: this kernel has no disklat=; the disk answers in host time",
              file=sys.stderr)
    jobs = [(mm, u) for u in cfg["users"] for mm in MANAGERS]
    bar = Progress(len(jobs) * cfg["iterations"])
    with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        futures = [pool.submit(probe_run, args, cfg, mm, u, workdir, disklat, bar) for mm, u in jobs]
        runs = [f.result() for f in futures]
    bar.end()
    records = [r for run in runs for r in run["records"]]
    missing = [(run["mm"], run["users_set"]) for run in runs
               if len(run["records"]) != cfg["iterations"] * len(st.TASKS)]
    if missing:
        print(f"repro_unix: runs with missing samples (a task failed or its line was lost): "
              f"{missing}", file=sys.stderr)
    an = analyse(records)
    meta["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    (out / "unix.json").write_text(json.dumps(
        {"meta": meta, "quick": args.quick, "config": cfg, "disklat": disklat,
         "runs": [{k: v for k, v in run.items() if k != "log"} for run in runs],
         "curves": {k: {str(level): s for level, s in c.items()} for k, c in an["curves"].items()},
         "compare": an["compare"], "r": an["r"],
         "verdicts": {k: {"reproduced": ok, "found": text} for k, (ok, text) in verdicts(an).items()}},
        indent=1) + "\n")
    (out / "unix.md").write_text(report(runs, an, cfg, args.quick, disklat, meta))
    plots(an, out)
    print(f"repro_unix: wrote {out / 'unix.md'} ({len(records)} samples)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
