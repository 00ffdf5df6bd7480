"""QEMU integration tests of signals: the in-guest suite `sigtests` passes on
one and two harts (and on two harts under -icount, where cross-hart delivery
must not depend on host timing), the processes it kills on purpose are
reported with the kernel's kill line, and the kernel stays healthy."""

import re

import pytest

from qemu_helpers import assert_guest_tests_passed, boot_to_shell, run_guest_program, wait_for_log
from test_faults import KILL_LINE, assert_alive

SIGTESTS_TIMEOUT = 300.0
SIGTESTS_SILENCE = 75.0     # sigtests ends a hung test after 60 s and says so

# The tests that end a process on purpose, and the kill line's cause.
EXPECTED_KILL_CAUSES = {
    "load page fault",       # a fault inside the SIGSEGV handler
    "bad signal frame",      # a corrupted frame, and sigreturn with no frame
}


def run_sigtests(m, args=""):
    return run_guest_program(m, f"sigtests {args}".strip(), SIGTESTS_TIMEOUT, SIGTESTS_SILENCE)


def assert_all_passed(m, out):
    assert_guest_tests_passed(m, out, "sigtests")


@pytest.mark.timeout(SIGTESTS_TIMEOUT + 120)
@pytest.mark.parametrize("cpus,icount", [(1, False), (2, False), (2, True)],
                         ids=["1hart", "2harts", "2harts-icount"])
def test_sigtests(machine, cpus, icount):
    m = boot_to_shell(machine, cpus=cpus, icount=icount)
    out = run_sigtests(m)
    assert_all_passed(m, out)
    passed = re.findall(r"^(\w+): OK$", out, re.MULTILINE)
    assert len(passed) >= 15, f"only {len(passed)} tests reported OK"
    kills = [k.group("cause") for k in KILL_LINE.finditer(out)]
    assert kills, "the deliberately killed tests printed no kill line"
    assert set(kills) <= EXPECTED_KILL_CAUSES, kills
    if cpus > 1:
        assert "crossharts: skipped" not in out
    assert_alive(m)


@pytest.mark.parametrize("aclint, mechanism", [(True, "ACLINT SSWI"), (False, "SBI")],
                         ids=["sswi", "sbi"])
def test_cross_hart_delivery_alone(machine, aclint, mechanism):
    """The cross-hart test on its own, repeated: the IPI path must not
    depend on what ran before it. Both ways of sending an IPI: the ACLINT
    SSWI when the machine has one, SBI (through OpenSBI) when it does not."""
    m = boot_to_shell(machine, cpus=2, aclint=aclint)
    assert re.search(rf"^faultline: ipi: {mechanism}$", m.log, re.MULTILINE), m.log[-3000:]
    out = run_sigtests(m, " ".join(["crossharts"] * 5))
    assert_all_passed(m, out)
    assert out.count("crossharts: OK") == 5


def test_kill_command_default_terminates(shell):
    """`kill -TERM` of a sleeping background job ends it with SIGTERM."""
    out = shell.run_shell("sleep 100000 &")
    pid = int(re.search(r"^\[(\d+)\]$", out, re.MULTILINE).group(1))
    # The shell reports a finished job before its next prompt, which may be
    # the very prompt after `kill`: so the notice is looked for in the log.
    out = shell.run_shell(f"kill -TERM {pid}")
    assert "kill:" not in out, out
    shell.run_shell("sleep 200")
    shell.run_shell("echo")
    wait_for_log(shell, rf"^\[{pid}\] done signal 15$")
