"""QEMU integration tests of user-level fault handlers (docs/ulf.md): the
in-guest suite `ulftests` (labelled read, write and execute faults restarted
after a load, a permission upgrade, a refused fault, faults of kernel copies,
every protection rule with its error, handlers killed, exiting or faulting
with threads waiting) passes on one and two harts under both memory
managers; the threads left waiting are killed with the kernel's kill line;
and afterwards no frame is leaked: every user frame is some space's page,
and no granted frame is left."""

import json
import re

import pytest

from qemu_helpers import assert_guest_tests_passed, boot_to_shell, run_guest_program, wait_for_log
from test_faults import KILL_LINE, assert_alive
from test_hog import HOG_JSON, HOG_TIMEOUT, assert_clean, wait_after
from test_shell import background, wait_job_done
from test_mm import assert_no_leak, SWAP_LINE

ULFTESTS_TIMEOUT = 300.0
ULFTESTS_SILENCE = 75.0
SIGSEGV = 11
MEM = "mem=16M"
DISK = "64M"
TESTS = ("read_fault", "write_fault", "exec_fault", "permission_upgrade", "refused_fault",
         "usercopy_fault", "whole_space", "protection", "quota", "emulate", "handler_killed", "handler_exits",
         "handler_faults")
# The kill lines the suite causes on purpose: the refused fault no one
# catches, and each of the two threads waiting on a handler that went away
# (three times), which names its own fault; and the handler that faults
# in its own code, killed by the kernel's default.
REFUSED_CAUSE = "refused by its fault handler"
HANDLER_GONE_CAUSE = "its fault handler exited"
HANDLER_ENDINGS = 3
WAITING_THREADS = 2


def boot(machine, mm, cpus, icount=False):
    m = boot_to_shell(machine, cpus=cpus, append=f"mm={mm} {MEM}", disk_size=DISK, icount=icount)
    wait_for_log(m, SWAP_LINE.pattern)
    return m


def run_ulftests(m, args=""):
    return run_guest_program(m, f"ulftests {args}".strip(), ULFTESTS_TIMEOUT, ULFTESTS_SILENCE)


def assert_all_passed(m, out):
    assert_guest_tests_passed(m, out, "ulftests")
    for name in TESTS:
        assert re.search(rf"^{name}: OK$", out, re.MULTILINE), name


@pytest.mark.timeout(ULFTESTS_TIMEOUT + 180)
@pytest.mark.parametrize("mm", ["paging", "swap"])
@pytest.mark.parametrize("cpus,icount", [(1, False), (2, False), (2, True)],
                         ids=["1hart", "2harts", "2harts-icount"])
def test_ulftests(machine, mm, cpus, icount):
    """Under -icount QEMU runs the harts in turn: a handoff between the
    two harts must not depend on host timing."""
    m = boot(machine, mm, cpus, icount=icount)
    out = run_ulftests(m)
    assert_all_passed(m, out)
    causes = [k.group("cause") for k in KILL_LINE.finditer(out)]
    assert causes.count(REFUSED_CAUSE) == 1, causes
    assert causes.count(HANDLER_GONE_CAUSE) == HANDLER_ENDINGS * WAITING_THREADS, causes
    assert set(causes) <= {REFUSED_CAUSE, HANDLER_GONE_CAUSE, "store page fault"}, causes
    st = assert_no_leak(m, mm)
    assert st["ulf_frames"] == 0, st
    assert_alive(m)


# --- upager: a demand pager at user level -----------------------------------

UPAGER_STATS = re.compile(r"^upager: faults (\d+) \(major (\d+), minor (\d+), upgrades (\d+)\), "
                          r"evictions (\d+), writebacks (\d+), zero-fills (\d+)$", re.MULTILINE)
UPAGER_TIME = re.compile(r"^upager: (\d+) frames, (\w+); (\d+) ms real, handler (\d+) ms user "
                         r"\+ (\d+) ms system, (\d+) us per fault$", re.MULTILINE)
UPAGER_EXIT = re.compile(r"^upager: hog exited with status (\d+)$", re.MULTILINE)
HOG_PAGES = 512             # -m 2048: 2 MiB of heap


def run_upager(m, args):
    """`upager ARGS` running hog: its record, the stats and the console text."""
    start = len(m.log)
    pid = background(m, f"upager {args}")
    wait_after(m, UPAGER_TIME, start, HOG_TIMEOUT)
    status = wait_job_done(m, pid)
    out = m.log[start:]
    records = [json.loads(r) for r in HOG_JSON.findall(out)]
    assert len(records) == 1, out[-3000:]
    stats = [int(x) for x in UPAGER_STATS.search(out).groups()]
    return status, records[0], dict(zip(("faults", "major", "minor", "upgrades", "evictions",
                                         "writebacks", "zero_fills"), stats)), out


