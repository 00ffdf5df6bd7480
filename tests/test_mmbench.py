"""Host tests of tools/mmbench.py's parsing and rendering (no QEMU)."""

import json

import pytest

import mmbench

pytestmark = pytest.mark.host

CONSOLE = """faultline: mm: swap
$ lat meters
FL-JSON {"meters":[{"event":"vm.swapin","hart":-1,"unit":"cycles","count":3,"min":10,"max":50,"sum":90,"hist":[]}],"bench":"meters"}
FL-JSON {"lat":"done"}
$ hog -p 8 -m 4096 -r 2
$ FL-JSON {"bench":"hog","procs":8,"kib_per_proc":4096,"rounds":2,"mem":"sbrk","forkexec":false,"pages_checked":24576,"bad_pages":0,"failed_children":0,"elapsed_ms":8283}
$ lat meters
FL-JSON {"meters":[{"event":"syscall.entry","hart":-1,"unit":"cycles","count":9,"min":1,"max":2,"sum":12,"hist":[]},{"event":"vm.swapin","hart":-1,"unit":"cycles","count":4,"min":100,"max":400,"sum":1000,"hist":[]},{"event":"fault.zero_frame","hart":-1,"unit":"cycles","count":0,"min":0,"max":0,"sum":0,"hist":[]}],"bench":"meters"}
FL-JSON {"lat":"done"}
$ vmstat -j
FL-JSON {"vmstat":"counters","uptime_ms":8527,"mm":"swap","page_size":4096,"faults":8217,"zero_fills":8221,"minor_faults":0,"pageins":1,"pageouts":0,"reclaims":0,"clock_scans":0,"swapins":38,"swapouts":39,"swapin_pages":11591,"swapout_pages":11596,"io_errors":0,"oom_kills":0}
"""


def test_parse_run_takes_the_hog_vmstat_and_last_meters():
    parsed = mmbench.parse_run(CONSOLE)
    assert parsed["hog"]["elapsed_ms"] == 8283          # after a "$ " prompt
    assert parsed["vmstat"]["swapouts"] == 39
    # the meters after the hog run, only the memory-manager events
    assert sorted(parsed["meters"]) == ["fault.zero_frame", "vm.swapin"]
    assert parsed["meters"]["vm.swapin"]["count"] == 4


def test_summary_and_markdown():
    summary = mmbench.summarize("swap", mmbench.parse_run(CONSOLE))
    assert summary["meters"]["vm.swapin"] == {"count": 4, "min": 100, "mean": 250.0, "max": 400}
    assert summary["meters"]["fault.zero_frame"] == {"count": 0, "min": None, "mean": None,
                                                     "max": None}
    assert summary["vmstat"]["swapin_pages"] == 11591 and summary["elapsed_ms"] == 8283
    json.dumps(summary)
    md = mmbench.markdown([summary])
    assert "## swap: `mm=swap mem=8M`, `hog -p 8 -m 4096 -r 2`" in md
    assert "| workload elapsed (virtual ms) | 8,283 | 8,283 |" in md
    assert "| swap-out pages | 11,596 | 11,596 |" in md
    assert "| vm.swapin | 4 | 100 | 250 | 400 |" in md
    assert "| fault.zero_frame | 0 | – | – | – |" in md


def test_missing_records_render_as_dashes():
    summary = mmbench.summarize("paging", mmbench.parse_run("no records at all\n"))
    assert summary["elapsed_ms"] is None and summary["meters"] == {}
    assert "| page-ins | – | – |" in mmbench.markdown([summary])


def test_repeated_runs_mark_what_moved():
    """Two runs of one manager: figures that differ are shown as a range and
    per run, figures that agree as one number; the note says why they move."""
    first = mmbench.summarize("swap", mmbench.parse_run(CONSOLE))
    second = mmbench.summarize("swap", mmbench.parse_run(
        CONSOLE.replace('"swapouts":39', '"swapouts":50').replace('"elapsed_ms":8283',
                                                                  '"elapsed_ms":9000')))
    combined = mmbench.combine_runs([first, second])
    assert combined["n_runs"] == 2
    assert combined["vmstat_min"]["swapouts"] == 39 and combined["vmstat_max"]["swapouts"] == 50
    md = mmbench.markdown([combined])
    assert "| swap-outs (processes) | 39 | 50 | 39 .. 50 |" in md
    assert "| pages checked | 24,576 | 24,576 | 24,576 |" in md
    assert "| workload elapsed (virtual ms) | 8,283 | 9,000 | 8,283 .. 9,000 |" in md
    assert "Which figures move, and why" in md and "SWAP_MIN_IN_MS" in md
    block = mmbench.summary_markdown([combined])
    # No swap-out meter in this log: no own work per page out ("–"); the
    # elapsed time in virtual seconds.
    assert ("| `mm=swap mem=8M` | 24,576 / 0 | 11,596 | 11,591 | 39 .. 50 swap-outs | – | 0 "
            "| 8 .. 9 |") in block
    assert "2 run(s) per manager" in block
    # Own work per page in: the swap-ins' 1000 cycles over the 11591 pages
    # they brought and the one paged in (vm.pagein counted nothing here).
    assert combined["in_per_page"] == pytest.approx(1000 / (11591 + 1))


def test_output_goes_to_build_unless_docs_are_asked_for():
    assert mmbench.parse_args([]).out_dir.as_posix() == "build/mmbench"
    import subprocess
    root = mmbench.Path(mmbench.__file__).resolve().parent.parent

    def command(*extra):
        out = subprocess.run(["make", "-n", "-s", "mmbench", *extra], cwd=root, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        out = out.replace("\\\n", " ")          # the rule's continued lines
        return next(line for line in out.splitlines() if "tools/mmbench.py" in line)
    plain = command()
    assert "--out-dir build/mmbench" in plain and "docs" not in plain
    docs = command("DOCS=1")
    assert "--out-dir docs/results" in docs and "--docs-md docs/measurement.md" in docs


def test_logs_of_one_configuration_only(tmp_path):
    for name in ("mmbench-paging-2.log", "mmbench-paging-1.log", "mmbench-paging-sw-1.log",
                 "mmbench-paging-10.log"):
        (tmp_path / name).write_text("")
    assert [p.name for p in mmbench.logs_of(tmp_path, "paging")] == [
        "mmbench-paging-1.log", "mmbench-paging-2.log", "mmbench-paging-10.log"]
    assert [p.name for p in mmbench.logs_of(tmp_path, "paging-sw")] == ["mmbench-paging-sw-1.log"]
