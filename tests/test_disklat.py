"""QEMU integration tests of the disk latency model, disklat= (kernel/dev/
blk_latency.c, docs/memory.md "The disk's service time").

selftest=blk writes BLK_SELFTEST_PAGES pages, each request submitted
before the first wait, then reads them back the same way, and prints how
long that took. With disklat=T the model serves the requests one at a
time, T each, so the whole selftest takes at least 2 * pages * T; under
-icount the virtual clock makes the rest, the kernel's own instructions,
fixed, and the held-back completions arrive on the boot hart's alarm at
their due times: on a quiet host 66 requests at 5ms take 331,104 us every
run. A request the device (QEMU, in host time) finishes after its due
time ends late; on a loaded host that happens, so the upper bounds leave
a quarter of the modelled time and two ticks of room.

Paging under the model: every page written out is one request on the
arm, so a run that writes P pages takes at least P * T of uptime.
"""

import re

import pytest

from qemu_helpers import BOOT_TIMEOUT, EXIT_BAD_PARAM, boot_to_shell, wait_for_log
from test_blk import SELFTEST_PAGES
from test_mm import vmstat

US_PER_MS = 1000
TICK_US = 10 * US_PER_MS          # SCHED_TICK_US: the idle clock's jumps under -icount
LATE_SHARE = 0.25                 # room for requests QEMU finished after their due time


def ceiling(floor_us):
    return floor_us * (1 + LATE_SHARE) + 2 * TICK_US
REQUESTS = 2 * SELFTEST_PAGES     # written, then read back
SELFTEST_OK = re.compile(r"^faultline: selftest: blk: ok: (\d+) pages written and read back, "
                         r"(\d+) in flight, (\d+) us$", re.MULTILINE)


def selftest_us(machine, disklat):
    m = machine(append=f"selftest=blk disklat={disklat}", icount=True)
    found = wait_for_log(m, SELFTEST_OK.pattern, timeout=BOOT_TIMEOUT)
    assert int(found.group(1)) == SELFTEST_PAGES, found.group(0)
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    assert "FL-PANIC" not in m.log
    return int(found.group(3)), m.log


@pytest.mark.parametrize("ms", [2, 5])
def test_disklat_queues_requests_one_at_a_time(machine, ms):
    """n requests take at least n service times (the model never ends one
    early), and not much more: the kernel's own work is small."""
    took, log = selftest_us(machine, f"{ms}ms")
    assert f"faultline: disklat: the disk takes {ms * US_PER_MS} us a request" in log
    floor = REQUESTS * ms * US_PER_MS
    assert floor <= took <= ceiling(floor), (took, floor)


def test_disklat_time_grows_by_the_model(machine):
    """Two service times, same requests: the time grows with the model's,
    request for request."""
    short, _ = selftest_us(machine, "2ms")
    long, _ = selftest_us(machine, "5ms")
    expected = REQUESTS * 3 * US_PER_MS
    assert long - short >= expected - (ceiling(REQUESTS * 2 * US_PER_MS) - REQUESTS * 2 * US_PER_MS), \
        (short, long, expected)


def test_disklat_microseconds(machine):
    took, log = selftest_us(machine, "1500us")
    assert "the disk takes 1500 us a request" in log
    assert REQUESTS * 1500 <= took <= ceiling(REQUESTS * 1500), took


def test_disklat_paging_waits_for_the_arm(machine):
    """mm=paging, 4 MiB of pages pushed out by vmctl in `lat pagein` and
    touched back: every write is a request on the arm, so the uptime the
    run takes is at least pageouts * T."""
    ms = 10
    m = boot_to_shell(machine, append=f"mm=paging disklat={ms}ms", icount=True)
    before = vmstat(m)
    m.run_shell("lat pagein", timeout=300)
    after = vmstat(m)
    writes = after["pageouts"] - before["pageouts"]
    assert writes > 0 and after["pageins"] > before["pageins"], (before, after)
    assert after["io_errors"] == 0, after
    took_ms = after["uptime_ms"] - before["uptime_ms"]
    assert took_ms >= writes * ms, (took_ms, writes)


@pytest.mark.parametrize("value, says", [
    ("30", "bad value '30' for disklat: the unit is missing"),
    ("2s", "bad value '2s' for disklat; valid: 0 (off), or a time with a unit, us or ms, "
           "up to 1000ms"),
    ("1001ms", "bad value '1001ms' for disklat: out of range"),
])
def test_disklat_bad_values_refused(machine, value, says):
    m = machine(append=f"disklat={value}")
    code = m.wait_exit(timeout=60)
    found = re.search(r"^faultline: bad boot parameter: (.*)$", m.log, re.MULTILINE)
    assert code == EXIT_BAD_PARAM and found, m.log[-2000:]
    assert says in found.group(1), found.group(1)
