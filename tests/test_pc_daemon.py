"""QEMU integration tests of pc=daemon, multi-process page control
(kernel/mm/pc_daemon.c): the core manager and the paging-device manager
are system processes `ps` shows; under 4x over-commit they keep the free
list (vmstat: refill passes, frames freed, hand-offs, batched writes),
pre-zero free frames that demand-zero faults then take, and leak
nothing; kill cannot reach them; bad boot parameters are refused with a
message naming what is valid.

The wider memory-manager tests (test_mm.py, test_faults.py usertests,
test_races.py) run under pc=daemon too."""

import json
import re
import time

import pytest

from qemu_helpers import EXIT_BAD_PARAM, boot_to_shell
from test_hog import HOG_TIMEOUT, assert_clean, run_hog
from test_mm import assert_alive, assert_no_leak, vmstat, SWAP_LINE
from qemu_helpers import wait_for_log

PS_LINE = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\w+)\s+(\d+)\s+(\S+)\s+\S+\s+\S+\s+(\S+)\s*$", re.MULTILINE)
EPERM_TEXT = "not permitted"
ZEROED_READINGS = 20       # vmstat readings while waiting for idle-time zeroing
ZEROED_WAIT_S = 0.25


def boot_daemon(machine, cpus, extra="pcmeters=on"):
    append = f"mm=paging pc=daemon mem=8M {extra}".strip()
    m = boot_to_shell(machine, cpus=cpus, append=append, disk_size="64M")
    wait_for_log(m, SWAP_LINE.pattern)
    return m


def ps_names(m):
    return {name: int(pid) for pid, _, _, _, _, name in PS_LINE.findall(m.run_shell("ps"))}


@pytest.mark.timeout(2 * HOG_TIMEOUT + 120)
@pytest.mark.parametrize("cpus", [1, 2])
def test_daemon_hog_four_times_memory(machine, cpus):
    m = boot_daemon(machine, cpus)
    assert re.search(r"^faultline: pc: daemon, free list (\d+) to (\d+) frames$", m.log,
                     re.MULTILINE), m.log[-2000:]
    assert "page control daemon" in m.log
    names = ps_names(m)
    assert "coremgr" in names and "pdmgr" in names, names
    assert names.get("init") == 1, names
    # Idle since boot, the core manager zeroes free frames; how much idle
    # time the guest has had by now depends on the host (the first
    # programs may have taken every zeroed frame yet), so look a few times.
    for _ in range(ZEROED_READINGS):
        before = vmstat(m)
        if before["frames_zeroed"] > 0:
            break
        time.sleep(ZEROED_WAIT_S)
    assert before["prezeroed"] > 0 and before["frames_zeroed"] > 0, before
    status, rec, out = run_hog(m, "-p 4 -m 8192 -r 2")
    assert_clean(status, rec, out, 4, 8192, 2, "sbrk", False)
    st = assert_no_leak(m, "paging")
    assert 4 * 8192 * 1024 >= 4 * st["frames_total"] * st["page_size"], st
    assert st["pageouts"] > 0 and st["pageins"] > 0, st
    assert st["io_errors"] == 0 and st["oom_kills"] == 0, st
    # The managers did the work: passes, hand-offs written in batches.
    assert st["cm_passes"] > 0 and st["cm_freed"] > 0, st
    assert st["cm_handoffs"] > 0 and st["pd_writes"] > 0, st
    assert st["pd_writes"] == st["pageouts"] - before["pageouts"], (before, st)
    assert st["pd_batches"] < st["pd_writes"], st          # several writes per batch
    assert st["zeroed_fills"] > 0, st
    # The hogs' exits killed thousands of swapped pages: the PD manager
    # freed their slots (half a hand-over list wakes it), and the slots
    # still waiting counted as free in the leak check above.
    assert st["slots_reaped"] > 0, st
    assert st["pcm_coremgr_runs"] > 0 and st["pcm_coremgr_cycles"] > 0, st
    assert st["pcm_pdmgr_runs"] > 0 and st["pcm_pdmgr_cycles"] > 0, st
    assert st["pcm_faults"] > 0 and st["pcm_diskirqs"] > 0, st
    # ps shows what the managers ran.
    assert {"coremgr", "pdmgr"} <= set(ps_names(m))
    assert_alive(m)


def test_daemon_processes_cannot_be_killed(machine):
    m = boot_daemon(machine, 1)
    names = ps_names(m)
    for name in ("coremgr", "pdmgr"):
        out = m.run_shell(f"kill -9 {names[name]}")
        assert EPERM_TEXT in out.lower(), out
    assert {"coremgr", "pdmgr"} <= set(ps_names(m))
    assert_alive(m)


def stopped(machine, append):
    m = machine(append=append)
    code = m.wait_exit(timeout=60)
    found = re.search(r"^faultline: bad boot parameter: (.*)$", m.log, re.MULTILINE)
    assert code == EXIT_BAD_PARAM and found, m.log[-2000:]
    return found.group(1)


@pytest.mark.parametrize("append, says", [
    ("mm=swap pc=daemon", "pc=daemon needs mm=paging: mm=swap moves whole processes"),
    ("pc=daemon mm=swap", "valid with mm=swap: pc=inline"),
    ("freemin=64", "needs pc=daemon"),
    ("pc=daemon freemin=200 freemax=100", "freemin=200 is not below freemax=100"),
    ("pc=daemon freemin=2", "bad value '2' for freemin: out of range; valid: a number of frames "
                            "from 33 to 65536"),
    ("pc=daemon freemax=lots", "bad value 'lots' for freemax"),
])
def test_daemon_bad_parameters_refused(machine, append, says):
    assert says in stopped(machine, append)


def test_daemon_freemax_bounded_by_memory(machine):
    """mem=8M has about 1,900 frames: keeping 1,000 free is refused, naming
    the bound that memory size allows."""
    why = stopped(machine, "pc=daemon mem=8M freemax=1000")
    assert "freemax=1000 is more than a quarter of the" in why, why
    assert "up to" in why, why
