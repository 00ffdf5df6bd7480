"""QEMU integration tests of races between system calls, and of what the
kernel promises under them: the in-guest suite `racetests` (user/racetests/)
passes on one and two harts and under both memory managers, the kernel never
panics, and no frame or swap slot is left behind.

What each racetests test guards:

  openclose    two processes open and close one ram file: the last
               reference is dropped with the file still whole
  readreopen   a read in one thread while another closes and reopens the
               fd: the call keeps its file (a reference of its own)
  fdinstall    open/dup/write/close in two threads: no fd handed out twice
  closetwice   two threads close one fd at once: exactly one succeeds
  execspin, execsleep, execjoin
               exec from a process whose other thread spins, sleeps or
               joins: the others leave and the new program runs
  execkill     SIGKILL while exec waits for another thread: the kill wins
  tkillcheck, tkillself
               tkill checks the tid before the signal: SIGKILL to a tid
               not the caller's is ESRCH; to itself it ends the process
  diskwake     short-lived processes each page out one page on a hart other
               than the boot hart (which takes the disk interrupt): every
               completion reaches its waiter (no stale kernel-stack mapping)
  swaphuge, swapgrow, swapexec (mm=swap only)
               sbrk, mmap, fork and exec never promise one process more
               than memory can hold of it at once: ENOMEM, not a later kill

The last test repeats the mm=swap workload that needs four times memory,
with fork/exec, on two harts: no process may be killed for want of memory
(the swapper once misjudged memory while frames were being freed).
"""

import json
import re
import time

import pytest

from qemu_helpers import boot_to_shell, run_guest_program, wait_for_log
from test_hog import HOG_TIMEOUT, assert_clean, run_hog
from test_vmstat import vmstat_now

RACETESTS_TIMEOUT = 240.0
RACETESTS_SILENCE = 90.0       # a hung test is ended by the runner after 60 s
TESTS = ["openclose", "readreopen", "fdinstall", "closetwice", "execspin", "execsleep",
         "execjoin", "execkill", "tkillcheck", "tkillself", "diskwake"]
SWAP_TESTS = ["swaphuge", "swapgrow", "swapexec"]
LEAK_READINGS = 10
KILL_LINE = re.compile(r"faultline: killed pid=")

# The default boot (mm=paging, 128 MiB) on one and two harts, and mm=swap
# with little memory, where the promise tests run too.
CONFIGS = [
    pytest.param(1, "", id="1hart"),
    pytest.param(2, "", id="2harts"),
    pytest.param(2, "mm=swap mem=8M", id="2harts-swap-8M"),
    pytest.param(1, "pc=daemon mem=8M", id="1hart-daemon-8M"),
    pytest.param(2, "pc=daemon mem=8M", id="2harts-daemon-8M"),
]


def vmstat(m) -> dict:
    return vmstat_now(m)


def settled_vmstat(m, free_at_least=0) -> dict:
    """vmstat once the bookkeeping agrees (a reading may catch the swapper
    half way) and at least `free_at_least` frames are free again (a
    process's last frames go a moment after its exit is reported)."""
    for _ in range(LEAK_READINGS):
        st = vmstat(m)
        if (st["frames_user"] == st["resident_total"] and st["swap_used"] == st["swap_owned"]
                and st["frames_free"] >= free_at_least):
            return st
        time.sleep(0.5)
    return st


def run_racetests(m, args=""):
    return run_guest_program(m, f"racetests {args}".strip(), RACETESTS_TIMEOUT, RACETESTS_SILENCE)


