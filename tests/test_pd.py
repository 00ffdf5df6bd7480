"""QEMU integration tests of pd=SIZE, the paging device between memory and
the disk (kernel/mm/pdmap.c, docs/memory.md "The paging device"):
pc=daemon's write-behind goes to it first, the paging-device manager moves
its oldest pages to the disk (RWS) when its free records run low, and a
fault reads a page from whichever device has it. Under 4x over-commit
every page comes back intact (hog checksums each one), nothing leaks on
either device, and the boot refuses pd= where it cannot work."""

import re

import pytest

from qemu_helpers import EXIT_BAD_PARAM, boot_to_shell, wait_for_log
from test_hog import HOG_TIMEOUT, assert_clean, run_hog
from test_mm import LEAK_READINGS, assert_alive, vmstat, SWAP_LINE

import time

PD_LINE = re.compile(r"^faultline: pd: (\d+) records \((\d+) KiB\), moved to the disk oldest "
                     r"first below (\d+) free, up to (\d+)$", re.MULTILINE)
PD_SIZE = "4M"
PD_RECORDS = 4 * 1024 // 4


def boot_pd(machine, cpus, pd=PD_SIZE, extra="pcmeters=on"):
    m = boot_to_shell(machine, cpus=cpus, disk_size="64M",
                      append=f"mm=paging pc=daemon mem=8M pd={pd} {extra}".strip())
    wait_for_log(m, SWAP_LINE.pattern)
    return m


def balanced(st):
    return (st["frames_user"] == st["resident_total"] and st["swap_used"] == st["swap_owned"]
            and st["pd_records"] - st["pd_free"] <= st["swap_owned"])


def assert_no_leak_either_device(m):
    """Every user frame is a live page's; every disk slot a live swapped
    page's (a dead page's record and slot are reclaimed by the manager);
    every record in use on the paging device a live swapped page's."""
    for _ in range(LEAK_READINGS):
        st = vmstat(m)
        if balanced(st):
            break
        time.sleep(0.5)
    assert st["frames_user"] == st["resident_total"], st
    assert st["swap_used"] == st["swap_owned"], st
    assert 0 <= st["pd_records"] - st["pd_free"] <= st["swap_owned"], st
    return st


@pytest.mark.timeout(2 * HOG_TIMEOUT + 120)
@pytest.mark.parametrize("cpus", [1, 2])
def test_pd_hog_four_times_memory(machine, cpus):
    m = boot_pd(machine, cpus)
    found = PD_LINE.search(m.log)
    assert found and int(found.group(1)) == PD_RECORDS, m.log[-2000:]
    assert re.search(r"^faultline: pd: virtio-blk at 0x[0-9a-f]+ irq \d+, 8192 sectors \(4 MiB\)$",
                     m.log, re.MULTILINE), m.log[-2000:]
    before = vmstat(m)
    assert before["pd_records"] == PD_RECORDS, before
    status, rec, out = run_hog(m, "-p 4 -m 8192 -r 2")
    assert_clean(status, rec, out, 4, 8192, 2, "sbrk", False)
    st = assert_no_leak_either_device(m)
    assert st["io_errors"] == 0 and st["oom_kills"] == 0, st
    # The write-behind went to the paging device, which was full never
    # (the manager always made room) ...
    stores = st["pd_stores"] - before["pd_stores"]
    assert stores == st["pd_writes"] - before["pd_writes"] > 0, (before, st)
    assert st["pd_full"] == 0, st
    # ... the oldest pages moved on to the disk, dead ones reclaimed ...
    assert st["rws_moves"] > 0 and st["pd_reclaimed"] > 0, st
    assert st["rws_moves"] <= st["pd_stores"] and st["pd_reclaimed"] <= st["pd_stores"], st
    # ... and faults found pages on both devices.
    reads = st["pd_reads"] - before["pd_reads"]
    pageins = st["pageins"] - before["pageins"]
    assert 0 < reads < pageins, (before, st)
    # The moves' CPU is metered apart from the PD manager's.
    assert st["pcm_rws_runs"] > 0 and st["pcm_rws_cycles"] > 0, st
    assert st["pcm_pdmgr_runs"] > 0, st
    assert_alive(m)


def stopped(machine, append, **kwargs):
    m = machine(append=append, **kwargs)
    code = m.wait_exit(timeout=60)
    found = re.search(r"^faultline: bad boot parameter: (.*)$", m.log, re.MULTILINE)
    assert code == EXIT_BAD_PARAM and found, m.log[-2000:]
    return found.group(1)


@pytest.mark.parametrize("append, says", [
    ("pd=1M", "pd= needs mm=paging pc=daemon: the paging device is a level the paging-device "
              "manager keeps"),
    ("mm=paging pc=inline pd=1M", "pd= needs mm=paging pc=daemon"),
    ("mm=swap pd=1M", "pd= needs mm=paging pc=daemon"),
    ("pc=daemon pd=1", "bad value '1' for pd: the unit is missing"),
    ("pc=daemon pd=128K", "bad value '128K' for pd: out of range; valid: a size with a unit, "
                          "K or M, whole pages from 256K to 64M"),
    ("pc=daemon pd=65M", "out of range"),
    ("pc=daemon pd=1025K", "out of range"),
    ("pc=daemon pdlat=1ms", "pdlat= needs pd=: it is the paging device's service time"),
    ("pc=daemon pd=1M pdlat=5", "bad value '5' for pdlat: the unit is missing"),
])
def test_pd_bad_parameters_refused(machine, append, says):
    assert says in stopped(machine, append)


def test_pd_without_a_second_device_refused(machine):
    why = stopped(machine, "pc=daemon pd=1M", pd_size=False)
    assert "pd=1024K needs a second virtio-blk device, the paging device, and there is none" in why


def test_pd_of_another_size_refused(machine):
    why = stopped(machine, "pc=daemon pd=1M", pd_size="2M")
    assert re.search(r"pd=1024K but the paging device \(virtio-blk at 0x[0-9a-f]+\) has 2048 KiB",
                     why), why


def test_pd_latency_shown(machine):
    m = boot_to_shell(machine, append="pc=daemon pd=1M disklat=2ms pdlat=100us")
    assert "faultline: disklat: the disk takes 2000 us a request, one at a time" in m.log
    assert "faultline: pdlat: the paging device takes 100 us a request, one at a time" in m.log
    assert "pd=1M" in m.log and "pdlat=100us" in m.log
    assert_alive(m)
