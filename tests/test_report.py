"""Host tests of tools/report.py and tools/plot_hist.py: a synthetic console
log in `lat`'s format goes through the parser, the tables, the Cache Kernel
comparison and the plots. No QEMU and no kernel build are needed."""

import json

import pytest

import report

pytestmark = pytest.mark.host

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def stats(lo, med, mean, p90, hi, **extra):
    return dict({"min": lo, "median": med, "mean": mean, "p90": p90, "max": hi}, **extra)


def fl(obj):
    return report.fq.JSON_TAG + json.dumps(obj)


# Round numbers chosen so that every expected ratio below is exact.
GETPID = dict(stats(200, 200, 201.5, 202, 400), bench="getpid", unit="instructions",
              n=1000, warmup=100, overhead=6,
              hist=[[128, 256, 990], [256, 512, 10]])
NOP = dict(stats(180, 181, 181.0, 182, 300), bench="nop", unit="instructions",
           n=1000, warmup=100, overhead=6, hist=[[128, 256, 1000]])
SIGNAL_CROSS = dict(stats(1500, 1600, 1610.2, 1700, 3000), bench="signal_cross",
                    unit="instructions", n=100, warmup=10, overhead=6,
                    hist=[[1024, 2048, 99], [2048, 4096, 1]],
                    parts={"delivery": stats(900, 1000, 1005.0, 1050, 2000),
                           "return": stats(550, 600, 601.0, 620, 900)})
# Parts taken from kernel meters have a mean but no median (no samples kept).
METER_PART = {"unit": "cycles", "n": 100, "min": 100, "mean": 100.0, "max": 100}
FAULT_ZERO = dict(stats(2000, 2200, 2210.0, 2300, 5000), bench="fault_zero",
                  unit="instructions", n=100, warmup=0, overhead=6,
                  hist=[[2048, 4096, 99], [4096, 8192, 1]],
                  parts={"zeroing": stats(1500, 1600, 1600.0, 1600, 1700),
                         "entry_to_frame": METER_PART, "frame_to_map": None})
SIGNAL_SELF = dict(stats(700, 710, 712.0, 720, 900), bench="signal_self",
                   unit="instructions", n=100, warmup=10, overhead=6,
                   hist=[[512, 1023, 100]])   # upper bound inclusive, as lat prints it
SIGRETURN = dict(stats(250, 260, 261.0, 270, 400), bench="sigreturn",
                 unit="instructions", n=100, warmup=10, overhead=6,
                 hist=[[128, 256, 2], [256, 512, 98]])
# segv_catch is left out on purpose: it must show up as missing.

METERS = {"bench": "fault_zero", "meters": [
    {"event": "syscall.entry", "hart": 0, "unit": "cycles", "count": 10, "min": 40,
     "max": 60, "sum": 500, "hist": [[32, 64, 10]]},
    {"event": "syscall.entry", "hart": 1, "unit": "cycles", "count": 10, "min": 40,
     "max": 60, "sum": 500, "hist": [[32, 64, 10]]},
    {"event": "fault.entry_to_frame", "hart": 0, "unit": "cycles", "count": 4, "min": 100,
     "max": 100, "sum": 400, "hist": [[64, 128, 4]]},
    {"event": "fault.frame_to_map", "hart": 0, "unit": "cycles", "count": 4, "min": 150,
     "max": 150, "sum": 600, "hist": [[128, 256, 4]]},
    {"event": "fault.map_to_exit", "hart": 0, "unit": "cycles", "count": 4, "min": 50,
     "max": 50, "sum": 200, "hist": [[32, 64, 4]]},
    {"event": "signal.post_to_ipi", "hart": -1, "unit": "cycles", "count": 0, "min": 0,
     "max": 0, "sum": 0, "hist": []},
]}

