"""QEMU integration tests of the virtio-blk driver (kernel/dev/virtio_blk.c)
and selftest=blk (kernel/dev/blk_selftest.c).

The lines are the ones docs/protocol.md lists:
    faultline: disk: virtio-blk at 0x<base> irq <n>, <sectors> sectors (<size> MiB|KiB)
    faultline: disk: none (<why>)
    faultline: selftest: blk: ok: <n> pages written and read back, <k> in flight, <t> us
    faultline: selftest: blk: FAILED: <what>
    faultline: selftest: blk: no disk
Errors are injected with QEMU's blkdebug driver (Machine.start(blkdebug=...)).
"""

import re

import pytest

from qemu_helpers import boot_to_shell, wait_for_log

SECTOR = 512
PAGE_SECTORS = 4096 // SECTOR
SELFTEST_PAGES = 33          # BLK_SELFTEST_PAGES in kernel/include/config.h
QUEUE_CHAINS = 64 // 3       # BLK_QUEUE_SIZE descriptors, 3 per request
EIO = 5
EROFS = 30

DISK_LINE = re.compile(r"^faultline: disk: (.*)$", re.MULTILINE)
SELFTEST_LINE = re.compile(r"^faultline: selftest: blk: (.*)$", re.MULTILINE)


def disk_line(m):
    return wait_for_log(m, DISK_LINE.pattern).group(1)


def selftest_line(m):
    return wait_for_log(m, SELFTEST_LINE.pattern).group(1)


def assert_healthy(m):
    """No panic, one line of each kind, and the shell still answers."""
    assert "FL-PANIC" not in m.log
    assert len(DISK_LINE.findall(m.log)) == 1, DISK_LINE.findall(m.log)
    assert len(SELFTEST_LINE.findall(m.log)) <= 1, SELFTEST_LINE.findall(m.log)
    assert m.run_shell("echo blk-check ok").strip() == "blk-check ok"


@pytest.mark.parametrize("size, sectors, shown", [
    ("64M", 131072, "64 MiB"),
    ("1536K", 3072, "1536 KiB"),
])
def test_blk_boot_line_names_the_disk(machine, size, sectors, shown):
    m = boot_to_shell(machine, disk_size=size)
    assert disk_line(m) == f"virtio-blk at 0x10008000 irq 8, {sectors} sectors ({shown})"
    assert_healthy(m)


@pytest.mark.parametrize("cpus, size, pages", [
    (1, "64M", SELFTEST_PAGES),
    (2, "64M", SELFTEST_PAGES),
    (1, "64K", 64 * 1024 // 4096),      # fewer pages than the selftest wants: all of them
])
def test_blk_selftest_writes_and_reads_back(machine, cpus, size, pages):
    m = boot_to_shell(machine, cpus=cpus, disk_size=size, append="selftest=blk")
    found = re.fullmatch(r"ok: (\d+) pages written and read back, (\d+) in flight, (\d+) us",
                         selftest_line(m))
    assert found, selftest_line(m)
    assert int(found.group(1)) == pages
    assert 1 <= int(found.group(2)) <= min(pages, QUEUE_CHAINS)
    assert_healthy(m)


def test_blk_selftest_pattern_lands_on_the_right_sectors(machine):
    # The host reads the image back: the first, middle and last pages hold
    # what the kernel wrote, and nothing else was touched.
    m = machine(disk_size="4M", append="selftest=blk")
    m.expect_prompt(timeout=120)
    assert selftest_line(m).startswith("ok: ")
    m.send("halt")
    assert m.wait_exit(60) == 0
    data = m.disk.read_bytes()
    disk_pages = len(data) // 4096
    written = [i * (disk_pages - 1) // (SELFTEST_PAGES - 1) for i in range(SELFTEST_PAGES)]
    assert {0, (disk_pages - 1) // 2, disk_pages - 1} <= set(written)
    for page in range(disk_pages):
        chunk = data[page * 4096:(page + 1) * 4096]
        if page not in written:
            assert chunk == bytes(4096), f"page {page} is not in the plan but was written"
            continue
        sector = page * PAGE_SECTORS
        words = [int.from_bytes(chunk[i:i + 8], "little") for i in range(0, 4096, 8)]
        # fill_pattern() in kernel/dev/blk_selftest.c
        expect = [(((sector << 32) | i) * 0x9E3779B97F4A7C15) % (1 << 64) for i in range(512)]
        assert words == expect, f"page {page} does not hold its pattern"


def test_blk_no_disk(machine):
    m = boot_to_shell(machine, disk_size=None, append="selftest=blk")
    assert disk_line(m) == "none (no virtio block device)"
    assert selftest_line(m) == "no disk"
    assert_healthy(m)


def test_blk_legacy_device_is_refused(machine):
    # A later -global wins: the device keeps QEMU's legacy version-1 layout.
    m = boot_to_shell(machine, append="selftest=blk",
                      extra_args=["-global", "virtio-mmio.force-legacy=true"])
    assert disk_line(m) == \
        "none (virtio-blk at 0x10008000 is legacy virtio-mmio version 1, unsupported)"
    assert selftest_line(m) == "no disk"
    assert_healthy(m)


LAST_PAGE_SECTOR = 131072 - PAGE_SECTORS      # 64M disk


@pytest.mark.parametrize("event, verb, sector", [
    ("read_aio", "read", LAST_PAGE_SECTOR),
    ("write_aio", "write", 0),
])
def test_blk_injected_io_error_is_reported(machine, event, verb, sector):
    rules = [{"event": event, "errno": EIO, "sector": sector, "once": False}]
    m = boot_to_shell(machine, disk_size="64M", append="selftest=blk", blkdebug=rules)
    assert disk_line(m).startswith("virtio-blk at ")
    assert selftest_line(m) == f"FAILED: {verb} of sector {sector}: I/O error (errno {EIO})"
    assert_healthy(m)


def test_blk_every_write_failing_counts_them(machine):
    # No sector: every write fails; the line names the first and counts all.
    rules = [{"event": "write_aio", "errno": EIO}]
    m = boot_to_shell(machine, disk_size="64M", append="selftest=blk", blkdebug=rules)
    assert selftest_line(m) == (f"FAILED: write of sector 0: I/O error (errno {EIO}); "
                                f"{SELFTEST_PAGES} of {SELFTEST_PAGES} requests failed")
    assert_healthy(m)


def test_blk_read_only_disk_refuses_writes(machine):
    m = boot_to_shell(machine, disk_size="64M", disk_readonly=True, append="selftest=blk")
    assert disk_line(m) == "virtio-blk at 0x10008000 irq 8, 131072 sectors (64 MiB), read-only"
    assert selftest_line(m) == f"FAILED: write of sector 0 refused: errno {EROFS}"
    assert_healthy(m)
