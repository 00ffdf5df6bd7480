"""`make repro-multics QUICK=1` (tools/multics.py --quick): the small
version of the Multics page-control experiments runs, writes its report
with both tables, the idle-time rows for both page controls and a
break-even line, and both plots; the break-even arithmetic is checked on
the host."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import multics  # noqa: E402


def run(pc, duty, idle, elapsed):
    return {"pc": pc, "duty": duty, "idle_fraction": idle, "elapsed_ms": elapsed}


@pytest.mark.host
def test_break_even_interpolates_where_the_daemon_catches_up():
    runs = [run("inline", 100, 0.0, 100), run("daemon", 100, 0.0, 150),
            run("inline", 0, 0.8, 100), run("daemon", 0, 0.8, 50)]
    # +50% at idle 0, -50% at idle 0.8: equal half way.
    assert multics.break_even(runs) == pytest.approx(0.4)


@pytest.mark.host
def test_break_even_none_or_everywhere():
    slower = [run("inline", 0, 0.5, 100), run("daemon", 0, 0.5, 120)]
    assert multics.break_even(slower) is None
    faster = [run("inline", 0, 0.5, 100), run("daemon", 0, 0.5, 80)]
    assert multics.break_even(faster) == 0.0


@pytest.mark.timeout(1800)
def test_repro_multics_quick(build_dir, kernel_elf, initrd_cpio, tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "multics.py"), "--quick",
                           "--kernel", str(kernel_elf), "--initrd", str(initrd_cpio),
                           "--out", str(out), "--workdir", str(tmp_path / "work")],
                          capture_output=True, text=True, timeout=1700)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "[#####" in proc.stderr                      # the progress bar
    md = (out / "multics.md").read_text()
    assert "QUICK=1" in md and "| fault handler |" in md and "| core manager |" in md
    # pc=daemon with a paging device: pages written to it and moved on
    assert "pc=daemon pd=4M" in md and "| RWS moves (paging device to disk) |" in md
    assert "Break-even idle fraction" in md and "the paper's: about 0.80" in md
    data = json.loads((out / "multics.json").read_text())
    pd = data["table"]["daemon_pd"]["table"]
    # Not pd_reads: the quick run's one sequential hog comes back to a page
    # after the FIFO paging device has moved it on (0 or 1 hits a run);
    # tests/test_pd.py checks faults served from the paging device.
    assert pd["pd_stores"] > 0 and pd["rws_moves"] > 0, pd
    assert data["table"]["daemon"]["table"]["pd_reads"] == 0
    assert {r["pc"] for r in data["idle"]} == {"inline", "daemon"}
    assert all(r["faults"] > 0 and 0.0 <= r["idle_fraction"] <= 1.0 for r in data["idle"])
    # The loaded runs had less idle time than the unloaded ones.
    by = {(r["pc"], r["duty"]): r for r in data["idle"]}
    loaded = max(multics.QUICK["duties"])
    assert by[("daemon", loaded)]["idle_fraction"] < by[("daemon", 0)]["idle_fraction"]
    for png in ("multics-cpu.png", "multics-idle.png"):
        assert (out / png).stat().st_size > 0
