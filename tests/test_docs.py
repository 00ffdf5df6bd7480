"""docs/ quotes figures the tools produce (`make docs-results`): what is
committed must be exactly what the tools render from the committed data,
so a hand edit, a stale table or a format change without regenerating
fails here. The numbers themselves are not checked (some move between
runs); their format and their agreement with the data are. Host only."""

import json
from pathlib import Path

import pytest

import docblocks
import fastpath_table
import mmbench
import report

pytestmark = pytest.mark.host

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"
MEASUREMENT = ROOT / "docs" / "measurement.md"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def bench_doc():
    return json.loads((RESULTS / "results.json").read_text())


@pytest.fixture(scope="module")
def mm_results():
    return json.loads((RESULTS / "mm.json").read_text())


def test_bench_reports_are_what_the_tool_renders(bench_doc):
    parsed = report.parsed_from_doc(bench_doc)
    meta = bench_doc["metadata"]
    assert (RESULTS / "results.md").read_text() == report.results_markdown(
        parsed, meta, bench_doc["plots"])
    assert (RESULTS / "meters.md").read_text() == report.meters_markdown(parsed)
    quoted = docblocks.block(MEASUREMENT.read_text(), "bench-summary")
    assert quoted == report.summary_markdown(parsed, meta)
    targets = docblocks.block(MEASUREMENT.read_text(), "fastpath-targets")
    assert targets == fastpath_table.table_markdown(parsed)


def _bench(median, **parts):
    return {"median": median, "parts": {k: {"mean": v} for k, v in parts.items()}}


def test_fastpath_met_is_worked_out_from_the_run():
    parsed = {
        "benches": {"nop": _bench(140), "kill_self": _bench(601), "sigpingpong": _bench(1500),
                    "sigpingpong_cross": _bench(1999), "fault_zero": _bench(861, zeroing=561),
                    "fault_read": _bench(300), "fork": _bench(40000),
                    "fork_used": {"median": 42001, "parts": {"before": {"mean": 40000}}},
                    "yield": _bench(400)},
        "runs": {"nometers": {"benches": {"nop": _bench(81)}}},
        "meters": [{"event": "meter.self", "min": 15}, {"event": "meter.self", "min": 14}],
    }
    met = {}
    for line in fastpath_table.table_markdown(parsed).splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        met[cells[0]] = (cells[2], cells[4])
    rows = [r.label for r in fastpath_table.ROWS]
    assert met[rows[0]] == ("140 / 81", "no")           # meters off 81 > 80
    assert met[rows[1]] == ("14", "yes")                # the cheapest record
    assert met[rows[2]] == ("601", "no")
    assert met[rows[3]] == ("1,500 / 1,999", "yes")
    assert met[rows[4]] == ("861, 561", "yes")          # 300 beyond the zeroing, exactly
    assert met[rows[5]] == ("300", "yes")
    assert met[rows[6]] == ("40,000", "yes")
    assert met[rows[7]] == ("42,001 (the forks before it: 40,000)", "no")   # 5.0025% over
    assert met[rows[8]] == ("400", "yes")
    # a benchmark the run lacks is missing, and its row not met
    del parsed["benches"]["yield"]
    last = fastpath_table.table_markdown(parsed).splitlines()[-1]
    assert "| missing |" in last and "| no |" in last


def test_committed_bench_run_is_complete(bench_doc):
    """The run kept in docs/ is a whole `make bench` under icount: every
    benchmark in its configuration, none missing or failed, and the plots
    it lists are there (and no stale one besides)."""
    assert bench_doc["missing"] == [] and bench_doc["failed"] == []
    assert bench_doc["unfinished"] == []
    assert set(bench_doc["benches"]) == set(report.BENCH_NAMES)
    assert set(bench_doc["runs"]) == {r.name for r in report.RUNS}
    assert all(r["counters"] == "icount" for r in bench_doc["runs"].values())
    assert all(b["unit"] in ("instructions", "cycles") for b in bench_doc["benches"].values())
    assert "paths.png" in bench_doc["plots"]
    for name in bench_doc["plots"]:
        assert (RESULTS / name).read_bytes().startswith(PNG_MAGIC), name
    # mm.png is mmbench's; multics-*.png are make repro-multics' (tools/multics.py);
    # unix-*.png are make repro-unix's (tools/repro_unix.py).
    others = {"mm.png", "multics-cpu.png", "multics-idle.png",
              "unix-fig1-2.png", "unix-man.png", "unix-cpu.png", "unix-cc.png"}
    pngs = {p.name for p in RESULTS.glob("*.png")} - others
    assert pngs == set(bench_doc["plots"])
    for run in report.RUNS:
        assert (RESULTS / f"console-{run.name}.log").exists()


def test_mm_reports_are_what_the_tool_renders(mm_results):
    assert [r["config"] for r in mm_results] == list(mmbench.CONFIGS)
    assert all(r["n_runs"] >= 2 for r in mm_results)        # repeated: what moves shows
    assert (RESULTS / "mm.md").read_text() == mmbench.markdown(mm_results)
    quoted = docblocks.block(MEASUREMENT.read_text(), "mm-summary")
    assert quoted == mmbench.summary_markdown(mm_results)
    assert (RESULTS / "mm.png").read_bytes().startswith(PNG_MAGIC)
    assert all(r["bad_pages_max"] == 0 for r in mm_results)


def test_generated_blocks(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text("intro\n<!-- begin:x -->\nold\n<!-- end:x -->\ntail\n")
    assert docblocks.rewrite(doc, {"x": "new | table"}) == ["x"]
    assert doc.read_text() == "intro\n<!-- begin:x -->\nnew | table\n<!-- end:x -->\ntail\n"
    assert docblocks.rewrite(doc, {"x": "new | table\n"}) == []
    with pytest.raises(docblocks.BlockError):
        docblocks.rewrite(doc, {"missing": "text"})
