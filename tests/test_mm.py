"""QEMU integration tests of the memory managers under pressure: mm=paging
(hardware and software reference bits) and mm=swap, with mem=8M and hog
runs that need four times physical memory, fork/exec under load, a swap
device that fills up, no swap device, a swap device too small to use, and
injected I/O errors on the paging device (QEMU's blkdebug).

After every run `vmstat -j` must show no leak: the frames user pages hold
equal the resident pages the address spaces count (frames_user ==
resident_total), and the used swap slots equal the swapped pages they
count (swap_used == swap_owned), with the hogs gone. The kernel must never
panic and the shell must still answer.

Kill lines (kernel/proc/proc.c, kernel/arch/riscv64/trap.c):
    faultline: killed pid=P name=N cause=out of memory|out of swap space|
               I/O error on the paging device sepc=.. stval=..
"""

import json
import re
import time

import pytest

from qemu_helpers import boot_to_shell, wait_for_log
from test_hog import HOG_TIMEOUT, assert_clean, run_hog
from test_vmstat import vmstat_now

MEM = "mem=8M"
DISK = "64M"
CPUS = 2
EIO = 5
# 4x the 8 MiB of physical memory. Under mm=swap a process must fit in
# memory on its own, so more and smaller processes.
WORKLOADS = {
    "paging": (4, 8192, 2),
    "swap": (8, 4096, 2),
}
MANAGERS = [
    pytest.param("paging", "", CPUS, id="paging"),
    pytest.param("paging", "refbits=sw", CPUS, id="paging-refbits-sw"),
    pytest.param("paging", "pc=daemon", CPUS, id="paging-daemon"),
    pytest.param("paging", "pc=daemon", 1, id="paging-daemon-1hart"),
    pytest.param("swap", "", CPUS, id="swap"),
]
# Page control under mm=paging: the fault handler itself, or the page
# daemon (kernel/mm/pc_daemon.c), which must behave the same at the edges.
PAGE_CONTROLS = [pytest.param("", id="inline"), pytest.param("pc=daemon", id="daemon")]
KILL_LINE = re.compile(r"^(?:\$ )?faultline: killed pid=(\d+) name=(\S+) cause=(.*?) sepc=0x[0-9a-f]+ "
                       r"stval=0x[0-9a-f]+$", re.MULTILINE)
# A child refused memory says so and exits: at its big sbrk, or, when the
# other children's promises left too little, already at the small malloc
# of its checksum table (hog.c); both are the clear refusal, no kill.
SBRK_REFUSED = re.compile(r"^(?:\$ )?hog: child \d+: (?:sbrk\(\d+ bytes\): out of memory"
                          r"|no memory for \d+ checksums)$", re.MULTILINE)
CHILD_KILLED = re.compile(r"^(?:\$ )?hog: child \d+ \(pid (\d+)\) was killed by signal (\d+)$",
                          re.MULTILINE)
