"""tools/iprofile.py: one kernel path's instructions by function, stepped
in GDB from the trap's entry to the sret back to user mode.

The QEMU test steps the full-path null system call (`lat nop`, which
the light getpid does not take) and checks that the profile is the path
a reader of trap.S expects: it starts in the vector, passes do_sys_nop (the table entry sys_nop is inlined into),
ends on an sret back to user mode, and repeats to within a few
instructions from call to call (meter records differ by a branch or
two). The symbol reader is checked against the ELF's own trap_vector.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from faultline import GDB

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "iprofile.py"
sys.path.insert(0, str(ROOT / "tools"))

import iprofile  # noqa: E402

SAMPLES = 3
SPREAD = 12          # most instructions between the samples of one path


def test_iprofile_names_functions_from_the_elf(kernel_elf):
    addrs, names = iprofile.elf_functions(kernel_elf)
    assert "trap_vector" in names and "user_trap" in names
    start = addrs[names.index("trap_vector")]
    name_of = iprofile.namer(addrs, names)
    assert name_of(start) == "trap_vector" and name_of(start + 4) == "trap_vector"
    assert name_of(start - 2) != "trap_vector"


def test_iprofile_refuses_an_unknown_event(kernel_elf, initrd_cpio):
    res = subprocess.run([sys.executable, str(TOOL), "page:fault", "--run", "lat nop",
                          "--kernel", str(kernel_elf), "--initrd", str(initrd_cpio)],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode != 0
    assert "unknown event 'page:fault'" in res.stderr and "syscall:NAME" in res.stderr


@pytest.mark.skipif(shutil.which(GDB) is None, reason=f"{GDB} is not installed")
def test_iprofile_steps_the_null_system_call(tmp_path, kernel_elf, initrd_cpio):
    out = tmp_path / "nop.json"
    res = subprocess.run([sys.executable, str(TOOL), "syscall:nop", "--samples", str(SAMPLES),
                          "--skip", "4", "--timeout", "300", "--json", str(out), "--timeline",
                          "--kernel", str(kernel_elf), "--initrd", str(initrd_cpio)],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    r = json.loads(out.read_text())
    assert len(r["lengths"]) == SAMPLES
    med = r["median_sample"]
    assert med["ended"], "the path never reached its sret to user mode"
    funcs = dict(med["functions"])
    assert med["functions"][0][0] == "trap_vector"
    assert "do_sys_nop" in funcs, funcs
    assert sum(funcs.values()) == med["instructions"]
    assert sum(n for _, n in med["timeline"]) == med["instructions"]
    assert max(r["lengths"]) - min(r["lengths"]) <= SPREAD, r["lengths"]
    # The full path saves registers and enters C: far more than the light
    # getpid's 19, far less than a fault's zeroing alone.
    assert 60 < med["instructions"] < 600, med
    assert "by function" in res.stdout and "syscall:nop" in res.stdout


def test_committed_breakdowns_are_the_suites_output():
    # docs/results/iprofile.md is what `make iprofile-docs` wrote: a
    # section for every path of the suite, none missing or cut, and each
    # table adding up to the total its line states.
    text = (ROOT / "docs" / "results" / "iprofile.md").read_text()
    assert "MISSING" not in text and "CUT" not in text
    sections = text.split("\n## ")[1:]
    assert [s.splitlines()[0] for s in sections] == [title for _, _, title in iprofile.SUITE]
    for s in sections:
        total = int(re.search(r": (\d+) instructions \(samples", s).group(1))
        rows = re.findall(r"^\| `[^`]+` \| (\d+) \|$", s, re.M)
        assert rows and sum(map(int, rows)) == total, s.splitlines()[0]
