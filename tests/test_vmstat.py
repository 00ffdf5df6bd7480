"""QEMU integration tests of `vmstat`: the text, JSON and table forms
carry every field of struct fl_vmstat, and the bookkeeping agrees (user
frames = resident pages, used slots = swapped pages). Bad arguments give
the usage and status 2."""

import json
import re

from test_hog import wait_after
from test_shell import background, wait_job_done

NO_CALL = "vmstat: this kernel has no vmstat system call (ENOSYS)"
USAGE = re.compile(r"usage: vmstat \[-j\] \[N\]")
VMSTAT_JSON = re.compile(r'FL-JSON (\{"vmstat":"counters".*\})\s*$', re.MULTILINE)
# struct fl_vmstat (include/faultline/abi.h), in order
FIELDS = ["mm", "page_size", "frames_total", "frames_free", "swap_total", "swap_used",
          "faults", "zero_fills", "image_fills", "minor_faults", "pageins", "pageouts",
          "reclaims", "clock_scans", "swapins", "swapouts", "swapin_pages", "swapout_pages",
          "io_errors", "oom_kills", "low_water", "high_water", "frames_user", "resident_total", "swap_owned",
          "zero_maps", "ulf_frames",
          "core_waits", "cm_passes", "cm_freed", "cm_handoffs", "pd_batches", "pd_writes",
          "prezeroed", "zeroed_fills", "frames_zeroed",
          "pd_records", "pd_free", "pd_stores", "pd_reads", "rws_moves", "pd_reclaimed", "pd_full",
          "slots_reaped",
          "pcm_fault_cycles", "pcm_faults", "pcm_coremgr_cycles", "pcm_coremgr_runs",
          "pcm_pdmgr_cycles", "pcm_pdmgr_runs", "pcm_diskirq_cycles", "pcm_diskirqs",
          "pcm_rws_cycles", "pcm_rws_runs",
          "sw_other", "sw_other_cycles", "sw_core_wait", "sw_core_wait_cycles",
          "sw_disk", "sw_disk_cycles", "sw_coremgr", "sw_coremgr_cycles",
          "sw_pdmgr", "sw_pdmgr_cycles", "sw_preempt", "sw_preempt_cycles",
          "pcm_fault_delay_cycles", "idle_cycles", "clock_cycles"]
PAGE_SIZE = 4096
TABLE_COLUMNS = 19
SAMPLES = 2


def run_job(m, cmd, done_pattern, timeout=30):
    """Runs cmd in the background; returns (its exit status text, the
    console text after the echo of the command)."""
    start = len(m.log)
    pid = background(m, cmd)
    wait_after(m, done_pattern, start, timeout)
    status = wait_job_done(m, pid)
    out = m.log[start:]
    # drop the echo of the command line; the job's output may come before
    # or after the shell's "[pid]" line, so that stays
    return status, out[out.index("\n") + 1:]


VMSTAT_STATUS = re.compile(r"^vmstat-status=(\d+)$", re.MULTILINE)


def run_foreground(m, cmd):
    """Runs `cmd` in the foreground; returns (its exit status, its output
    without the status line). In the background its lines could take in
    the shell's next prompt (`..."swap_total$ ":...`, `$    30803 ...`),
    which then shows neither as a prompt nor as the line it interrupted."""
    out = m.run_shell(f"{cmd}; echo vmstat-status=$?")
    status = VMSTAT_STATUS.search(out)
    assert status, out
    return int(status.group(1)), out[:status.start()]


def vmstat_now(m) -> dict:
    """One `vmstat -j` reading (run_foreground)."""
    status, out = run_foreground(m, "vmstat -j")
    assert status == 0, out
    return json.loads(VMSTAT_JSON.search(out).group(1))


def test_vmstat_reports(shell):
    status, out = run_foreground(shell, "vmstat -j")
    assert status == 0, out
    assert NO_CALL not in out
    rec = json.loads(VMSTAT_JSON.search(out).group(1))
    assert list(rec)[2:] == FIELDS, rec
    assert rec["mm"] in ("swap", "paging")
    assert rec["page_size"] == PAGE_SIZE
    assert 0 < rec["frames_free"] <= rec["frames_total"]
    assert rec["swap_used"] <= rec["swap_total"]
    assert rec["frames_user"] == rec["resident_total"] > 0, rec
    assert rec["swap_used"] == rec["swap_owned"], rec
    # An idle 128 MiB machine never nears page control's low water mark.
    assert rec["low_water"] == 0 and rec["high_water"] == 0, rec

    status, out = run_foreground(shell, "vmstat")
    assert status == 0, out
    names = re.findall(r"^(\w+) +\S+\s*$", out, re.MULTILINE)
    assert names == FIELDS, out

    status, out = run_foreground(shell, f"vmstat {SAMPLES}")
    assert status == 0, out
    assert re.search(r"^ +free +swused +faults", out, re.MULTILINE), out
    rows = re.findall(r"^((?: +\d+)+)\s*$", out, re.MULTILINE)
    assert len(rows) == SAMPLES and all(len(r.split()) == TABLE_COLUMNS for r in rows), out


def test_vmstat_bad_arguments(shell):
    for args in ("-x", "0", "3601", "1 2", "-j -j", "12x"):
        status, out = run_job(shell, f"vmstat {args}", USAGE)
        assert status == "status 2", (args, out)
        assert "FL-JSON" not in out