START = {"lat": "start", "counters": "icount", "icount_shift": 0, "harts": 2}
# The benchmarks this log was meant to hold (lat NAME... in one boot).
EXPECTED = ("getpid", "nop", "signal_self", "sigreturn", "signal_cross", "fault_zero",
            "segv_catch")
SEGV = dict(stats(1000, 1000, 1000.0, 1000, 1000), bench="segv_catch", unit="instructions",
            n=1000, warmup=100, overhead=1, hist=[[512, 1023, 1000]])

CONSOLE = "\r\n".join([
    "faultline 0.1 (riscv64) booting on hart 0",
    "faultline: harts: 2 (boot hart 0)",
    "faultline: counters: instructions (icount, shift=0)",
    "faultline: hart 1 online",
    "$ lat",
    fl(START),
    fl(GETPID), fl({"bench": "getpid", "meters": [
        {"event": "syscall.entry", "hart": -1, "unit": "cycles", "count": 3, "min": 1,
         "max": 1, "sum": 3, "hist": [[1, 1, 3]]}]}),
    fl(NOP), fl(SIGNAL_SELF), fl(SIGRETURN), fl(SIGNAL_CROSS), fl(FAULT_ZERO),
    "FL-JSON {not json",
    fl(METERS),
    fl({"lat": "done"}),
    "$ ",
]) + "\r\n"


@pytest.fixture
def parsed():
    return report.parse_console(CONSOLE, EXPECTED)


def test_parse_groups_objects(parsed):
    assert set(parsed["benches"]) == {"getpid", "nop", "signal_self", "sigreturn",
                                      "signal_cross", "fault_zero"}
    assert parsed["benches"]["signal_cross"]["parts"]["delivery"]["median"] == 1000
    # Meters objects name their benchmark but are not benchmark results.
    assert parsed["benches"]["getpid"] == GETPID
    assert set(parsed["meters_by_bench"]) == {"getpid", "fault_zero"}
    assert len(parsed["meters_by_bench"]["fault_zero"]) == len(METERS["meters"])
    assert len(parsed["meters"]) == len(METERS["meters"]) + 1
    assert {m["bench"] for m in parsed["meters"]} == {"getpid", "fault_zero"}
    assert parsed["done"] is True
    assert len(parsed["errors"]) == 1 and "line" in parsed["errors"][0]
    assert report.missing_benches(parsed) == ["segv_catch"]


def test_no_done_line_is_noticed():
    text = CONSOLE.replace(fl({"lat": "done"}), "")
    assert report.parse_console(text)["done"] is False
    md = report.results_markdown(report.parse_console(text), {})
    assert "did not finish" in md and "**Unfinished:**" in md


def test_meter_mean_pools_harts_without_double_counting(parsed):
    fault_meters = parsed["meters_by_bench"]["fault_zero"]
    assert report.meter_mean(fault_meters, "syscall.entry") == 50
    both = fault_meters + [{"event": "syscall.entry", "hart": -1, "count": 4, "sum": 400}]
    assert report.meter_mean(both, "syscall.entry") == 100     # the all-harts meter only
    assert report.meter_mean(fault_meters, "signal.post_to_ipi") is None
    assert report.meter_mean(fault_meters, "no.such.event") is None


