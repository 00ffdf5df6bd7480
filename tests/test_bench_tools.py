"""The benchmark tools end to end, in their quick modes (the full `make
bench` and `make mmbench` are not run here): `lat` labels its units from
what the kernel found its counters to count, answers bad arguments with
usage, and report.py and mmbench.py boot, run and write their outputs."""

import json
import subprocess
import sys

import pytest

from qemu_helpers import BOOT_TIMEOUT, run_lat, wait_for_log

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("icount, counters, unit, line", [
    (True, "icount", "instructions", "faultline: counters: instructions (icount, shift=0)"),
    (False, "host", "host-cycles", "faultline: counters: host-timed cycles (no icount)"),
])
def test_lat_unit_follows_the_counters(machine, icount, counters, unit, line):
    m = machine(cpus=1, icount=icount)
    boot = m.expect_prompt(timeout=BOOT_TIMEOUT)
    assert line in boot
    m.send("lat getpid")
    start = m.expect_json(timeout=60)
    assert start == {"lat": "start", "counters": counters, "icount_shift": 0, "harts": 1}
    result = m.expect_json(timeout=120)
    assert result["bench"] == "getpid" and result["unit"] == unit
    if icount:
        assert result["median"] == result["min"]     # instructions: the same every time


def test_lat_usage_and_exit_status(machine):
    m = machine(cpus=1, disk_size=None)
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    out = m.run_shell("lat -h")
    assert "usage: lat [NAME...]" in out and "swapin" in out and "FL-JSON" not in out
    # An unknown name: usage, nothing run, exit status 2 (seen from a
    # background job's status line).
    m.send("lat bogus &")
    m.expect_prompt(timeout=30)
    # Its usage text ends before anything more is typed: a command typed
    # while the background job still prints would have its echo cut by it.
    wait_for_log(m, r"lat: unknown benchmark 'bogus'[\s\S]*docs/measurement\.md\)\r?\n", timeout=30)
    out = m.run_shell("echo next")
    out += m.run_shell("echo again")
    assert "lat: unknown benchmark 'bogus'" in m.log and "done status 2" in out + m.log
    assert '"bench"' not in m.log


def test_lat_reports_what_it_could_not_run(machine):
    """No disk and one hart: pagein and signal_cross cannot run; lat says so
    in FL-JSON and in its exit status, instead of only a line of prose."""
    m = machine(cpus=1, icount=True, disk_size=None)
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    results = run_lat(m, "getpid pagein signal_cross")
    assert results["getpid"]["unit"] == "instructions"
    assert "swap device" in results["pagein"]["failed"]
    assert results["signal_cross"]["failed"] == "it needs 2 harts"


def test_report_quick_run(repo_root, kernel_elf, initrd_cpio, tmp_path):
    out = tmp_path / "bench"
    proc = subprocess.run(
        [sys.executable, str(repo_root / "tools/report.py"), "--kernel", str(kernel_elf),
         "--initrd", str(initrd_cpio), "--out-dir", str(out), "--run", "main",
         "--bench", "getpid", "--bench", "fault_zero"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "all 2 expected benchmarks ran" in proc.stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["missing"] == [] and doc["failed"] == []
    assert doc["benches"]["getpid"]["unit"] == "instructions"
    assert doc["runs"]["main"]["counters"] == "icount"
    assert (out / "paths.png").read_bytes().startswith(PNG_MAGIC)
    assert (out / "console-main.log").exists()
    assert "| main | `(none)` | 2 | 64M | icount | getpid, fault_zero |" in \
        (out / "results.md").read_text()


def test_mmbench_quick_run(repo_root, kernel_elf, initrd_cpio, tmp_path):
    # mm=swap: the quickest of the managers to run a hog twice memory's size.
    out = tmp_path / "mm"
    proc = subprocess.run(
        [sys.executable, str(repo_root / "tools/mmbench.py"), "--kernel", str(kernel_elf),
         "--initrd", str(initrd_cpio), "--quick", "--only", "swap", "--out-dir", str(out),
         "--log-dir", str(tmp_path / "logs")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    results = json.loads((out / "mm.json").read_text())
    swap = results[0]
    assert swap["config"] == "swap" and swap["bad_pages"] == 0
    assert swap["vmstat"]["swapouts"] > 0 and swap["out_per_page"] > 0
    assert "| swap-outs (processes) |" in (out / "mm.md").read_text()
    assert (out / "mm.png").read_bytes().startswith(PNG_MAGIC)
    assert (tmp_path / "logs" / "mmbench-swap-1.log").exists()
