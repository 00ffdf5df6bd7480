"""tools/pctable.py: CPU per page fault by who spends it, pc=inline
against pc=daemon (docs/measurement.md, "Page control per fault").

The arithmetic is checked on the host; one small run of each page
control under icount checks that the meters add up to something sane:
both take the same faults on the same workload, every component of the
daemon is there, and the daemon's fault handler does less per fault than
the inline one, which also frees and writes pages."""

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import pctable  # noqa: E402

QUICK_MEM_K = 6144
QUICK_HOG = "-p 1 -m 8192 -r 1"


def fake_delta(faults, **kw):
    d = {k: 0 for k in ("pcm_faults", "pcm_fault_cycles", "pcm_coremgr_cycles", "pcm_coremgr_runs",
                        "pcm_pdmgr_cycles", "pcm_pdmgr_runs", "pcm_diskirq_cycles", "pcm_diskirqs",
                        "pageins", "pageouts", "core_waits", "zeroed_fills")}
    for key, _ in pctable.SWITCHES:
        d[f"sw_{key}"] = d[f"sw_{key}_cycles"] = 0
    d["pcm_faults"] = faults
    d.update(kw)
    return d


@pytest.mark.host
def test_table_per_fault_and_per_event():
    d = fake_delta(100, pcm_fault_cycles=200000, pcm_coremgr_cycles=50000, pcm_coremgr_runs=10,
                   pcm_diskirq_cycles=3000, pcm_diskirqs=30, sw_disk=40, sw_disk_cycles=40000)
    t = pctable.table(d)
    assert t["who"]["fault"]["per_fault"] == 2000
    assert t["who"]["coremgr"]["per_fault"] == 500 and t["who"]["coremgr"]["per_event"] == 5000
    assert t["who"]["diskirq"]["per_event"] == 100
    assert t["getwork"]["disk"]["per_switch"] == 1000 and t["getwork"]["disk"]["per_fault"] == 400
    assert t["getwork"]["core_wait"]["per_switch"] == 0.0
    assert t["total_per_fault"] == 2000 + 500 + 30 + 400
    md = pctable.markdown({"a": {"mem_k": 8192, "table": t}})
    assert "| fault handler | 2000 |" in md and "| **total** | **2930** |" in md


@pytest.mark.host
def test_table_refuses_a_run_without_faults():
    with pytest.raises(ValueError):
        pctable.table(fake_delta(0))


@pytest.mark.host
def test_within_five_percent():
    assert pctable.within(1000, 1049) and pctable.within(1049, 1000)
    assert not pctable.within(1000, 1060)


@pytest.mark.timeout(900)
def test_quick_run_inline_against_daemon(kernel_elf, initrd_cpio, tmp_path):
    args = SimpleNamespace(kernel=kernel_elf, initrd=initrd_cpio, arch=pctable.fq.DEFAULT_ARCH,
                           mem=QUICK_MEM_K, hog=QUICK_HOG, cpus=1, match=True)
    res = pctable.measure(args, tmp_path, progress=lambda msg: None)
    inline, daemon = res["inline"]["table"], res["daemon"]["table"]
    assert res["matched"], (inline["faults"], daemon["faults"])
    assert inline["pageouts"] > 0 and daemon["pageouts"] > 0
    assert inline["who"]["coremgr"]["cycles"] == 0 and inline["who"]["pdmgr"]["cycles"] == 0
    for key in ("fault", "coremgr", "pdmgr", "diskirq"):
        assert daemon["who"][key]["cycles"] > 0, (key, daemon)
    assert daemon["getwork"]["pdmgr"]["switches"] > 0, daemon
    assert daemon["who"]["fault"]["per_fault"] < inline["who"]["fault"]["per_fault"], (inline, daemon)
