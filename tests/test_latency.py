"""Latency budgets: `lat` under -icount shift=0, where every count is a
deterministic number of instructions (docs/measurement.md).

Each budget is the count measured when it was set plus a little headroom,
so a regression on a path fails CI. The values and their history are in
docs/measurement.md ("Budgets"); lower a budget when a path gets faster,
never raise one to make a test pass without saying where the instructions
went. The budgets are the optimised kernel's counts: in a suite on the
DEBUG=1 build (make test-debug) these tests measure the release build.
"""

import re

import pytest

from qemu_helpers import BOOT_TIMEOUT, Machine, run_lat, wait_harts_online

pytestmark = pytest.mark.release_kernel

# benchmark -> (statistic, budget). Measured values in parentheses; each
# meter record on a path costs 15 cycles (meter.self; 18 with the bucket clamped, 61 before records
# were inline), and the signal paths carry two or three of them. Set at
# measured + ~5% (docs/measurement.md, "Budgets"); history: nop 516,
# signal_self 2587, sigreturn 1032, segv_catch 2502, fault_zero 1837
# before the perf work; nop 392, signal_self 1028, segv_catch 1067,
# fault_zero 1840 before inline meter records.
BUDGETS = {
    "getpid":       ("median", 20),     # light path in the trap vector (19)
    # full trap path + 3 meter records (211 with the light register save
    # for system calls, the dispatch inline and the entry and exit records
    # without an interrupt mask; 265 before)
    "nop":          ("median", 222),
    # tkill + catch + return (805 with the delivery of a one-thread
    # process's own signal taken without the process lock; 839 with a frameless spin_unlock, the user
    # range check inline and the handler-entry record made with interrupts
    # known off; 868 before; 844 earlier; 1168 with sigreturn in C; 880 once each
    # pending signal kept its origin for SA_SIGINFO: the sender's pid and
    # si_code stored at the post, copied at the delivery, and the checks
    # for a siginfo or an alternate stack on the way in)
    "signal_self":  ("median", 845),
    # handler end -> resumed: the frame loaded straight into the registers
    # in assembly, no C, no meter (112; 301 through C)
    "sigreturn":    ("median", 118),
    # SIGSEGV catch + return (998; 1205 with sigreturn in C; 1040 with the
    # fault's origin kept for SA_SIGINFO, as signal_self; 958 once meter
    # records kept their histogram by leading zeros; 925 with signal_self's
    # changes of the delivery and spin_unlock; 891 with its lock-free
    # delivery of a thread's own signal; 943 once merged with the light
    # way in for faults, where a fault that ends in a signal stores s1-s11
    # when it knows and finishes in a second C call, which this budget is
    # set on)
    "segv_catch":   ("median", 990),
    # kill(self) + catch + return: the process-directed path (824 with the
    # signal made the sender's own at the post, so that its delivery takes
    # no process lock; 848 with the
    # search for a taker other than the sender out of line; 856 with
    # signal_self's changes; 885 once the
    # sender, its own taker, is told without its thread lock, and kill's
    # search of the table is out of line; 1008 before; 1010 before the
    # light register save for system calls)
    "kill_self":    ("median", 865),
    # demand-zero first touch: 1656 with the faster trap path alone; 1755
    # once the memory managers' fault path joined it (the PTE state read,
    # vmstat counts, the manager's frame hook), which is what this budget
    # was set on. (It was 1950 over 1920 before the trap-path speed-ups.)
    # (1623 with inline meter records; 1556 with 15-instruction ones; 1356
    # once faults came in the light way, the walk's upper levels inline, the
    # region lookup hinted, and pages cleared 256 bytes a round; 1293 with
    # the user frame's record written in one go under the frames lock and
    # the fault's legs recorded with interrupts off, budget 1424 before;
    # 1245 with the first touch's fill inline in the dispatcher, budget
    # 1358 before; 1221 with an empty entry told inline and the space lock
    # taken with no stack frame, budget 1307 before)
    "fault_zero":   ("median", 1282),
    # a read of an untouched heap page maps the shared zero page: the same
    # way in and out, no frame (568; 651 before the light way in; 544 with
    # the legs recorded with interrupts off, budget 597 before; 520 with
    # an empty entry told inline and the space lock taken with no stack
    # frame, budget 571 before; 434 once a zero-page read records only the
    # map-to-exit leg, the frame legs being no work of its, budget 546 before)
    "fault_read":   ("median", 456),
    # User-level fault handling and trap forwarding (docs/ulf.md), both
    # sides on hart 0: the whole round trip through the handler process,
    # two context switches included (3976; 5236 before the handoff to the
    # woken thread and ulf_reply_recv, 4024 before the scheduler's thread
    # sets and the one-CAS sleep lock). The targets are far below: the
    # issue's 300 + 300 and 500 (docs/measurement.md).
    "ulf_fault":    ("median", 4175),
    # getpid answered by the emulator (2641; 2521 before the scheduler's
    # thread sets, whose updates each sleep and wakeup now pays)
    "trap_forward": ("median", 2775),
}
PART_BUDGETS = {
    ("fault_zero", "zeroing"):      ("mean", 590),     # 512 stores, 256 bytes a round (562; 651 at 64)
    # Cycles on the shared clock; the sender's own work until its hart
    # idles is part of delivery, and where QEMU's round robin switches harts
    # still moves a little with host load even with sleep=off (5136..5479
    # was seen with three boots sharing two host cores when delivery
    # measured 5136, so this one keeps ~10%). Measured 1925 with the IPI
    # sent through the ACLINT SSWI (2729 through OpenSBI).
    ("signal_cross", "delivery"):   ("median", 2120),
    ("signal_cross", "return"):     ("median", 122),   # (116; 304..306 through C)
    # Meters on the user-level paths (cycles = instructions under icount);
    # in parentheses the count, and before the scheduler's thread sets and
    # the one-CAS sleep lock came from main.
    ("ulf_fault", "transfer"):      ("mean", 1375),    # fault entry -> handler running (1307; 1335)
    ("ulf_fault", "load"):          ("mean", 880),     # ulf_load -> mapping installed (835; 918)
    ("ulf_fault", "resume"):        ("mean", 1180),    # ulf_reply_recv -> thread resumed (1123; 1060)
    ("trap_forward", "forward"):    ("mean", 1095),    # trap entry -> emulator running (1042; 985)
    ("trap_forward", "resume"):     ("mean", 1180),    # its answer -> thread resumed (1123; 1060)
}
# sigsuspend ping-pong between two processes, one way (round trip / 2),
# cycles on the shared clock: a kill, the sleeping target woken and switched
# to, its handler and sigreturn, and its going back to sleep. Both on hart 0
# (2361; 2692 before the scheduler kept runnable and sleeping sets), and
# one on each hart, where the idle hart's wake-up moves with QEMU's round
# robin as signal_cross does (2712; 4292 before), so that one keeps ~10%.
PINGPONG_BUDGETS = {
    # (1863 and 2271 with sigsuspend taking the process lock only to claim
    # a signal, and the poster handing the signal to the thread it wakes;
    # 1947 and 2344 with the claimed signal delivered without the process
    # lock; 1976 and 2373 with kill's pid hint, the sender its own taker without
    # a lock, a pinned thread's wake-up looking at its hart only, the
    # sleep's signal check, sched's lock check and the user range check
    # inline, and a frameless spin_unlock; 2182 and 2542 with the light
    # system-call save)
    "sigpingpong":       ("median", 1960),
    "sigpingpong_cross": ("median", 2500),
}
BUDGETS.update(PINGPONG_BUDGETS)
# One switch between two processes yielding to each other on hart 0 (half
# a round trip, yield calls included): 374 once the scheduler visits only
# runnable threads (765 when it scanned the whole thread table).
BUDGETS["yield"] = ("median", 348)   # (331 with sched's lock check inline and a frameless spin_unlock; 344 with the light system-call save)
# fork + exit + wait of a small process, cycles on the shared clock (the
# child may run on the other hart): 64,471 once the page-table walks of
# fork and exit skip empty entries eight at a time (90,109 before;
# docs/measurement.md has the breakdown); 44,271 once those walks visit
# only the regions' ranges, exit frees the child's table pages zero in
# the same walk for the next fork to take unwritten, and pages are copied
# and cleared 256 bytes a round (budget 71,000 before); 38,146 once a
# copied page's frame comes dirty from its allocation, the child's next
# entry and region are found without a walk or a search, exit frees the
# frames in batches, a new root copies and exit clears only the kernel
# root entries in use, and the child takes the last freed thread's
# kernel stack, still mapped (budget 46,500 before).
BUDGETS["fork"] = ("median", 40000)
# The same with the child exec'ing /true (user/true.c) before it exits:
# 107,255 when the row was added (fork alone 36,865 in that run).
BUDGETS["forkexec"] = ("median", 118000)
# Single-hart paths must not vary at all under icount.
DETERMINISTIC = ("getpid", "nop", "signal_self", "sigreturn", "kill_self")


