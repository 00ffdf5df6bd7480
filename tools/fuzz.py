#!/usr/bin/env python3
"""fuzz: the random-system-call campaign, over every machine configuration.

Boots QEMU once per configuration (faultline/fuzz.py: mm=paging and
mm=swap, 1 and 2 harts, with all of memory and under pressure, each with
a disk), runs the `fuzz` program with the same seed and an equal share of
the calls, and checks afterwards that nothing panicked or hung, the shell
answers and no frame or swap slot leaked. Prints a progress bar and a
table (config, calls, seconds, calls/s, result), writes the same to
OUT_DIR/summary.txt and summary.json, and exits 1 if any configuration
failed. A failure names the seed: `fuzz -s SEED -n CALLS` in that
configuration (`make qemu CPUS=.. APPEND=..` with a disk) makes the same
calls again (docs/fuzz.md).

  python3 tools/fuzz.py [--kernel build/kernel.elf] [--initrd build/initrd.cpio]
                        [--calls 1000000] [--seed 1] [--children 4]
                        [--only CONFIG]... [--out-dir build/fuzz]
"""

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from faultline.fuzz import CHILDREN, CONFIGS, run_config  # noqa: E402

BAR_WIDTH = 30
QUIET_STEP = 0.1          # without a terminal: a progress line every 10%


class ProgressBar:
    """One bar over the whole campaign on stderr: redrawn in place on a
    terminal, a line every QUIET_STEP of the calls otherwise."""

    def __init__(self, total: int, stream=sys.stderr):
        self.total = max(total, 1)
        self.done_before = 0          # calls of finished configurations
        self.stream = stream
        self.tty = stream.isatty()
        self.next_report = QUIET_STEP
        self.started = time.monotonic()

    def update(self, config: str, calls: int, rate: int) -> None:
        done = self.done_before + calls
        frac = min(done / self.total, 1.0)
        filled = int(frac * BAR_WIDTH)
        text = (f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {frac * 100:5.1f}% "
                f"{done}/{self.total} calls  {config}: {calls} at {rate}/s  "
                f"{time.monotonic() - self.started:.0f} s")
        if self.tty:
            self.stream.write("\r" + text + "\033[K")
            self.stream.flush()
        elif frac >= self.next_report:
            self.stream.write(text + "\n")
            self.stream.flush()
            while self.next_report <= frac:
                self.next_report += QUIET_STEP

    def finish_config(self, calls: int) -> None:
        self.done_before += calls
        if self.tty:
            self.stream.write("\n")


def table(results) -> str:
    rows = [("config", "calls", "seconds", "calls/s", "result")]
    for r in results:
        rows.append((r.config, str(r.calls), f"{r.seconds:.1f}", f"{r.rate:.0f}", r.verdict))
    total_calls = sum(r.calls for r in results)
    total_s = sum(r.seconds for r in results)
    failed = sum(not r.ok for r in results)
    rows.append(("total", str(total_calls), f"{total_s:.1f}",
                 f"{total_calls / total_s:.0f}" if total_s else "0",
                 "ok" if not failed else f"{failed} configuration(s) failed"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in (1, 2, 3)]
        lines.append("  ".join(cells) + "  " + row[4])
        if n == 0 or n == len(rows) - 2:
            lines.append("-" * (sum(widths) + 6 + len("result")))
    return "\n".join(lines)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernel", default="build/kernel.elf")
    p.add_argument("--initrd", default="build/initrd.cpio")
    p.add_argument("--calls", type=int, default=1_000_000,
                   help="calls in all, shared equally by the configurations")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--children", type=int, default=CHILDREN)
    p.add_argument("--only", action="append", choices=sorted(CONFIGS), metavar="CONFIG",
                   help=f"run only these configurations ({', '.join(CONFIGS)})")
    p.add_argument("--out-dir", default="build/fuzz")
    args = p.parse_args(argv)
    if args.calls < 1:
        p.error("--calls must be at least 1")
    if args.seed < 0:
        p.error("--seed must not be negative")
    if not 1 <= args.children <= 16:
        p.error("--children must be 1..16")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    configs = [CONFIGS[name] for name in (args.only or CONFIGS)]
    share = max(args.calls // len(configs), 1)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    bar = ProgressBar(share * len(configs))
    results = []
    print(f"fuzz: seed {args.seed}, {share} calls in each of {len(configs)} configurations",
          flush=True)
    for config in configs:
        def progress(rec, name=config.name):
            if rec["fuzz"] in ("progress", "done"):
                bar.update(name, rec["calls"], rec.get("rate", 0))
        r = run_config(config, args.kernel, args.initrd, out / config.name, seed=args.seed,
                       calls=share, children=args.children, on_progress=progress)
        bar.finish_config(r.calls)
        results.append(r)
        if not r.ok:
            print(f"fuzz: {config.name} ({config.describe()}) FAILED with seed {args.seed}, "
                  f"{share} calls: {r.verdict}\n  console log: {r.log}", flush=True)
    text = table(results)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    header = (f"fuzz campaign {stamp}: seed {args.seed}, {share} calls per configuration, "
              f"{args.children} children")
    print("\n" + header + "\n" + text)
    (out / "summary.txt").write_text(header + "\n" + text + "\n")
    (out / "summary.json").write_text(json.dumps(
        {"date": stamp, "seed": args.seed, "calls_per_config": share,
         "children": args.children,
         "configs": {c.name: c.describe() for c in configs},
         "results": [r.as_json() for r in results]}, indent=1) + "\n")
    print(f"summary: {out / 'summary.txt'}, {out / 'summary.json'}")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
