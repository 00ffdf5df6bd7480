"""QEMU integration tests of `hog`, the memory-hog workload: runs that fit
in memory pass with no bad page (sbrk, mmap, fork/exec under load, two
harts), and bad arguments give the usage and status 2.

hog is run in the background so the shell reports its exit status
("[pid] done status N"); its FL-JSON line may then follow a prompt on the
same console line, so it is searched for anywhere in a line.

The memory-manager tests add over-committed runs (mem= below the total)."""

import json
import re
import time

import pytest

from qemu_helpers import boot_to_shell, timeout_scale
from test_shell import background, wait_job_done

HOG_TIMEOUT = 240.0
HOG_JSON = re.compile(r'FL-JSON (\{"bench":"hog".*\})\s*$', re.MULTILINE)
USAGE = re.compile(r"usage: hog \[-p NPROCS\] \[-m KIB_PER_PROC\] \[-r ROUNDS\] \[-s\] \[-f\]")
USAGE_EXIT = 2
PAGE_KIB = 4
SAMPLE_STRIDE = 8       # a grandchild checks every 8th page and the last
BAD_ARGUMENTS = ["-p 0", "-p 17", "-p", "-m 0", "-m 12x", "-r 0", "-r -1", "-x", "extra",
                 "-p 2 -m"]


def wait_after(m, regex, start, timeout):
    """The first match of `regex` in the console after offset `start`,
    without sending anything (wait_for_log would find earlier runs too)."""
    deadline = time.monotonic() + timeout * timeout_scale()
    while True:
        found = regex.search(m.log, start)
        if found:
            return found
        assert m.running, f"QEMU ended while waiting for {regex.pattern!r}:\n{m.tail()}"
        assert time.monotonic() < deadline, \
            f"{regex.pattern!r} did not appear within {timeout}s:\n{m.tail()}"
        time.sleep(0.1)


def run_hog(m, args, timeout=HOG_TIMEOUT):
    """Runs `hog ARGS` and returns (exit status text, FL-JSON record, the
    console text from the command on)."""
    start = len(m.log)
    pid = background(m, f"hog {args}")
    # no input while it runs (that would start more processes): the
    # FL-JSON line is its last output, then the shell can report the exit
    wait_after(m, HOG_JSON, start, timeout)
    status = wait_job_done(m, pid)
    out = m.log[start:]
    records = [json.loads(r) for r in HOG_JSON.findall(out)]
    assert len(records) == 1, f"expected one hog record, got {records}"
    return status, records[0], out


def expected_checks(procs, kib, rounds):
    """Every page of every child is verified once per round and once more
    at the end."""
    pages = -(-kib // PAGE_KIB)
    return procs * pages * (rounds + 1)


def assert_clean(status, rec, out, procs, kib, rounds, mem, forkexec):
    assert "FL-PANIC" not in out
    assert "killed pid=" not in out, out[-3000:]
    assert rec["procs"] == procs and rec["kib_per_proc"] == kib and rec["rounds"] == rounds
    assert rec["mem"] == mem and rec["forkexec"] is forkexec
    assert rec["bad_pages"] == 0, out[-3000:]
    assert rec["failed_children"] == 0, out[-3000:]
    assert rec["pages_checked"] == expected_checks(procs, kib, rounds)
    assert rec["elapsed_ms"] >= 0
    assert status == "status 0", out[-3000:]
    assert "mismatch" not in out and "bad pages" not in out


@pytest.mark.timeout(HOG_TIMEOUT + 180)
@pytest.mark.parametrize("flags,mem,forkexec", [("", "sbrk", False), ("-s", "mmap", False),
                                                ("-f", "sbrk", True), ("-s -f", "mmap", True)],
                         ids=["sbrk", "mmap", "forkexec", "mmap-forkexec"])
def test_hog_fits_in_memory(machine, flags, mem, forkexec):
    procs, kib, rounds = 3, 512, 2
    m = boot_to_shell(machine)
    status, rec, out = run_hog(m, f"-p {procs} -m {kib} -r {rounds} {flags}".strip())
    assert_clean(status, rec, out, procs, kib, rounds, mem, forkexec)
    if forkexec:
        # each grandchild checked every 8th page and the last, then became echo
        verified = re.findall(r"hog: child (\d+) grandchild verified (\d+) pages$", out,
                              re.MULTILINE)
        assert sorted(int(c) for c, _ in verified) == list(range(procs)), out[-3000:]
        pages = kib // PAGE_KIB
        assert all(int(n) == pages // SAMPLE_STRIDE + 1 for _, n in verified), verified


@pytest.mark.timeout(HOG_TIMEOUT + 180)
def test_hog_two_harts(machine):
    """Children on both harts at once, with an odd size (not whole pages)."""
    procs, kib, rounds = 4, 1022, 3
    m = boot_to_shell(machine, cpus=2)
    status, rec, out = run_hog(m, f"-p {procs} -m {kib} -r {rounds} -f")
    assert_clean(status, rec, out, procs, kib, rounds, "sbrk", True)


def test_hog_too_big_fails_cleanly(machine):
    """A child whose memory cannot be promised says so and the run fails
    (the kernel refuses the sbrk/mmap at once: nothing is checked)."""
    m = boot_to_shell(machine, mem="64M")
    for flags, call in (("", "sbrk"), ("-s", "mmap")):
        status, rec, out = run_hog(m, f"-p 1 -m 1048576 -r 1 {flags}".strip())
        assert re.search(rf"hog: child 0: {call}\(\d+ bytes\): ", out, re.MULTILINE), out
        assert rec["failed_children"] == 1 and rec["pages_checked"] == 0
        assert status == "status 1"


def test_hog_bad_arguments(shell):
    for args in BAD_ARGUMENTS:
        start = len(shell.log)
        pid = background(shell, f"hog {args}")
        wait_after(shell, USAGE, start, 30)
        assert wait_job_done(shell, pid) == f"status {USAGE_EXIT}", args
        assert "FL-JSON" not in shell.log[start:], args