@pytest.fixture(scope="module")
def lat_results(release_build, tmp_path_factory):
    # One boot for all the budget checks (module scope, so not the
    # per-test `machine` fixture); two harts for the cross-hart signal.
    m = Machine(release_build / "kernel.elf", release_build / "initrd.cpio",
                workdir=tmp_path_factory.mktemp("lat"))
    m.start(cpus=2, icount=True)
    try:
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        wait_harts_online(m, 2)
        results = run_lat(m)
    finally:
        m.close()
    return results


@pytest.mark.parametrize("bench", sorted(BUDGETS))
def test_path_within_budget(lat_results, bench):
    assert bench in lat_results, f"lat printed no {bench}: {sorted(lat_results)}"
    stat, budget = BUDGETS[bench]
    value = lat_results[bench][stat]
    assert value <= budget, f"{bench} {stat} is {value} instructions, over its budget of {budget}"
    assert value > 0


# One meter record (meter.self, cycles = instructions): the calibration
# every reading carries. 15 with the histogram kept by leading zeros (18
# with the log2 bucket worked out and clamped on the path; 61 as a call).
METER_SELF_BUDGET = 15


def test_meter_record_within_budget(lat_results):
    meters = lat_results["nop"].get("kernel_meters") or {}
    self_cost = meters.get("meter.self")
    assert self_cost and self_cost["count"], f"no meter.self after nop: {sorted(meters)}"
    # min: the record's own count; the first of the calibration rounds
    # may pay one more (its mean is 15.02)
    assert 0 < self_cost["min"] <= METER_SELF_BUDGET, self_cost
    assert self_cost["sum"] / self_cost["count"] < METER_SELF_BUDGET + 1, self_cost


