"""QEMU integration tests of the signal calls beyond the basics: the
in-guest suite `sigposix` (kill(pid, 0), sigsuspend and pause, SA_SIGINFO,
sigaltstack, sigtimedwait, bad arguments) passes on one and two harts and
on two harts under -icount, including the lost wake-up that a flag-and-pause
loop suffers and sigsuspend does not, and a sigsuspend ping-pong between two
processes. The full 100,000-round ping-pong is its own test, marked `long`:
`python3 -m pytest -m long tests/test_sigposix.py`."""

import re

import pytest

from qemu_helpers import assert_guest_tests_passed, boot_to_shell, run_guest_program
from test_faults import assert_alive

SIGPOSIX_TIMEOUT = 400.0
SIGPOSIX_SILENCE = 75.0     # the runner ends a hung test after 60 s and says so
LONG_ROUNDS = 100_000
LONG_TIMEOUT = 3000.0
PINGPONG = re.compile(r"^pingpong: (\d+) round trips, harts (-?\d+)/(-?\d+), (\d+) ms$", re.MULTILINE)
TESTS = ("killzero", "killhint", "suspendpending", "suspendwoken", "pausetest", "suspenddefault",
         "suspendthread", "lostwakeup", "pingpong", "pingpongx", "siginfo", "altstackuse",
         "stackoverflow", "altstackinherit", "timedwaittake", "timedwaittimeout", "timedwaitintr",
         "timedwaitthread", "badinputs")


def run_sigposix(m, args="", timeout=SIGPOSIX_TIMEOUT, silence=SIGPOSIX_SILENCE):
    return run_guest_program(m, f"sigposix {args}".strip(), timeout, silence)


def assert_all_passed(m, out):
    assert_guest_tests_passed(m, out, "sigposix")


@pytest.mark.timeout(SIGPOSIX_TIMEOUT + 120)
@pytest.mark.parametrize("cpus,icount", [(1, False), (2, False), (2, True)],
                         ids=["1hart", "2harts", "2harts-icount"])
def test_sigposix(machine, cpus, icount):
    m = boot_to_shell(machine, cpus=cpus, icount=icount)
    out = run_sigposix(m)
    assert_all_passed(m, out)
    passed = set(re.findall(r"^(\w+): OK$", out, re.MULTILINE))
    assert passed == set(TESTS), sorted(set(TESTS) - passed)
    # the overflow was caught on the alternate stack, and the unprotected
    # one killed with the kernel's line for an unwritable signal frame
    assert re.search(r"^overflow: caught at 0x[0-9a-f]+, sp 0x[0-9a-f]+, code 1$", out, re.MULTILINE)
    assert "cause=signal frame not writable" in out
    trips = PINGPONG.findall(out)
    assert [t[1:3] for t in trips] == ([("0", "0")] if cpus == 1 else [("0", "0"), ("0", "1")]), trips
    assert all(int(t[0]) == 2000 for t in trips), trips
    if cpus == 1:
        assert "pingpongx: skipped, only 1 hart" in out
    assert_alive(m)


@pytest.mark.long
@pytest.mark.timeout(LONG_TIMEOUT + 120)
@pytest.mark.parametrize("test", ["pingpong", "pingpongx"])
def test_pingpong_100k(machine, test):
    """100,000 sigsuspend round trips with no lost wake-up, on one hart and
    across two. Long: run on its own (-m long), not in make test."""
    m = boot_to_shell(machine, cpus=2)
    out = run_sigposix(m, f"-r {LONG_ROUNDS} {test}", timeout=LONG_TIMEOUT, silence=LONG_TIMEOUT)
    assert_all_passed(m, out)
    trips = PINGPONG.findall(out)
    assert len(trips) == 1 and int(trips[0][0]) == LONG_ROUNDS, trips
    print(f"{test}: {LONG_ROUNDS} round trips in {trips[0][3]} ms (guest uptime)")


def test_kill_zero_command(shell):
    """`kill -0 PID` disturbs nothing and says by its status whether the
    process exists: 0 for a live background job, 1 and the error for a pid
    that names no process."""
    from test_shell import background, wait_job_done
    sleeper = background(shell, "sleep 100000")
    checker = background(shell, f"kill -0 {sleeper}")
    assert wait_job_done(shell, checker) == "status 0"
    assert f"[{sleeper}] done" not in shell.log, "kill -0 ended the job"
    start = len(shell.log)
    checker = background(shell, "kill -0 99999")
    # Its error line first: typed while the job writes, the next command's
    # echo would come back with the error in the middle of it.
    shell.expect(r"kill: 99999: no such process", timeout=30)
    assert wait_job_done(shell, checker) == "status 1"
    assert "kill: 99999: no such process" in shell.log[start:], shell.log[start:]
    shell.run_shell(f"kill -KILL {sleeper}")
    assert wait_job_done(shell, sleeper) == "signal 9"
