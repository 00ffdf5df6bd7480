"""QEMU integration tests of user faults: a faulting program is killed with
the kernel's kill line and nothing else is hurt; many faults leak nothing;
and the in-guest test suite, usertests, passes without leaking frames."""

import re
import time

import pytest

from qemu_helpers import boot_to_shell, wait_for_log, timeout_scale

USER_TOP = 0x4000000000         # Sv39 user space: [0, 256 GiB)
USER_BASE = 0x10000             # program images start here (docs/architecture.md)
USERTESTS_TIMEOUT = 300.0
USERTESTS_SILENCE = 75.0

KILL_LINE = re.compile(
    r"^faultline: killed pid=(?P<pid>\d+) name=(?P<name>\S+) cause=(?P<cause>[a-z ]+?) "
    r"sepc=0x(?P<sepc>[0-9a-f]+) stval=0x(?P<stval>[0-9a-f]+)$", re.MULTILINE)

# program -> (what it prints before faulting, kill cause, stval)
FAULTERS = {
    "faultnull": ("faultnull: reading address 0", "load page fault", 0),
    # The all-zero instruction: stval holds the faulting instruction bits (0)
    # or 0 when the hart does not report them; either way 0.
    "illegal": ("illegal: executing an all-zero instruction", "illegal instruction", 0),
}






def kill_lines(text):
    return [k.groupdict() for k in KILL_LINE.finditer(text)]


# pc=daemon's core and paging-device managers: system processes that
# live as long as the kernel.
SYSTEM_PROCESSES = {"coremgr", "pdmgr"}


def assert_alive(m):
    assert m.run_shell("echo still alive") == "still alive\n"
    ps = m.run_shell("ps")
    names = [row.split()[-1] for row in ps.splitlines()[1:] if row.strip()]
    names = [n for n in names if n not in SYSTEM_PROCESSES]
    assert sorted(names) == ["init", "ps", "sh"], f"unexpected processes left:\n{ps}"


def free_frames(m):
    """The kernel's free-frame count, as `uptime` reports it. Every reading
    is taken by the same program in the same state, so equal counts mean
    nothing was lost in between."""
    out = m.run_shell("uptime")
    found = re.search(r"^up \d+\.\d{3}s, \d+ processes, (\d+) of (\d+) frames free, \d+ harts$",
                      out, re.MULTILINE)
    assert found, f"unexpected uptime output: {out!r}"
    free, total = int(found.group(1)), int(found.group(2))
    assert 0 < free <= total
    return free


# ----- one fault -----------------------------------------------------------------

@pytest.mark.parametrize("cpus", [1, 2])
@pytest.mark.parametrize("program", sorted(FAULTERS))
def test_fault_kills_only_the_program(machine, program, cpus):
    m = boot_to_shell(machine, cpus=cpus)
    banner, cause, stval = FAULTERS[program]
    out = m.run_shell(program)
    assert banner in out, out
    assert "still alive" not in out, f"{program} went on after its fault:\n{out}"
    kills = kill_lines(out)
    assert len(kills) == 1, f"expected one kill line:\n{out}"
    k = kills[0]
    assert k["name"] == program
    assert k["cause"] == cause, f"{program}: cause {k['cause']!r}, expected {cause!r}"
    sepc = int(k["sepc"], 16)
    assert USER_BASE <= sepc < USER_TOP, f"sepc {sepc:#x} is not a user text address"
    assert int(k["stval"], 16) == stval
    assert int(k["pid"]) > 2, "the pid of the killed program, not of init or sh"
    assert "FL-PANIC" not in m.log
    assert_alive(m)


def test_fault_in_background_job_is_reported(shell):
    out = shell.run_shell("faultnull &")
    pid = int(re.search(r"^\[(\d+)\]$", out, re.MULTILINE).group(1))
    wait_for_log(shell, rf"^faultline: killed pid={pid} name=faultnull cause=load page fault ")
    deadline = time.monotonic() + 30 * timeout_scale()
    while not re.search(rf"^\[{pid}\] done signal \d+$", shell.log, re.MULTILINE):
        assert time.monotonic() < deadline, f"faulted job not reported:\n{shell.tail()}"
        shell.run_shell("echo")
    assert_alive(shell)


# ----- many faults ------------------------------------------------------------------

def test_many_faults_leave_kernel_healthy(shell):
    # Warm up, so that whatever the kernel sets up on first use (a thread
    # slot's kernel stack, say) is in place before the first reading, and
    # the shell has paged in the code and stack this command line needs
    # (under mm=paging its text comes in on demand).
    programs = ["faultnull", "illegal"] * 10
    shell.run_shell("threads 4 > /dev/null; uptime")
    shell.run_shell(";".join(programs), timeout=120)
    before = free_frames(shell)

    out = shell.run_shell(";".join(programs), timeout=120)
    kills = kill_lines(out)
    assert [k["name"] for k in kills] == programs, out
    assert [k["cause"] for k in kills] == [FAULTERS[p][1] for p in programs]
    pids = [int(k["pid"]) for k in kills]
    assert len(set(pids)) == len(pids), f"pids reused while still alive? {pids}"
    assert "FL-PANIC" not in shell.log

    after = free_frames(shell)
    assert after == before, (f"20 killed programs changed the free-frame count: "
                             f"{before} before, {after} after ({before - after} frames lost)")
    assert_alive(shell)


# ----- usertests -----------------------------------------------------------------

# Every memory manager runs the whole suite: nothing in it may depend on
# which one decides what stays in memory.
MANAGERS = ["mm=paging", "mm=paging refbits=sw", "mm=paging pc=daemon", "mm=swap"]


@pytest.mark.timeout(USERTESTS_TIMEOUT + 120)
@pytest.mark.parametrize("cpus", [1, 2])
@pytest.mark.parametrize("append", MANAGERS, ids=["paging", "paging-swrefbits", "paging-daemon",
                                                  "swap"])
def test_usertests(machine, cpus, append):
    m = boot_to_shell(machine, cpus=cpus, append=append)
    manager = append.split()[0].split("=")[1]
    assert re.search(rf"^faultline: mm: {manager}\b", m.log, re.MULTILINE), m.log[-2000:]
    m.send("usertests")
    m.expect(r"usertests\n", timeout=30)           # the echo of the command
    # usertests ends a test that hangs after 60 s and says so, so more than
    # USERTESTS_SILENCE s without output means usertests itself is stuck.
    out = m.expect_prompt(timeout=USERTESTS_TIMEOUT, idle_timeout=USERTESTS_SILENCE)
    failed = [line for line in out.splitlines() if "FAILED" in line]
    frames = re.search(r"^usertests: free frames before (\d+) after (\d+)$", out, re.MULTILINE)
    assert "FL-PANIC" not in m.log
    assert not failed, "usertests reported failures:\n" + "\n".join(failed)
    assert re.search(r"^ALL TESTS PASSED$", out, re.MULTILINE), out[-3000:]
    passed = re.findall(r"^(\w+): OK$", out, re.MULTILINE)
    assert len(passed) >= 10, f"only {len(passed)} tests reported OK"
    assert frames, "no free-frame report"
    assert frames.group(1) == frames.group(2), \
        f"free frames before {frames.group(1)} after {frames.group(2)}"
    assert_alive(m)