@pytest.mark.parametrize("bench, part", sorted(PART_BUDGETS))
def test_part_within_budget(lat_results, bench, part):
    parts = lat_results.get(bench, {}).get("parts") or {}
    assert parts.get(part), f"{bench} has no part {part}: {parts}"
    stat, budget = PART_BUDGETS[(bench, part)]
    value = parts[part][stat]
    assert 0 < value <= budget, f"{bench}.{part} {stat} is {value}, budget {budget}"


@pytest.mark.parametrize("bench", DETERMINISTIC)
def test_single_hart_paths_are_deterministic(lat_results, bench):
    r = lat_results[bench]
    assert r["min"] == r["median"] == r["p90"], r


def test_fork_after_using_16_mib_costs_what_it_did(lat_results):
    # The same forks in one process before and after it touched and freed
    # 16 MiB: the page tables that memory needed go with it, so fork walks
    # and copies no empty tables (134,507 cycles against 94,875 before
    # they were freed).
    r = lat_results.get("fork_used")
    assert r and (r.get("parts") or {}).get("before"), f"no fork_used with its part: {r}"
    before = r["parts"]["before"]["mean"]
    assert 0 < r["median"] <= before * 1.05, f"fork after 16 MiB: {r['median']} against {before}"


# ----- pc=daemon: the fault served from the free list ---------------------------
#
# Under pc=daemon the core manager zeroes free frames in idle time, so a
# demand-zero fault takes a zeroed frame and only maps it: it must cost no
# more than a minor fault (a hidden page remapped, the cheapest fault
# there is) plus a few hundred instructions. One hart, so the managers'
# own instructions (which run while lat sleeps) are not on its clock.
# Measured 1021 against a minor fault's 667 (354 more; inline 1661, of
# which 658 zeroing).
DAEMON_OVER_MINOR = 400          # instructions a zero-fill may cost above a minor fault
DAEMON_BUDGETS = {
    # (1021 when set at 1070; 680 with the fault path's changes of
    # coremap_alloc_user, the inline first-touch fill and empty test)
    "fault_zero": ("median", 714),
}
DAEMON_PART_BUDGETS = {
    ("fault_zero", "zeroing"): ("max", 20),   # the frame came zeroed: nothing to do (11)
}


ZEROED_WANTED = 512        # frames: lat's fault_zero touches 256 fresh pages and its warm-up
ZEROED_READINGS = 20


def zeroed_frames(m) -> int:
    out = m.run_shell("vmstat")
    found = re.search(r"^frames_zeroed +(\d+)", out, re.MULTILINE)
    return int(found.group(1)) if found else 0


@pytest.fixture(scope="module")
def daemon_lat(release_build, tmp_path_factory):
    m = Machine(release_build / "kernel.elf", release_build / "initrd.cpio",
                workdir=tmp_path_factory.mktemp("latdaemon"))
    m.start(cpus=1, icount=True, append="pc=daemon")
    try:
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        # The core manager zeroes in idle time, which the host's typing
        # speed decides: wait until it has zeroed more than lat touches.
        for _ in range(ZEROED_READINGS):
            if zeroed_frames(m) >= ZEROED_WANTED:
                break
        results = run_lat(m, "fault_zero minor_fault")
    finally:
        m.close()
    return results


def test_daemon_zero_fault_costs_a_minor_fault_and_a_few_hundred(daemon_lat):
    zero, minor = daemon_lat["fault_zero"]["median"], daemon_lat["minor_fault"]["median"]
    assert 0 < minor and zero <= minor + DAEMON_OVER_MINOR, (zero, minor)


@pytest.mark.parametrize("bench", sorted(DAEMON_BUDGETS))
def test_daemon_path_within_budget(daemon_lat, bench):
    stat, budget = DAEMON_BUDGETS[bench]
    value = daemon_lat[bench][stat]
    assert 0 < value <= budget, f"pc=daemon {bench} {stat} is {value}, budget {budget}"


@pytest.mark.parametrize("bench, part", sorted(DAEMON_PART_BUDGETS))
def test_daemon_part_within_budget(daemon_lat, bench, part):
    parts = daemon_lat.get(bench, {}).get("parts") or {}
    stat, budget = DAEMON_PART_BUDGETS[(bench, part)]
    assert parts.get(part) and 0 < parts[part][stat] <= budget, parts
