"""The kernel's own failure path: a panic prints FL-PANIC and a backtrace
that tools/symbolize.py resolves, and QEMU exits with code 3.
selftest=panic|kfault make the kernel fail on purpose during boot."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from faultline import EXIT_PANIC  # noqa: E402
from symbolize import symbolize_frames  # noqa: E402


@pytest.mark.parametrize("kind, reason", [
    ("panic", r"FL-PANIC: selftest: panic requested"),
    ("kfault", r"FL-PANIC: kernel trap: load page fault, sepc=0x[0-9a-f]+ stval=0xffffffe000000000"),
])
def test_selftest_panics_with_backtrace(machine, kernel_elf, kind, reason):
    m = machine(append=f"selftest={kind}", disk_size=None)
    m.expect(reason, timeout=60)
    assert m.wait_exit(timeout=60) == EXIT_PANIC
    frames = symbolize_frames(kernel_elf, m.log)
    assert frames, m.log
    # The deliberate failure sits in run_selftest (main.c), called at boot.
    assert frames[0][2] == "run_selftest", frames
    assert frames[0][3].startswith("main.c:"), frames
    if kind == "kfault":
        assert "FL-BT: #0" in m.log and " trap" in m.log


def test_bad_selftest_value_names_the_choices(machine):
    m = machine(append="selftest=bogus", disk_size=None)
    m.expect(r"bad value 'bogus' for selftest; valid: none, panic, kfault", timeout=60)
    assert m.wait_exit(timeout=60) == 2
