"""QEMU integration tests of user-level fault handlers (docs/ulf.md): the
in-guest suite `ulftests` (labelled read, write and execute faults restarted
after a load, a permission upgrade, a refused fault, faults of kernel copies,
every protection rule with its error, handlers killed, exiting or faulting
with threads waiting) passes on one and two harts under both memory
managers; the threads left waiting are killed with the kernel's kill line;
and afterwards no frame is leaked: every user frame is some space's page,
and no granted frame is left."""

import re

import pytest

from qemu_helpers import boot_to_shell, wait_for_log
from test_faults import KILL_LINE, assert_alive
from test_mm import assert_no_leak, SWAP_LINE

ULFTESTS_TIMEOUT = 300.0
ULFTESTS_SILENCE = 75.0
SIGSEGV = 11
MEM = "mem=16M"
DISK = "64M"
TESTS = ("read_fault", "write_fault", "exec_fault", "permission_upgrade", "refused_fault",
         "usercopy_fault", "protection", "quota", "handler_killed", "handler_exits",
         "handler_faults")
# The kill lines the suite causes on purpose: the refused fault no one
# catches, and each of the two threads waiting on a handler that went away
# (three times), which names its own fault; and the handler that faults
# in its own code, killed by the kernel's default.
REFUSED_CAUSE = "refused by its fault handler"
HANDLER_GONE_CAUSE = "its fault handler exited"
HANDLER_ENDINGS = 3
WAITING_THREADS = 2


def boot(machine, mm, cpus):
    m = boot_to_shell(machine, cpus=cpus, append=f"mm={mm} {MEM}", disk_size=DISK)
    wait_for_log(m, SWAP_LINE.pattern)
    return m


def run_ulftests(m, args=""):
    command = f"ulftests {args}".strip()
    m.send(command)
    m.expect(re.escape(command) + r"\n", timeout=30)
    return m.expect_prompt(timeout=ULFTESTS_TIMEOUT, idle_timeout=ULFTESTS_SILENCE)


def assert_all_passed(m, out):
    failed = [line for line in out.splitlines() if "FAILED" in line]
    assert "FL-PANIC" not in m.log, m.log[-3000:]
    assert not failed, "ulftests reported failures:\n" + "\n".join(failed)
    assert re.search(r"^ALL TESTS PASSED$", out, re.MULTILINE), out[-3000:]
    for name in TESTS:
        assert re.search(rf"^{name}: OK$", out, re.MULTILINE), name


@pytest.mark.timeout(ULFTESTS_TIMEOUT + 180)
@pytest.mark.parametrize("mm", ["paging", "swap"])
@pytest.mark.parametrize("cpus", [1, 2], ids=["1hart", "2harts"])
def test_ulftests(machine, mm, cpus):
    m = boot(machine, mm, cpus)
    out = run_ulftests(m)
    assert_all_passed(m, out)
    causes = [k.group("cause") for k in KILL_LINE.finditer(out)]
    assert causes.count(REFUSED_CAUSE) == 1, causes
    assert causes.count(HANDLER_GONE_CAUSE) == HANDLER_ENDINGS * WAITING_THREADS, causes
    assert set(causes) <= {REFUSED_CAUSE, HANDLER_GONE_CAUSE, "store page fault"}, causes
    st = assert_no_leak(m, mm)
    assert st["ulf_frames"] == 0, st
    assert_alive(m)