@pytest.mark.timeout(RACETESTS_TIMEOUT + 180)
@pytest.mark.parametrize("cpus, append", CONFIGS)
def test_racetests(machine, cpus, append):
    m = boot_to_shell(machine, cpus=cpus, append=append)
    swap = "mm=swap" in append
    if swap:
        wait_for_log(m, r"^faultline: swap: \d+ page slots")
    before = settled_vmstat(m)
    out = run_racetests(m)
    assert "FL-PANIC" not in m.log, m.tail()
    failed = [line for line in out.splitlines() if "FAILED" in line]
    assert not failed, "racetests reported failures:\n" + "\n".join(failed)
    expected = TESTS + (SWAP_TESTS if swap else [])
    passed = re.findall(r"^(\w+): OK$", out, re.MULTILINE)
    assert passed == expected, out
    assert re.search(r"^ALL TESTS PASSED$", out, re.MULTILINE), out[-3000:]
    # Killed only by SIGKILL on purpose, never by the kernel for a fault
    # or for want of memory.
    assert not KILL_LINE.search(out), out[-3000:]
    after = settled_vmstat(m, free_at_least=before["frames_free"])
    assert after["frames_user"] == after["resident_total"], after
    assert after["swap_used"] == after["swap_owned"], after
    assert after["oom_kills"] == 0 and after["io_errors"] == 0, after
    # Every frame came back: the files, stacks and address spaces of the
    # tests' processes and threads (the shell may have been paged or
    # swapped out meanwhile, which only frees more).
    assert after["frames_free"] >= before["frames_free"], (before, after)
    assert m.run_shell("echo races ok").strip() == "races ok"


HOG_RUNS = 3


@pytest.mark.timeout(HOG_RUNS * HOG_TIMEOUT + 180)
def test_swap_hog_fork_exec_no_kill(machine):
    """mm=swap, 8 MiB, two harts: 8 processes of 4 MiB (four times memory),
    each forking a grandchild that execs, three times over. Every process
    fits in memory on its own, so none may be killed for want of it; the
    swapper once counted memory while exits freed it, and gave up on a
    process that fit."""
    m = boot_to_shell(machine, cpus=2, append="mm=swap mem=8M", disk_size="64M")
    wait_for_log(m, r"^faultline: swap: \d+ page slots")
    for _ in range(HOG_RUNS):
        status, rec, out = run_hog(m, "-p 8 -m 4096 -r 2 -f")
        assert_clean(status, rec, out, 8, 4096, 2, "sbrk", True)
    st = settled_vmstat(m)
    assert st["frames_user"] == st["resident_total"], st
    assert st["swap_used"] == st["swap_owned"], st
    assert st["oom_kills"] == 0 and st["swapouts"] > 0 and st["swapins"] > 0, st
    # mm=swap moves whole processes and has no page control to warn.
    assert st["low_water"] == 0 and st["high_water"] == 0, st
    assert "FL-PANIC" not in m.log


PAGING_RUNS = 3


@pytest.mark.timeout(PAGING_RUNS * 120 + 180)
@pytest.mark.parametrize("pcextra", ["", "pc=daemon"], ids=["inline", "daemon"])
def test_paging_pressure_no_kill(machine, pcextra):
    """mm=paging, 8 MiB, two harts: children that together want twice
    memory page for seconds (one pages all of its memory out with vmctl
    again and again) while the test process mostly sleeps, so its pages go
    first and it faults them back while the others hold theirs. No process
    may be killed for want of memory: a fault used to give up after a
    fixed number of tries (microseconds on two harts) and kill with the
    swap space nearly empty (found by fuzz; kernel/mm/mm_paging.c)."""
    m = boot_to_shell(machine, cpus=2, append=f"mm=paging {pcextra} mem=8M", disk_size="64M")
    wait_for_log(m, r"^faultline: swap: \d+ page slots")
    for _ in range(PAGING_RUNS):
        out = run_racetests(m, "pagingstarve")
        assert re.search(r"^pagingstarve: OK$", out, re.MULTILINE), out[-3000:]
        assert not KILL_LINE.search(out), out[-3000:]
    st = settled_vmstat(m)
    assert st["oom_kills"] == 0 and st["pageouts"] > 0 and st["pageins"] > 0, st
    # Page control heard of the shortage through the water marks, and of
    # its end once the children were gone: each low is followed by at
    # most one high (hysteresis), and memory is plentiful again now.
    assert st["low_water"] > 0 and st["high_water"] == st["low_water"], st
    assert st["frames_user"] == st["resident_total"], st
    assert "FL-PANIC" not in m.log
