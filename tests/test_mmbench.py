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
    assert "| workload elapsed (virtual ms) | 8,283 |" in md
    assert "| swap-out pages | 11,596 |" in md
    assert "| vm.swapin | 4 | 100 | 250 | 400 |" in md
    assert "| fault.zero_frame | 0 | – | – | – |" in md


def test_missing_records_render_as_dashes():
    summary = mmbench.summarize("paging", mmbench.parse_run("no records at all\n"))
    assert summary["elapsed_ms"] is None and summary["meters"] == {}
    assert "| page-ins | – |" in mmbench.markdown([summary])