SWAP_LINE = re.compile(r"^faultline: swap: (.*)$", re.MULTILINE)
SIGKILL = 9
SIGBUS = 7
# A line a job prints may follow the shell's "$ " prompt on the console.
OUT_OF_MEMORY_CAUSES = ("out of memory", "out of swap space")
IO_CAUSE = "I/O error on the paging device"
# Writes: every one fails, so the first page-out does. Reads: only those of
# one slot well into the swap area (slots are handed out from the start),
# so the shell's and the hog parent's pages, paged out first while they
# wait, come back, and the page-in that fails is a hog child's. ("once" is
# no use: QEMU's own read of sector 0 when it attaches the disk takes it.)
READ_ERROR_SLOT = 4000
IO_ERROR_WHERE = {
    "write_aio": {},
    "read_aio": {"sector": READ_ERROR_SLOT * 4096 // 512},
}
TEST_TIMEOUT = 2 * HOG_TIMEOUT + 120


def boot(machine, mm, extra="", cpus=CPUS, **kwargs):
    append = " ".join(x for x in (f"mm={mm}", extra, MEM) if x)
    kwargs.setdefault("disk_size", DISK)
    m = boot_to_shell(machine, cpus=cpus, append=append, **kwargs)
    wait_for_log(m, SWAP_LINE.pattern)
    return m


def vmstat(m) -> dict:
    return vmstat_now(m)


# The bookkeeping agrees whenever nothing is moving; a reading taken while
# the swapper or a shell's page fault is half way is read again.
LEAK_READINGS = 5


def balanced(st):
    return st["frames_user"] == st["resident_total"] and st["swap_used"] == st["swap_owned"]


def assert_no_leak(m, mm):
    """The hogs are gone: every user frame and swap slot is accounted for."""
    for _ in range(LEAK_READINGS):
        st = vmstat(m)
        if balanced(st):
            break
        time.sleep(0.5)
    assert st["mm"] == mm, st
    assert st["frames_user"] == st["resident_total"], st
    assert st["swap_used"] == st["swap_owned"], st
    assert st["swap_used"] <= st["swap_total"], st
    return st


def assert_alive(m):
    assert "FL-PANIC" not in m.log, m.tail()
    assert m.run_shell("echo mm-check ok").strip() == "mm-check ok"


def assert_small_hog_works(m):
    status, rec, out = run_hog(m, "-p 1 -m 256 -r 1")
    assert_clean(status, rec, out, 1, 256, 1, "sbrk", False)


def kills(text):
    return [(int(pid), name, cause) for pid, name, cause in KILL_LINE.findall(text)]


def assert_4x_run(m, mm, flags, forkexec):
    procs, kib, rounds = WORKLOADS[mm]
    status, rec, out = run_hog(m, f"-p {procs} -m {kib} -r {rounds} {flags}".strip())
    assert_clean(status, rec, out, procs, kib, rounds, "sbrk", forkexec)
    st = assert_no_leak(m, mm)
    # the workload really was 4x memory: it had to page or swap
    assert procs * kib * 1024 >= 4 * st["frames_total"] * st["page_size"], st
    if mm == "paging":
        assert st["pageouts"] > 0 and st["pageins"] > 0, st
    else:
        assert st["swapouts"] > 0 and st["swapins"] > 0, st
        assert st["swapout_pages"] > 0 and st["swapin_pages"] > 0, st
    assert st["io_errors"] == 0 and st["oom_kills"] == 0, st
    assert_alive(m)
    return rec, st


# ----- four times memory ---------------------------------------------------------

@pytest.mark.timeout(TEST_TIMEOUT)
@pytest.mark.parametrize("mm, extra, cpus", MANAGERS)
def test_mm_hog_four_times_memory(machine, mm, extra, cpus):
    m = boot(machine, mm, extra, cpus)
    if extra == "refbits=sw":
        assert "faultline: params: mm=paging pc=inline refbits=sw" in m.log
    assert_4x_run(m, mm, "", False)


@pytest.mark.timeout(TEST_TIMEOUT)
@pytest.mark.parametrize("mm, extra", [("paging", ""), ("paging", "pc=daemon"), ("swap", "")],
                         ids=["paging", "paging-daemon", "swap"])
def test_mm_fork_exec_under_pressure(machine, mm, extra):
    m = boot(machine, mm, extra)
    out_start = len(m.log)
    assert_4x_run(m, mm, "-f", True)
    procs = WORKLOADS[mm][0]
    verified = re.findall(r"^(?:\$ )?hog: child (\d+) grandchild verified \d+ pages$",
                          m.log[out_start:], re.MULTILINE)
    assert sorted(int(c) for c in verified) == list(range(procs)), m.tail()


# ----- swap device full ----------------------------------------------------------

@pytest.mark.timeout(TEST_TIMEOUT)
def test_mm_swap_full_kills_under_swap(machine):
    """mm=swap, 8 MiB of memory and 2 MiB of swap, 16 processes of 440 KiB:
    some whole images cannot be written out, so a process that needs
    memory is refused its sbrk or killed for want of swap, and every
    failed child is one of those."""
    m = boot(machine, "swap", disk_size="2M")
    assert "faultline: swap: 512 page slots (2048 KiB) on the disk" in m.log
    status, rec, out = run_hog(m, "-p 16 -m 440 -r 1")
    # Which of the two a child meets depends on who runs when: a promise
    # refused at sbrk (nothing is lost), or, once a process in memory must
    # grow with no slot left to write a whole image to, a kill.
    killed = kills(out)
    refused = SBRK_REFUSED.findall(out)
    assert killed or refused, out[-3000:]
    assert all(name == "hog" and cause in OUT_OF_MEMORY_CAUSES for _, name, cause in killed), killed
    by_signal = CHILD_KILLED.findall(out)
    assert sorted(int(p) for p, _ in by_signal) == sorted(p for p, _, _ in killed), out[-3000:]
    assert all(int(sig) == SIGKILL for _, sig in by_signal), by_signal
    assert rec["failed_children"] == len(killed) + len(refused), (rec, out[-3000:])
    assert rec["bad_pages"] == 0, rec
    assert status == "status 1", status
    st = assert_no_leak(m, "swap")
    assert st["oom_kills"] == len(killed), st
    assert st["io_errors"] == 0, st
    assert_alive(m)
    assert_small_hog_works(m)
    assert_no_leak(m, "swap")


@pytest.mark.timeout(TEST_TIMEOUT)
@pytest.mark.parametrize("pcextra", PAGE_CONTROLS)
def test_mm_swap_full_refused_under_paging(machine, pcextra):
    """mm=paging promises sbrk memory only against free frames plus free
    swap slots, so with 2 MiB of swap a hog past memory+swap is refused at
    sbrk (a clear message, no kill) while the rest of it runs and pages."""
    m = boot(machine, "paging", pcextra, disk_size="2M")
    status, rec, out = run_hog(m, "-p 16 -m 440 -r 1")
    refused = SBRK_REFUSED.findall(out)
    assert refused, out[-3000:]
    assert rec["failed_children"] == len(refused) + len(kills(out)), (rec, out[-3000:])
    assert rec["failed_children"] < 16 and rec["pages_checked"] > 0, rec
    assert rec["bad_pages"] == 0 and status == "status 1", (rec, status)
    st = assert_no_leak(m, "paging")
    assert st["pageouts"] > 0 and st["pageins"] > 0, st
    assert st["oom_kills"] == len(kills(out)) and st["io_errors"] == 0, st
    assert_alive(m)
    assert_small_hog_works(m)
    assert_no_leak(m, "paging")


# ----- no swap ---------------------------------------------------------------------

@pytest.mark.timeout(TEST_TIMEOUT)
@pytest.mark.parametrize("disk_size, line", [
    (None, "none (no disk): running without swap"),
    ("64K", "the disk is too small (64 KiB, need at least 256 KiB): running without swap"),
], ids=["no-disk", "disk-too-small"])
@pytest.mark.parametrize("pcextra", PAGE_CONTROLS)
def test_mm_paging_without_swap(machine, disk_size, line, pcextra):
    m = boot(machine, "paging", pcextra, disk_size=disk_size)
    assert SWAP_LINE.findall(m.log) == [line]
    st = vmstat(m)
    assert st["swap_total"] == 0, st
    # 12 MiB in one process: more than memory, and nothing to page to
    status, rec, out = run_hog(m, "-p 1 -m 12288 -r 1")
    refused, killed = SBRK_REFUSED.findall(out), kills(out)
    assert len(refused) + len(killed) == 1, out[-3000:]
    assert all(cause == "out of memory" for _, _, cause in killed), killed
    assert rec["failed_children"] == 1 and rec["bad_pages"] == 0, rec
    assert status == "status 1"
    st = assert_no_leak(m, "paging")
    assert st["swap_used"] == 0 and st["pageouts"] == 0, st
    assert_alive(m)
    assert_small_hog_works(m)


# ----- I/O errors on the paging device ----------------------------------------------

@pytest.mark.timeout(TEST_TIMEOUT)
@pytest.mark.parametrize("event", ["write_aio", "read_aio"], ids=["write-errors", "read-errors"])
@pytest.mark.parametrize("pcextra", PAGE_CONTROLS)
def test_mm_paging_io_errors(machine, event, pcextra):
    """Every write (or every read) of the disk fails: the process whose
    fault needs the device is killed with SIGBUS (trap.c: "I/O error on
    the paging device"); the kernel carries on and leaks nothing."""
    rules = [{"event": event, "errno": EIO, **IO_ERROR_WHERE[event]}]
    m = boot(machine, "paging", pcextra, blkdebug=rules)
    procs, kib, rounds = WORKLOADS["paging"]
    status, rec, out = run_hog(m, f"-p {procs} -m {kib} -r {rounds}")
    killed = kills(out)
    assert killed, out[-3000:]
    assert all(cause == IO_CAUSE and name == "hog" for _, name, cause in killed), killed
    by_signal = CHILD_KILLED.findall(out)
    assert sorted(int(p) for p, _ in by_signal) == sorted(p for p, _, _ in killed), out[-3000:]
    assert all(int(sig) == SIGBUS for _, sig in by_signal), by_signal
    assert rec["failed_children"] >= 1 and rec["bad_pages"] == 0, rec
    assert status == "status 1"
    st = assert_no_leak(m, "paging")
    assert st["io_errors"] > 0, st
    if event == "read_aio":
        assert st["pageouts"] > 0, st       # the pages did go out; coming back failed
    assert_alive(m)