def test_comparison_ratios(parsed):
    cmp = report.comparison(parsed)
    rows = {r["operation"].strip(): r for r in cmp["rows"]}
    assert rows["trap (getpid)"]["faultline"] == 200
    assert rows["trap (getpid)"]["paper_us"] == 37
    assert rows["page fault (without zeroing)"]["faultline"] == 2200 - 1600
    # Transfer from fault_zero's part (its mean); mapping from the meters
    # read after fault_zero, since its frame_to_map part is null.
    assert rows["transfer to handler"]["faultline"] == 100
    assert rows["mapping load"]["faultline"] == 150 + 50
    assert rows["null call, full trap path"]["faultline"] == 181

    shapes = {s["ratio"]: s for s in cmp["shapes"]}
    assert shapes["cross-CPU signal / trap"]["faultline"] == pytest.approx(1600 / 200)
    assert shapes["cross-CPU signal / trap"]["paper"] == pytest.approx(71 / 37)
    assert shapes["page fault / trap"]["faultline"] == pytest.approx(600 / 200)
    assert shapes["page fault / null call (nop)"]["faultline"] == pytest.approx(600 / 181)
    assert shapes["signal delivery / return"]["faultline"] == pytest.approx(1000 / 600)
    assert shapes["signal delivery / return"]["paper"] == pytest.approx(44 / 27)
    share = shapes["signal delivery share of delivery + return"]
    assert share["faultline"] == pytest.approx(1000 / 1600)
    assert share["paper"] == pytest.approx(44 / 71)
    assert shapes["fault transfer / mapping load"]["faultline"] == pytest.approx(100 / 200)
    assert shapes["fault transfer / mapping load"]["paper"] == pytest.approx(32 / 67)


def test_comparison_without_data_is_not_faked():
    parsed = report.parse_console(fl(GETPID) + "\n")
    cmp = report.comparison(parsed)
    rows = {r["operation"].strip(): r["faultline"] for r in cmp["rows"]}
    assert rows["trap (getpid)"] == 200
    assert all(v is None for k, v in rows.items() if k != "trap (getpid)")
    assert rows["transfer to handler"] is None
    assert all(s["faultline"] is None for s in cmp["shapes"])
    assert all(s["paper"] is not None for s in cmp["shapes"])


def test_results_markdown(parsed):
    md = report.results_markdown(parsed, {"date": "2024-01-01", "git_commit": "abc",
                                          "qemu_version": "7.2.0", "cpus": 2,
                                          "icount": True})
    lines = md.splitlines()
    getpid = next(l for l in lines if l.startswith("| getpid |"))
    assert getpid.split(" | ")[1:] == ["", "instructions", "1000", "6", "200", "200", "201.5",
                                        "202", "400 |"]
    assert any(l.startswith("| signal_cross.delivery |") and "| 1000 |" in l for l in lines)
    assert any(l.startswith("| fault_zero.zeroing |") for l in lines)
    # A part from a kernel meter has no median; a null part has nothing.
    assert ("| fault_zero.entry_to_frame |  | cycles | 100 | n/a | 100 | n/a | 100 | n/a | 100 |"
            in md)
    assert "| fault_zero.frame_to_map |  | not measured |  |  | n/a |" in md
    segv = next(l for l in lines if l.startswith("| segv_catch |"))
    assert segv.count(report.MISSING) == 1 + len(report.STATS)
    assert "**Missing** (expected, but `lat` printed nothing for them): `segv_catch`." in md
    # The unit is what the kernel found its counters to count.
    assert "counting instructions" in md and "host-cycles" not in md
    assert "| operation | Cache Kernel (us, 25 MHz 68040) | faultline source | " \
           "faultline (instructions) |" in md
    # The comparison: paper figures, faultline values and the shape ratios.
    assert "25 MHz 68040" in md and "shapes" in md
    assert "| trap (getpid) | 37 | getpid | 200 |" in md
    assert "| signal delivery / return | 1.63 | 1.67 |" in md
    assert "| signal delivery share of delivery + return | 62% | 62% |" in md
    assert "| page fault / trap | 2.68 | 3.00 |" in md
    assert "icount shift=0" in md and "7.2.0" in md
    assert "Unparsed lines" in md


def test_meters_markdown(parsed):
    md = report.meters_markdown(parsed)
    assert "| syscall.entry | 0 | cycles | 10 | 40 | 50 | 60 | 500 |" in md
    assert "## during `getpid`" in md and "## during `fault_zero`" in md
    assert "| syscall.entry | all | cycles | 3 | 1 | 1 | 1 | 3 |" in md
    assert "signal.post_to_ipi" not in md       # counted nothing: left out
    empty = report.meters_markdown(report.parse_console(fl(GETPID)))
    assert "No meters" in empty