@pytest.mark.timeout(4 * HOG_TIMEOUT)
@pytest.mark.parametrize("policy", ["fifo", "clock", "lru"])
@pytest.mark.parametrize("cpus", [1, 2], ids=["1hart", "2harts"])
def test_upager_runs_hog(machine, policy, cpus):
    """hog under upager with 64 frames for its 512 heap pages: evictions
    happen, every page checks out, and the counts add up."""
    m = boot(machine, "paging", cpus)
    status, rec, st, out = run_upager(m, f"-f 64 -p {policy} hog -p 1 -m 2048")
    assert_clean(status, rec, out, 1, 2048, 2, "sbrk", False)
    assert UPAGER_EXIT.search(out).group(1) == "0", out[-3000:]
    frames, name = UPAGER_TIME.search(out).group(1, 2)
    assert (int(frames), name) == (64, policy)
    # every heap page was zero-filled once, and fewer frames than pages
    # means evictions, written back before their pages came again
    assert st["zero_fills"] >= HOG_PAGES, st
    assert st["evictions"] >= HOG_PAGES - 64, st
    assert st["writebacks"] > 0 and st["writebacks"] <= st["evictions"], st
    assert st["faults"] == st["major"] + st["minor"] + st["upgrades"], st
    if policy == "fifo":
        assert st["minor"] == 0, st
    st_vm = assert_no_leak(m, "paging")
    assert st_vm["ulf_frames"] == 0, st_vm
    assert_alive(m)


def test_upager_under_swap_manager(machine):
    """The same beside mm=swap, whose swapper leaves the granted frames
    alone; nothing leaks."""
    m = boot(machine, "swap", 2)
    status, rec, st, out = run_upager(m, "-f 32 -p clock hog -p 2 -m 512")
    assert_clean(status, rec, out, 2, 512, 2, "sbrk", False)
    assert st["evictions"] > 0, st
    st_vm = assert_no_leak(m, "swap")
    assert st_vm["ulf_frames"] == 0, st_vm


def test_upager_whole_space(machine):
    """-a: hog's anonymous mappings (-s) and its stack are paged at user
    level too; every page checks out."""
    m = boot(machine, "paging", 2)
    status, rec, st, out = run_upager(m, "-a -f 32 -p lru hog -p 1 -m 512 -s")
    assert_clean(status, rec, out, 1, 512, 2, "mmap", False)
    # 128 mapped pages through 32 frames, and a few of the stack
    assert st["zero_fills"] > 128 and st["evictions"] > 0, st
    st_vm = assert_no_leak(m, "paging")
    assert st_vm["ulf_frames"] == 0, st_vm


def test_upager_usage(shell):
    for args in ("", "-f", "-f 0 hog", "-f 99999 hog", "-p nru hog", "-x hog"):
        out = shell.run_shell(f"upager {args}".strip())
        assert "usage: upager [-a] [-f FRAMES] [-p fifo|clock|lru] PROG [ARGS...]" in out, args
    out = shell.run_shell("upager nosuchprogram")
    assert "upager: nosuchprogram: no such file" in out, out


# --- trace: system calls forwarded to an emulator ----------------------------

# A background trace's line may follow the shell's next prompt ("$ [4] open(...").
TRACE_LINE = re.compile(r"^(?:\$ )?\[(\d+)\] (\w+)\(([^)]*)\) = (.*)$", re.MULTILINE)


def traced(out):
    return [(int(pid), name, args, result) for pid, name, args, result in TRACE_LINE.findall(out)]


def test_trace_ls(shell):
    """Each call of `ls` is printed once with its result, from its exec to
    its exit, and ls's own output is all there."""
    plain = shell.run_shell("ls")
    out = shell.run_shell("trace ls")
    calls = traced(out)
    assert calls, out
    assert calls[0][1] == "exec" and calls[-1][1:] == ("exit", "0", "?"), calls
    assert len({pid for pid, *_ in calls}) == 1, calls
    names = [name for _, name, _, _ in calls]
    assert "readdir" in names and "write" in names, names
    writes = [c for c in calls if c[1] == "write"]
    assert all(int(r) > 0 for *_, r in writes), writes
    for line in plain.splitlines():
        assert line in out, line


def test_trace_failing_call(shell):
    """A call that fails shows its error; the program's status comes back."""
    start = len(shell.log)
    pid = background(shell, "trace cat /no-such-file")
    wait_after(shell, re.compile(r"exit\(1\) = \?"), start, 60)
    assert wait_job_done(shell, pid) == "status 1"
    calls = traced(shell.log[start:])
    opens = [c for c in calls if c[1] == "open"]
    assert opens and opens[0][2].endswith(", 0") and opens[0][3] == "-2 (no such file)", calls
    assert calls[-1][1:] == ("exit", "1", "?"), calls
    assert "usage: trace [-a] PROG [ARGS...]" in shell.run_shell("trace")
