"""Runs the `fuzz` user program in one machine configuration and checks
what it left behind.

    from faultline.fuzz import CONFIGS, run_config
    result = run_config(CONFIGS["swap-2h-16M"], kernel, initrd, workdir,
                        seed=1, calls=20000)
    assert result.ok, result.failures

A run boots QEMU with the configuration's harts, boot parameters and a
disk, reads `vmstat -j`, runs `fuzz -s SEED -n CALLS -c CHILDREN` at the
shell, follows its FL-JSON progress lines, and then checks:

  - no FL-PANIC on the console, and QEMU still running;
  - no hang: fuzz finished within its time limit and never went silent
    for longer than SILENCE_S (it prints progress every 2 s), and no
    child of it hung (its "hung" count);
  - the shell still answers;
  - nothing leaked (the checks of tests/test_vmstat.py and test_races.py):
    the frames user pages hold equal the resident pages the address spaces
    count, the used swap slots equal the swapped pages they count, and at
    least as many frames are free as before the run (a process's last
    frames go a moment after it is reaped, so the reading is retried).

tools/fuzz.py runs the configurations one after another (`make fuzz`);
tests/test_fuzz.py runs a short one.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from .machine import Machine, MachineError, MachineTimeout
from .protocol import PANIC_TAG

DISK_SIZE = "64M"
CHILDREN = 4
SILENCE_S = 90.0          # fuzz prints progress every 2 s; this long silent is a hang
MIN_RATE = 100            # calls/s below which a run counts as hung (TCG runs ~1000s/s)
START_SLACK_S = 120.0     # on top of calls / MIN_RATE
SHELL_TIMEOUT_S = 60.0
BOOT_TIMEOUT_S = 120.0
SETTLE_READINGS = 10
SETTLE_PAUSE_S = 0.5

FUZZ_JSON = re.compile(r'^FL-JSON (\{"fuzz":.*\})\s*$')
# fuzz's lines, or the kernel's word that it killed fuzz itself (the parent
# runs under the pid the shell announced; a child's kill is expected)
FUZZ_OR_KILL = re.compile(r'^FL-JSON (\{"fuzz":.*\})\s*$|faultline: killed pid=(\d+) name=fuzz '
                            r'cause=(out of memory|out of swap space|I/O error)')
VMSTAT_JSON = re.compile(r'^FL-JSON (\{"vmstat":"counters".*\})\s*$', re.MULTILINE)
SWAP_LINE = re.compile(r"^faultline: swap: ", re.MULTILINE)


@dataclass(frozen=True)
class Config:
    name: str
    cpus: int
    append: str
    ballast_kib: int = 256     # fuzz -m: memory each child keeps writing and checking

    def describe(self) -> str:
        return (f"{self.cpus} hart{'s' if self.cpus > 1 else ''}, {self.append}, "
                f"{DISK_SIZE} disk, fuzz -m {self.ballast_kib}")


# Both memory managers, one and two harts, with all of memory (128 MiB)
# and under pressure: mem=8M for paging, mem=16M for swap (under mm=swap a
# whole process must fit in memory, and the children are many). Under
# pressure the children's ballast together exceeds memory, so pages (or
# whole children) go to the disk and back between the calls.
PRESSURE_PAGING_KIB = 1024     # 4 children x 1 MiB against ~5 MiB for users
PRESSURE_SWAP_KIB = 2048       # 4 children x 2 MiB against ~13 MiB
CONFIGS = {c.name: c for c in (
    Config("paging-1h", 1, "mm=paging"),
    Config("paging-2h", 2, "mm=paging"),
    Config("paging-1h-8M", 1, "mm=paging mem=8M", PRESSURE_PAGING_KIB),
    Config("paging-2h-8M", 2, "mm=paging mem=8M", PRESSURE_PAGING_KIB),
    Config("daemon-1h-8M", 1, "mm=paging pc=daemon mem=8M", PRESSURE_PAGING_KIB),
    Config("daemon-2h-8M", 2, "mm=paging pc=daemon mem=8M", PRESSURE_PAGING_KIB),
    Config("swap-1h", 1, "mm=swap"),
    Config("swap-2h", 2, "mm=swap"),
    Config("swap-1h-16M", 1, "mm=swap mem=16M", PRESSURE_SWAP_KIB),
    Config("swap-2h-16M", 2, "mm=swap mem=16M", PRESSURE_SWAP_KIB),
)}


@dataclass
class Result:
    config: str
    seed: int
    planned: int
    calls: int = 0
    seconds: float = 0.0
    killed: int = 0
    children: int = 0
    failures: list = field(default_factory=list)
    done: Optional[dict] = None
    before: Optional[dict] = None
    after: Optional[dict] = None
    log: str = ""

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def rate(self) -> float:
        return self.calls / self.seconds if self.seconds > 0 else 0.0

    @property
    def verdict(self) -> str:
        return "ok" if self.ok else "FAILED: " + "; ".join(self.failures)

    def as_json(self) -> dict:
        return {"config": self.config, "seed": self.seed, "planned": self.planned,
                "calls": self.calls, "seconds": round(self.seconds, 1),
                "rate": round(self.rate), "children": self.children, "killed": self.killed,
                "result": "ok" if self.ok else "failed", "failures": self.failures,
                "done": self.done, "vmstat_before": self.before, "vmstat_after": self.after,
                "log": self.log}


def vmstat(m: Machine) -> dict:
    out = m.run_shell("vmstat -j", timeout=SHELL_TIMEOUT_S)
    found = VMSTAT_JSON.search(out)
    if not found:
        raise MachineError(f"no vmstat record in {out!r}")
    return json.loads(found.group(1))


def balanced(st: dict) -> bool:
    return st["frames_user"] == st["resident_total"] and st["swap_used"] == st["swap_owned"]


def settled_vmstat(m: Machine, free_at_least: int = 0) -> dict:
    """vmstat once the bookkeeping agrees and at least `free_at_least`
    frames are free (or the last of SETTLE_READINGS readings)."""
    for _ in range(SETTLE_READINGS):
        st = vmstat(m)
        if balanced(st) and st["frames_free"] >= free_at_least:
            return st
        time.sleep(SETTLE_PAUSE_S)
    return st


def leaks(before: dict, after: dict) -> list:
    found = []
    if after["frames_user"] != after["resident_total"]:
        found.append(f"frames_user {after['frames_user']} != resident_total "
                     f"{after['resident_total']}")
    if after["swap_used"] != after["swap_owned"]:
        found.append(f"swap_used {after['swap_used']} != swap_owned {after['swap_owned']}")
    if after["frames_free"] < before["frames_free"]:
        found.append(f"frames_free {after['frames_free']} < {before['frames_free']} at boot")
    return found


def fuzz_command(seed: int, calls: int, children: int = CHILDREN, ballast_kib: int = 256) -> str:
    return f"fuzz -s {seed} -n {calls} -c {children} -m {ballast_kib}"


class FuzzDied(MachineError):
    """fuzz itself (or a child, by the kernel for want of memory) was killed."""


def follow(m: Machine, command: str, calls: int,
           on_progress: Optional[Callable[[dict], None]] = None) -> dict:
    """Types command and follows fuzz's FL-JSON lines until its "done"
    line and the prompt. Raises MachineTimeout on a hang, FuzzDied when
    the kernel kills a fuzz process for want of memory (or a paging I/O
    error): with the disk, that must not happen."""
    m.send(command)
    m.expect(re.escape(command) + r"[ \t]*\n", timeout=SHELL_TIMEOUT_S)
    deadline = time.monotonic() + calls / MIN_RATE + START_SLACK_S
    parent = None
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise MachineTimeout(f"fuzz did not finish {calls} calls within "
                                 f"{calls / MIN_RATE + START_SLACK_S:.0f} s")
        line = m.expect_line(FUZZ_OR_KILL, timeout=min(left, SILENCE_S))
        if line.group(1) is None:
            if parent is not None and int(line.group(2)) == parent:
                raise FuzzDied(f"the kernel killed fuzz itself: {line.group(0)!r}")
            continue              # a child: vmstat's oom_kills counts it
        rec = json.loads(line.group(1))
        if rec["fuzz"] == "start":
            parent = rec["pid"]
        if on_progress:
            on_progress(rec)
        if rec["fuzz"] == "done":
            m.expect_prompt(timeout=SHELL_TIMEOUT_S)
            return rec


def run_config(config: Config, kernel, initrd, workdir, *, seed: int, calls: int,
               children: int = CHILDREN,
               on_progress: Optional[Callable[[dict], None]] = None) -> Result:
    """Boots `config`, fuzzes, checks; never raises for what the kernel
    does (that is in the Result's failures)."""
    workdir = Path(workdir)
    result = Result(config.name, seed, calls)
    m = Machine(kernel, initrd, workdir=workdir, name=config.name)
    result.log = str(m.log_path)
    try:
        m.start(cpus=config.cpus, append=config.append, disk_size=DISK_SIZE)
        m.expect_prompt(timeout=BOOT_TIMEOUT_S)
        if SWAP_LINE.search(m.log) is None:
            result.failures.append("no swap line at boot")
        result.before = settled_vmstat(m)
        started = time.monotonic()
        try:
            done = follow(m, fuzz_command(seed, calls, children, config.ballast_kib), calls,
                          on_progress)
        except MachineTimeout as e:
            result.seconds = time.monotonic() - started
            result.failures.append(f"hang: {str(e).splitlines()[0]}")
            return result
        except FuzzDied as e:
            result.seconds = time.monotonic() - started
            result.failures.append(str(e))
            return result
        result.seconds = time.monotonic() - started
        result.done = done
        result.calls = done["calls"]
        result.children = done["children"]
        result.killed = done["killed"]
        if done["hung"]:
            result.failures.append(f"{done['hung']} child(ren) hung in the kernel")
        if done["corrupt"]:
            result.failures.append(f"{done['corrupt']} child(ren) found their memory changed")
        # A call is skipped when a child died on it (or before it) with no
        # record of having made it; every other call is counted once.
        if done["calls"] + done["skipped"] < calls and not done["hung"]:
            result.failures.append(f"only {done['calls']} of {calls} calls were made "
                                   f"({done['skipped']} skipped)")
        if PANIC_TAG in m.log:
            return result
        if m.run_shell("echo fuzz-shell-ok", timeout=SHELL_TIMEOUT_S).strip() != "fuzz-shell-ok":
            result.failures.append("the shell does not answer")
        result.after = settled_vmstat(m, free_at_least=result.before["frames_free"])
        result.failures.extend(leaks(result.before, result.after))
        # With a disk, a fault waits for memory: the kernel may refuse an
        # sbrk or mmap (ENOMEM), never kill for want of memory later.
        kills = result.after["oom_kills"] - result.before["oom_kills"]
        if kills:
            result.failures.append(f"{kills} process(es) killed for want of memory")
        m.send("halt")
        m.wait_exit(timeout=SHELL_TIMEOUT_S)
    except MachineError as e:
        if PANIC_TAG not in m.log:
            result.failures.append(f"{type(e).__name__}: {str(e).splitlines()[0]}")
    finally:
        if PANIC_TAG in m.log:
            panic = m.log[m.log.index(PANIC_TAG):].splitlines()[0]
            result.failures.insert(0, f"kernel panic: {panic}")
        m.close()
    return result
