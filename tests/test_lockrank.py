"""Lock ranks (kernel/include/lockrank.h, kernel/lock/lockrank.c).

Host: the rank table of lockrank.h, the lock table of docs/architecture.md
("Lock order") and the locks the kernel inits agree: the same names at the
same ranks, of the same kind, and every lock is given the rank its name
has. QEMU: selftest=lockorder takes two locks against their ranks; the
debug build panics naming both locks and ranks, a release build (which
checks nothing) says so and boots on.
"""

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from faultline import EXIT_PANIC, Machine  # noqa: E402
from symbolize import symbolize_frames  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "kernel" / "include" / "lockrank.h"
DOC = ROOT / "docs" / "architecture.md"
BOOT_TIMEOUT = 120

ROW = re.compile(r'^\s*X\((\w+),\s*(\d+),\s*(SPIN|SLEEP),\s*"([^"]+)"\)', re.MULTILINE)
# The calls that give a lock its name and rank.
INIT = re.compile(r'\b(SPINLOCK_INIT|spin_init|sleeplock_init)\s*\(([^;{]*?)\)\s*[;,}]', re.DOTALL)


def header_rows():
    rows = ROW.findall(HEADER.read_text())
    assert rows, f"no X(...) rows in {HEADER}"
    return [(const, int(rank), kind.lower(), name) for const, rank, kind, name in rows]


def doc_rows():
    text = DOC.read_text()
    section = text.split("## Lock order", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[0].isdigit():
            continue
        names = re.findall(r"`([^`]+)`", cells[1])
        assert names, f"a lock-table row names no lock: {line}"
        rows.append((int(cells[0]), names, cells[2]))
    assert rows, "no lock table under '## Lock order' in docs/architecture.md"
    return rows


@pytest.mark.host
def test_doc_lock_table_matches_lockrank_h():
    header = {(name, rank, kind) for _, rank, kind, name in header_rows()}
    doc = {(name, rank, kind) for rank, names, kind in doc_rows() for name in names}
    assert doc == header, (
        f"docs/architecture.md and lockrank.h disagree:\n"
        f"  only in the doc: {sorted(doc - header)}\n  only in lockrank.h: {sorted(header - doc)}")


@pytest.mark.host
def test_ranks_are_in_order_and_one_kind_each():
    rows = header_rows()
    ranks = [rank for _, rank, _, _ in rows]
    assert ranks == sorted(ranks), "lockrank.h: rows must run outermost (lowest rank) first"
    assert all(rank > 0 for rank in ranks), "rank 0 means 'never given one'"
    consts = [c for c, _, _, _ in rows]
    names = [n for _, _, _, n in rows]
    assert len(set(consts)) == len(consts) and len(set(names)) == len(names), rows
    doc_ranks = [rank for rank, _, _ in doc_rows()]
    assert doc_ranks == sorted(set(doc_ranks)), "the doc table: one row per rank, in order"


def kernel_inits():
    """(file, call, name literal or None, rank constant or None) for every
    lock init in the kernel, bar the definitions themselves."""
    found = []
    for path in sorted((ROOT / "kernel").rglob("*.[ch]")):
        if path.name in ("spinlock.h", "sleeplock.h", "spinlock.c"):
            continue
        for call, args in INIT.findall(path.read_text()):
            if call in ("spin_init", "sleeplock_init") and args.lstrip().startswith("struct"):
                continue                    # a prototype
            name = re.search(r'"([^"]*)"', args)
            rank = re.search(r"\bLOCK_RANK_(\w+)\b", args)
            found.append((path.relative_to(ROOT), call, name and name.group(1),
                          rank and rank.group(1)))
    return found


@pytest.mark.host
def test_every_lock_is_given_the_rank_of_its_name():
    by_name = {name: const for const, _, _, name in header_rows()}
    inits = kernel_inits()
    assert len(inits) >= len(by_name), inits
    for path, call, name, const in inits:
        where = f"{path}: {call}({name!r}, {const})"
        assert const, f"{where}: no LOCK_RANK_ constant"
        if const == "GUARD":
            assert str(path) == "kernel/lock/sleeplock.c", f"{where}: only sleep locks' guards are GUARD"
            continue
        assert name, f"{where}: a lock's name is a string literal"
        if name.startswith("selftest "):
            continue                        # selftest=lockorder's own two locks
        assert name in by_name, f"{where}: {name!r} is not in lockrank.h's table"
        assert by_name[name] == const, f"{where}: {name!r} has rank LOCK_RANK_{by_name[name]}"
    assert {n for _, _, n, _ in inits} >= set(by_name) - {"guard"}, \
        "lockrank.h names a lock the kernel never inits"


@pytest.mark.parametrize("flavour", ["debug", pytest.param("release", marks=pytest.mark.release_kernel)])
def test_selftest_lockorder(flavour, request, tmp_path):
    built = request.getfixturevalue(f"{flavour}_build")
    m = Machine(built / "kernel.elf", built / "initrd.cpio", workdir=tmp_path, name="lockorder")
    try:
        m.start(cpus=1, append="selftest=lockorder", disk_size=None)
        m.expect(r"selftest: lockorder: taking 'selftest inner' \(rank 30\) under "
                 r"'selftest outer' \(rank 90\)", timeout=BOOT_TIMEOUT)
        if flavour == "release":
            m.expect(r"selftest: lockorder: not checked: this build has no lock-rank checks",
                     timeout=60)
            m.expect_prompt(timeout=BOOT_TIMEOUT)
            assert "FL-PANIC" not in m.log
            return
        m.expect(r"FL-PANIC: lock order: taking spinlock 'selftest inner' \(rank 30\) while "
                 r"holding spinlock 'selftest outer' \(rank 90\)", timeout=60)
        assert m.wait_exit(timeout=60) == EXIT_PANIC
        frames = symbolize_frames(built / "kernel.elf", m.log)
        assert "lockorder_selftest" in [f[2] for f in frames], frames
    finally:
        m.close()
