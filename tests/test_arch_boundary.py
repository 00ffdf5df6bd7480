"""The architecture boundary, as the build and the sources keep it.

Portable code (everything under kernel/ but kernel/arch/) names no
RISC-V-only symbol: no SBI call, no PLIC, no satp/sstatus/scause (the
check is the grep docs/architecture.md gives, run as written). The port
is chosen with ARCH: only the chosen port's sources are built, and a port
that does not exist stops make with a message that names the ports.
No QEMU and no cross compiler: `make -n` only reads the Makefiles.
"""

import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.host

ROOT = Path(__file__).resolve().parent.parent
BOUNDARY_GREP = (r"grep -rnwE 'sbi_[a-z_]+|plic_[a-z_]+|satp|sstatus|scause' kernel "
                 r"--include=*.c --include=*.h | grep -v kernel/arch/")
PORTS = sorted(p.name for p in (ROOT / "kernel" / "arch").iterdir() if p.is_dir())


def make(*args):
    res = subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=120)
    return res.returncode, res.stdout


def test_portable_code_names_no_riscv_symbol():
    res = subprocess.run(["bash", "-c", BOUNDARY_GREP], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert res.stdout == "", (
        "portable files name RISC-V-only symbols; move the code under kernel/arch/ "
        "behind an arch_* call:\n" + res.stdout)


def test_the_boundary_grep_finds_what_it_looks_for():
    # The port itself is full of these words: were the grep broken (a typo
    # in the pattern, a missing directory), the check above would pass
    # whatever portable code did.
    res = subprocess.run(["bash", "-c", BOUNDARY_GREP.split(" | ")[0]], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    hits = res.stdout.splitlines()
    assert any(h.startswith("kernel/arch/riscv64/") for h in hits), res.stdout + res.stderr
    for word in ("sbi_call", "plic_context", "satp", "sstatus", "scause"):
        assert any(word in h for h in hits), f"{word} not found by the grep"


def test_no_portable_file_includes_a_port_header():
    # <arch/arch.h>, <arch/layout.h>, <arch/board.h> and <arch/pte.h> are
    # the interface every port provides; anything else under <arch/...> is
    # one port's own.
    interface = {"arch/arch.h", "arch/layout.h", "arch/board.h", "arch/pte.h"}
    bad = []
    for path in sorted((ROOT / "kernel").rglob("*.[ch]")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("kernel/arch/"):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r'\s*#\s*include\s*[<"]([^>"]+)[>"]', line)
            if m and m.group(1).startswith("arch/") and m.group(1) not in interface:
                bad.append(f"{rel}:{n}: {line.strip()}")
    assert not bad, "portable files include a port's private header:\n" + "\n".join(bad)


def test_riscv64_is_the_default_port():
    code, out = make("-n", "-B", "kernel", "CROSS=riscv64-unknown-elf-")
    assert code == 0, out
    assert "-Ikernel/arch/riscv64/include" in out, out
    assert "-T kernel/arch/riscv64/kernel.ld" in out, out
    # only the chosen port's sources are compiled
    built = set(re.findall(r"kernel/arch/([a-z0-9_]+)/", out))
    assert built == {"riscv64"}, built


def test_the_offsets_file_is_not_linked():
    code, out = make("-n", "-B", "kernel", "CROSS=riscv64-unknown-elf-")
    assert code == 0, out
    assert re.search(r"-S kernel/arch/riscv64/asm_offsets\.c", out), out
    assert "asm_offsets.c.o" not in out, out


@pytest.mark.parametrize("arch", ["bogus", "../riscv64", "riscv64 riscv64", ""])
def test_an_unknown_arch_stops_make_with_the_ports_named(arch):
    code, out = make("-n", "all", f"ARCH={arch}")
    assert code != 0, out
    assert "ARCH=" in out and "riscv64" in out, out
    assert " CC " not in out and "gcc" not in out, f"make went on to build:\n{out}"
    for port in PORTS:
        assert port in out, f"the message does not name the port {port}:\n{out}"


def test_arch_appears_in_make_help():
    code, out = make("help")
    assert code == 0, out
    assert re.search(r"^  ARCH +\[riscv64\] ", out, re.MULTILINE), out
