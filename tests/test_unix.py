"""The paged-versus-swapped experiment (tools/repro_unix.py, papers/003):
its statistics on the host (percentiles, the paper's neighbour smoothing,
grouping by load, the probe log's parsing, the comparisons the findings
rest on), and `make repro-unix QUICK=1` run into a temporary directory:
the log parsed, every task timed under both managers, the report and the
plots written."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import repro_unix  # noqa: E402
import unixstats as st  # noqa: E402


def rec(mm, task, users, procs, real):
    return {"mm": mm, "task": task, "users": users, "procs": procs, "real": real}


@pytest.mark.host
def test_percentile_interpolates_between_ranks():
    assert st.percentile([1, 2, 3, 4], 50) == 2.5
    assert st.percentile([4, 1, 3, 2], 75) == pytest.approx(3.25)
    assert st.percentile([10], 90) == 10
    assert st.percentile([0, 10], 90) == pytest.approx(9.0)
    assert st.percentile(range(101), 90) == 90
    with pytest.raises(ValueError):
        st.percentile([], 50)
    with pytest.raises(ValueError):
        st.percentile([1], 101)


@pytest.mark.host
def test_summary_of_a_skewed_sample():
    s = st.summary([1, 1, 1, 1, 6])
    assert s == {"n": 5, "median": 1, "mean": 2.0, "p75": 1, "p90": pytest.approx(4.0)}
    assert s["median"] < s["mean"]          # outliers high, as in the paper's data


@pytest.mark.host
def test_group_by_users_and_by_processes():
    rs = [rec("swap", "man", 1, 3, 1.0), rec("swap", "man", 1, 4, 2.0),
          rec("swap", "cc", 1, 3, 9.0), rec("paging", "man", 1, 3, 5.0),
          rec("swap", "man", 2, 4, 3.0)]
    assert st.group(rs, "man", "swap", "users") == {1: [1.0, 2.0], 2: [3.0]}
    assert st.group(rs, "man", "swap", "procs") == {3: [1.0], 4: [2.0, 3.0]}
    assert list(st.group(rs, "man", "swap", "procs")) == [3, 4]        # sorted levels
    with pytest.raises(ValueError):
        st.group(rs, "man", "swap", "load")


@pytest.mark.host
def test_smoothing_pools_the_neighbouring_levels():
    groups = {1: [1.0, 2.0], 2: [10.0], 3: [3.0, 4.0, 5.0], 5: [7.0]}
    s = st.smoothed_p75(groups)
    assert s[1] == st.percentile([1.0, 2.0, 10.0], 75)          # levels 0 (none), 1, 2
    assert s[2] == st.percentile([1.0, 2.0, 10.0, 3.0, 4.0, 5.0], 75)
    assert s[3] == st.percentile([10.0, 3.0, 4.0, 5.0], 75)     # 4 is empty
    assert s[5] == 7.0                                           # no neighbours
    assert set(s) == set(groups)


@pytest.mark.host
def test_curves_carry_every_statistic():
    c = st.curves({2: [1.0, 3.0]})
    assert c[2]["n"] == 2 and c[2]["median"] == 2.0 and c[2]["p75s"] == c[2]["p75"]


@pytest.mark.host
def test_parse_log_records_load_and_times():
    log = "\n".join([
        "probe log",
        "task man 0", "users 2 processes 7", "real 1.786s user 0.807s sys 0.724s",
        "task cpu 0", "2 9", "real 2.500s user 2.400s sys 0.010s",
        "task cc 0", "users 2 processes 8", "cc: wordfreq.c:3: something", "real 18.304s user 12.533s sys 3.772s",
        "task man 1", "real 1.000s user 0.500s sys 0.100s",       # no load line: dropped
        "task cpu 1", "users 3 processes 9",                     # no time line: dropped
        "task cc 1", "users 1 processes 2", "real 9.000s user 8.000s sys 1.000s",
    ])
    rs = st.parse_log(log, mm="swap", users_set=2)
    assert [(r["task"], r["iter"], r["users"], r["procs"], r["real"]) for r in rs] == [
        ("man", 0, 2, 7, 1.786), ("cpu", 0, 2, 9, 2.5), ("cc", 0, 2, 8, 18.304), ("cc", 1, 1, 2, 9.0)]
    assert rs[0]["mm"] == "swap" and rs[0]["users_set"] == 2
    assert rs[0]["user"] == 0.807 and rs[0]["sys"] == 0.724


@pytest.mark.host
def test_pearson():
    assert st.pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert st.pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert st.pearson([1, 1, 1], [1, 2, 3]) is None
    assert st.pearson([1], [1]) is None


@pytest.mark.host
def test_compare_counts_levels_and_ratio():
    a = {1: {"p75s": 1.0}, 2: {"p75s": 4.0}, 3: {"p75s": 2.0}}
    b = {1: {"p75s": 2.0}, 2: {"p75s": 4.0}, 4: {"p75s": 1.0}}
    c = st.compare(a, b)
    assert c["levels"] == 2 and c["a_lower"] == 1 and c["b_lower"] == 0
    assert c["ratio"] == pytest.approx((0.5 * 1.0) ** 0.5)
    assert st.compare(a, {})["ratio"] is None


def synthetic(cpu_paging, cc_paging, man_paging, procs_better=True):
    """Records whose response grows with load, the managers differing by
    the given factors (paging over swap)."""
    rs = []
    for mm in repro_unix.MANAGERS:
        for users in range(1, 5):
            for k in range(4):
                procs = users * 2 + k
                load = procs if procs_better else users * 2 + (3 - k) * 3
                for task, base, f in (("cpu", 2.0, cpu_paging), ("cc", 10.0, cc_paging),
                                      ("man", 1.0, man_paging)):
                    real = base * load * (f if mm == "paging" else 1.0)
                    rs.append(rec(mm, task, users, procs, real))
    return rs


@pytest.mark.host
def test_verdicts_follow_the_numbers():
    v = repro_unix.verdicts(repro_unix.analyse(synthetic(0.8, 1.5, 1.05)))
    assert v["cpu"][0] and v["cc"][0] and v["man"][0] and v["predictor"][0]
    v = repro_unix.verdicts(repro_unix.analyse(synthetic(1.2, 0.7, 2.0, procs_better=False)))
    assert not (v["cpu"][0] or v["cc"][0] or v["man"][0] or v["predictor"][0])


@pytest.mark.host
def test_report_and_plots_from_records(tmp_path):
    rs = synthetic(0.8, 1.5, 1.05)
    runs = [{"mm": mm, "users_set": 2, "records": [r for r in rs if r["mm"] == mm],
             "vmstat": {"swapouts": 3}} for mm in repro_unix.MANAGERS]
    an = repro_unix.analyse(rs)
    md = repro_unix.report(runs, an, repro_unix.QUICK, True, True, {"date": "d", "commit": "c"})
    assert "QUICK=1" in md and "| yes |" in md and "disklat=30ms" in md
    repro_unix.plots(an, tmp_path)
    for name in ("unix-fig1-2.png", "unix-man.png", "unix-cpu.png", "unix-cc.png"):
        assert (tmp_path / name).stat().st_size > 0


@pytest.mark.timeout(3600)
def test_repro_unix_quick(build_dir, kernel_elf, initrd_cpio, tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "repro_unix.py"), "--quick",
                           "--kernel", str(kernel_elf), "--initrd", str(initrd_cpio),
                           "--out", str(out), "--workdir", str(tmp_path / "work")],
                          capture_output=True, text=True, timeout=3500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "[#####" in proc.stderr                      # the progress bar
    md = (out / "unix.md").read_text()
    assert "QUICK=1" in md and "## The paper's findings and ours" in md
    data = json.loads((out / "unix.json").read_text())
    cfg = repro_unix.QUICK
    for run in data["runs"]:
        # every iteration gave a sample of every task: the log was parsed whole
        assert len(run["records"]) == cfg["iterations"] * len(st.TASKS), run
        assert all(r["real"] > 0 and r["users"] >= 0 and r["procs"] >= r["users"]
                   for r in run["records"])
    for task in st.TASKS:
        for mm in repro_unix.MANAGERS:
            assert data["curves"][f"{task}/{mm}/users"], (task, mm)
    # more users started, more users counted
    by = {(r["mm"], r["users_set"]): r for r in data["runs"]}
    lo, hi = min(cfg["users"]), max(cfg["users"])
    for mm in repro_unix.MANAGERS:
        seen = lambda u: max(r["users"] for r in by[(mm, u)]["records"])  # noqa: E731
        assert seen(hi) > seen(lo)
    for png in ("unix-fig1-2.png", "unix-man.png", "unix-cpu.png", "unix-cc.png"):
        assert (out / png).stat().st_size > 0


@pytest.mark.host
def test_committed_report_is_what_the_tool_renders():
    """docs/results/unix.md is exactly what tools/repro_unix.py renders from
    the unix.json committed beside it (no hand edits, no stale tables), and
    its plots are there."""
    results = ROOT / "docs" / "results"
    data = json.loads((results / "unix.json").read_text())
    runs = data["runs"]
    records = [r for run in runs for r in run["records"]]
    an = repro_unix.analyse(records)
    md = repro_unix.report(runs, an, data["config"], data["quick"], data["disklat"], data["meta"])
    assert (results / "unix.md").read_text() == md
    for png in ("unix-fig1-2.png", "unix-man.png", "unix-cpu.png", "unix-cc.png"):
        assert (results / png).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
