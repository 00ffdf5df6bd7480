"""Memory-manager latency budgets: `lat pagein minor_fault swapin` under
-icount shift=0 on one hart with mm=swap and a disk (docs/measurement.md,
"Memory-manager budgets").

What is fixed under icount: a minor fault (a hidden page remapped, as
with refbits=sw), and the kernel's own instructions for a page-in when no
interrupt lands in them (the minimum over the samples). What is not: the
time a page-in waits for the device (QEMU answers in host time, so with
another QEMU busy on the host it moves by thousands), and interrupts that
land while the kernel works (the device's completions, counted as the
interrupted path's own work); so page-in as the user times it has no
budget here, only its kernel part, and the whole-process moves are budgeted
on their minimum over the rounds with room for that spread.
"""

import pytest

from qemu_helpers import BOOT_TIMEOUT, Machine, run_lat

pytestmark = pytest.mark.release_kernel

BUDGETS = {
    # bench: (statistic, budget)          measured when set
    # hidden page revealed, user-timed (705 when set at 740; 477 once the
    # fault dispatcher tells an empty entry inline and decodes the rest once)
    "minor_fault": ("median", 501),
}
PART_BUDGETS = {
    # kernel work without the device wait (1172 asleep, about 1060 not; 1248
    # once the driver served two devices and checked the disklat= model)
    ("pagein", "pagein"):       ("min", 1290),
    ("minor_fault", "remap"):   ("max", 20),       # the reveal itself (17)
    # 64 heap pages + lat's image, out (70504..70724 when set; 73078 once
    # lat had the fork rows, 73952 with the ulf rows: each page of lat's
    # image that exec loads, text or bss, costs about 880 to write out)
    ("swapin", "swapout"):      ("min", 77000),
    ("swapin", "swapin"):       ("min", 106000),   # the same back in (100160..100441)
}


def boot_and_run_lat(kernel_elf, initrd_cpio, workdir):
    m = Machine(kernel_elf, initrd_cpio, workdir=workdir)
    m.start(cpus=1, icount=True, disk_size="64M", append="mm=swap")
    try:
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        results = run_lat(m, "pagein minor_fault swapin")
        log = m.log
    finally:
        m.close()
    return results, log


@pytest.fixture(scope="module")
def mm_lat(release_build, tmp_path_factory):
    return boot_and_run_lat(release_build / "kernel.elf", release_build / "initrd.cpio",
                            tmp_path_factory.mktemp("mmlat"))


def test_pages_come_back_intact(mm_lat):
    results, log = mm_lat
    assert "came back wrong" not in log, log[-3000:]
    assert "lat: " not in log.replace("lat pagein", ""), log[-3000:]
    assert set(results) == {"pagein", "minor_fault", "swapin"}, sorted(results)


@pytest.mark.parametrize("bench", sorted(BUDGETS))
def test_mm_path_within_budget(mm_lat, bench):
    results, _ = mm_lat
    stat, budget = BUDGETS[bench]
    value = results[bench][stat]
    assert 0 < value <= budget, f"{bench} {stat} is {value} instructions, over its budget of {budget}"


@pytest.mark.parametrize("bench, part", sorted(PART_BUDGETS))
def test_mm_part_within_budget(mm_lat, bench, part):
    results, _ = mm_lat
    parts = results[bench].get("parts") or {}
    assert parts.get(part), f"{bench} has no part {part}: {parts}"
    stat, budget = PART_BUDGETS[(bench, part)]
    value = parts[part][stat]
    assert 0 < value <= budget, f"{bench}.{part} {stat} is {value}, budget {budget}"


def test_mm_counts_repeat(mm_lat, release_build, tmp_path):
    """A second boot gives the same minor-fault count. (The kernel's
    page-in count is not compared: it takes one of two paths, 1172 when
    the thread sleeps for the device and about 1060 when the device answered
    before it slept, and a loaded host changes which one a sample takes.)"""
    first, _ = mm_lat
    second, _ = boot_and_run_lat(release_build / "kernel.elf", release_build / "initrd.cpio",
                                 tmp_path)
    assert first["minor_fault"]["median"] == second["minor_fault"]["median"]
