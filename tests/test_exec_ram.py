"""QEMU tests of exec from a ram file (kernel/proc/exec.c), which cc's programs
need: the in-guest suite user/exectests.c, under both memory managers.

It runs a program copied into a ram file, refuses damaged ones with
ENOEXEC (text, empty, cut short, program headers beyond the first page),
and checks that a program outlives its file: the child overwrites and
removes the file it came from, pushes its own code out to the swap
device, and must find it intact when it comes back. No frame may leak.
"""

import re

import pytest

from qemu_helpers import boot_to_shell

EXECTESTS_TIMEOUT = 120.0


@pytest.mark.parametrize("append", ["mm=paging", "mm=swap", "mm=paging refbits=sw mem=8M"])
def test_exectests(machine, append):
    m = boot_to_shell(machine, append=append)
    out = m.run_shell("exectests", timeout=EXECTESTS_TIMEOUT)
    failed = [line for line in out.splitlines() if "FAILED" in line]
    assert not failed, out
    for name in ("ramprogram", "rambad", "ramoutlives", "leaks"):
        assert re.search(rf"^{name}: OK$", out, re.MULTILINE), out
    assert out.rstrip().endswith("ALL TESTS PASSED"), out
    assert "FL-PANIC" not in m.log