def test_write_reports(parsed, tmp_path):
    meta = report.metadata(CONSOLE, cpus=None, icount=None, source="test", qemu_ver=None)
    assert meta["cpus"] == 2 and meta["kernel_version"] == "0.1"
    paths = report.write_reports(parsed, meta, tmp_path)

    doc = json.loads((tmp_path / "results.json").read_text())
    assert doc["metadata"]["cpus"] == 2 and doc["metadata"]["source"] == "test"
    assert doc["benches"]["getpid"] == GETPID
    assert doc["missing"] == ["segv_catch"] and doc["failed"] == []
    assert doc["done"] is True and len(doc["meters"]) == len(METERS["meters"]) + 1
    assert doc["comparison"]["rows"][0]["faultline"] == 200

    md = (tmp_path / "results.md").read_text()
    assert md.startswith("# faultline benchmark results")
    assert "syscall.entry" in (tmp_path / "meters.md").read_text()
    # The paths chart, and histograms only where the samples spread: getpid
    # (10 of 1000 at twice the rest) and sigreturn; one slow sample in 100
    # (signal_cross, fault_zero) is an outlier, said in words.
    expected = {"paths.png", "hist-getpid.png", "hist-sigreturn.png"}
    assert {p.name for p in paths["plots"]} == expected
    for name in expected:
        assert (tmp_path / name).read_bytes().startswith(PNG_MAGIC), name
    assert "- `signal_self`: all 100 samples in one log2 bucket, 512..1023" in md
    assert "- `fault_zero`: 99 of 100 samples in 2048..4096, 1 outside it" in md
    assert "see `hist-getpid.png`" in md


def test_main_with_input_log(tmp_path, capsys):
    log = tmp_path / "console.log"
    log.write_text(CONSOLE)
    out = tmp_path / "out"
    only = [a for name in EXPECTED for a in ("--bench", name)]
    # segv_catch is not in the log: the run fails, and says which.
    assert report.main(["--input", str(log), "--out-dir", str(out), "--no-plots"] + only) == 1
    assert "MISSING: segv_catch" in capsys.readouterr().err
    doc = json.loads((out / "results.json").read_text())
    assert doc["metadata"]["source"] == str(log) and doc["missing"] == ["segv_catch"]
    assert doc["metadata"]["icount"] is True        # from the kernel's counters line
    assert not list(out.glob("*.png"))
    assert "`segv_catch`" in (out / "results.md").read_text()

    # With it, every expected benchmark ran: success.
    log.write_text(CONSOLE.replace(fl({"lat": "done"}), fl(SEGV) + "\r\n" + fl({"lat": "done"})))
    assert report.main(["--input", str(log), "--out-dir", str(out), "--no-plots"] + only) == 0
    assert "all 7 expected benchmarks ran" in capsys.readouterr().err

    # Without --bench, a log of one boot is expected to hold every benchmark.
    assert report.main(["--input", str(log), "--out-dir", str(out), "--no-plots"]) == 1
    err = capsys.readouterr().err
    assert all(f"MISSING: {name}" in err for name in ("minor_fault", "pagein", "swapin"))

    # A log where lat never ran: no benchmarks, no done line -> failure status.
    empty = tmp_path / "empty.log"
    empty.write_text("$ lat\nsh: lat: not found\n$ ")
    assert report.main(["--input", str(empty), "--out-dir", str(out), "--no-plots"]) == 1
    md = (out / "results.md").read_text()
    assert all(f"| {name} |  | missing |" in md for name in report.BENCH_NAMES)


def test_failed_benchmark_is_named_and_fails_the_run(tmp_path, capsys):
    """`lat` could not run pagein (no disk): the report says so, it is not
    counted as run, and the exit status is 1."""
    failed = fl({"bench": "pagein", "failed": "vmctl: no space left (it needs a swap device: a disk)"})
    log = tmp_path / "console-main.log"          # the main run: expects pagein
    log.write_text(CONSOLE.replace(fl({"lat": "done"}), failed + "\r\n" + fl({"lat": "done"})))
    out = tmp_path / "out"
    assert report.main(["--input", str(log), "--out-dir", str(out), "--no-plots",
                        "--bench", "getpid", "--bench", "pagein"]) == 1
    assert "FAILED: pagein: vmctl: no space left" in capsys.readouterr().err
    md = (out / "results.md").read_text()
    assert "**Failed** (`lat` could not run them):" in md
    assert "- `pagein`: vmctl: no space left (it needs a swap device: a disk)" in md
    assert "| pagein |  | failed |" in md


def test_runs_cover_every_benchmark_once():
    """Each benchmark is expected in exactly one primary configuration, in
    the one it needs: pagein with a disk, swapin under mm=swap with a disk,
    signal_cross with the harts of --cpus."""
    where = {n: r for r in report.RUNS if r.primary for n in r.expected()}
    assert sorted(where) == sorted(report.BENCH_NAMES)
    assert where["pagein"].disk_size and where["swapin"].disk_size
    assert "mm=swap" in where["swapin"].append
    assert where["signal_cross"].cpus is None        # --cpus, 2 by default
    assert "meters=off" in report.RUNS_BY_NAME["nometers"].append


def test_host_timed_log_is_labelled(tmp_path):
    host = CONSOLE.replace(fl(START), fl(dict(START, counters="host")))
    host = host.replace('"unit": "instructions"', '"unit": "host-cycles"')
    md = report.results_markdown(report.parse_console(host, EXPECTED), {})
    assert "**Host-timed:**" in md and "faultline (host-cycles)" in md
    assert "| getpid |  | host-cycles |" in md


def test_histogram_helpers(tmp_path):
    import plot_hist
    # Upper bounds inclusive (lat) or exclusive give the same log2 edges.
    assert plot_hist.normalize_hist([[4, 7, 2], [0, 1, 3], [8, 16, 0], ["x"]]) == [
        (0.0, 1.0, 3), (4.0, 8.0, 2)]
    assert plot_hist.normalize_hist([[4, 8, 2]]) == [(4.0, 8.0, 2)]
    assert plot_hist.plot_histogram(tmp_path / "none.png", "empty", []) is None
    assert not (tmp_path / "none.png").exists()
    path = plot_hist.plot_histogram(tmp_path / "zero.png", "with a zero bucket",
                                    [[0, 1, 3], [1, 2, 1]])
    assert path.read_bytes().startswith(PNG_MAGIC)
    # Worth a histogram: two buckets each with a real share, and a range.
    assert plot_hist.spread([[512, 1023, 60], [8192, 16383, 4]], {"min": 600, "max": 9000})
    assert not plot_hist.spread([[512, 1023, 999], [2048, 4095, 1]])      # one outlier
    assert not plot_hist.spread([[512, 1023, 500], [1024, 2047, 500]],
                                {"min": 1019, "max": 1024})              # a bucket edge
    assert not plot_hist.spread([[512, 1023, 1000]])


def test_paths_chart_rows():
    import plot_hist
    panels = plot_hist.path_rows({"getpid": GETPID, "fault_zero": FAULT_ZERO,
                                  "signal_cross": SIGNAL_CROSS})
    titles = [t for t, _, _ in panels]
    assert titles == ["system calls and signals", "page faults"]
    faults = dict((label, segs) for label, segs, _ in panels[1][1])
    # fault_zero's median 2200: zeroing 1600 (mean), entry_to_frame 100,
    # frame_to_map not measured; the rest is what the parts leave.
    assert dict(faults["fault_zero"]) == {"rest": 500.0, "entry_to_frame": 100.0,
                                          "zeroing": 1600.0}
    assert panels[0][2].startswith("instructions")
