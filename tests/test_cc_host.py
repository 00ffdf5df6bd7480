"""Host tests of cc's passes (user/cc): c0, c1 and as are plain C over a few
library calls, so they are built here with the host compiler, under
AddressSanitizer and UndefinedBehaviorSanitizer, from the source lists in
user/cc/build.mk, and run on the host:

  - every test program and sample compiles, and the executable passes the
    kernel's own ELF checks (kernel/lib/elf.c);
  - the assembler encodes every instruction it knows exactly as GNU as
    does, far branches included;
  - bad programs get their message with file and line, and exit 1;
  - damaged inputs to each pass (sources, trees, assembly) end in a
    message or success, never a crash or a sanitizer report.

The programs' behaviour is tested in the guest (test_cc.py).
"""

import os
import random
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from test_cc import ERRORS, far_branch_source
from test_host_units import HOST_CC, HOST_CFLAGS, SANITIZER_ENV

pytestmark = pytest.mark.host

ROOT = Path(__file__).resolve().parent.parent
CC_DIR = ROOT / "user" / "cc"
RUNTIME = ROOT / "user" / "files" / "crt.s"
SOURCES = sorted((ROOT / "tests" / "cc").glob("*.c")) + sorted((ROOT / "user" / "files").glob("*.c"))
GNU_AS = "riscv64-unknown-elf-as"
GNU_LD = "riscv64-unknown-elf-ld"
GNU_OBJCOPY = "riscv64-unknown-elf-objcopy"
PASS_TIMEOUT = 60
# The passes never free (an arena that lives as long as the pass), so
# leak reports would be noise; a sanitizer error exits with 99.
PASS_ENV = dict(os.environ, **{**SANITIZER_ENV,
                                "ASAN_OPTIONS": "detect_leaks=0:exitcode=99:abort_on_error=0"})
FUZZ_ROUNDS = 150
FUZZ_SEED = 1980
SANITIZER_TEXT = ("AddressSanitizer", "runtime error", "LeakSanitizer")

USER_BASE = 0x10000
PAGE = 4096


def build_mk_sources():
    """{program: [sources]} from user/cc/build.mk."""
    text = (CC_DIR / "build.mk").read_text().replace("\\\n", " ")
    return {m.group(1): m.group(2).split()
            for m in re.finditer(r"^(\w+)_SRCS\s*:=\s*(.*)$", text, re.MULTILINE)}


@pytest.fixture(scope="module")
def passes(tmp_path_factory):
    """The three passes, built for the host."""
    out = tmp_path_factory.mktemp("ccpasses")
    built = {}
    for prog, srcs in build_mk_sources().items():
        if prog == "cc":
            continue        # the driver forks and execs faultline programs
        exe = out / prog
        cmd = [HOST_CC, *HOST_CFLAGS, "-Iuser/cc", *srcs, "-o", str(exe)]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"building {prog}:\n{' '.join(cmd)}\n{proc.stderr}"
        built[prog] = exe
    assert set(built) == {"c0", "c1", "as"}
    return built


@pytest.fixture(scope="module")
def elfcheck(tmp_path_factory):
    """A small program that runs the kernel's ELF parser on a file."""
    out = tmp_path_factory.mktemp("elfcheck")
    src = out / "elfcheck.c"
    src.write_text(r'''
#include <stdio.h>
#include <stdlib.h>
#include "elf.h"
int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 2;
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    struct elf_image img;
    int rc = elf_parse(buf, n, 0x10000, 0x3f00000000ull, &img);
    printf("rc=%d entry=%llx segments=%d\n", rc, (unsigned long long)img.entry, img.nsegments);
    return rc != 0;
}
''')
    exe = out / "elfcheck"
    proc = subprocess.run([HOST_CC, *HOST_CFLAGS, str(src), "kernel/lib/elf.c", "-o", str(exe)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return exe


def run(args, cwd):
    proc = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          errors="replace", env=PASS_ENV, timeout=PASS_TIMEOUT)
    for word in SANITIZER_TEXT:
        assert word not in proc.stderr, f"{' '.join(map(str, args))}:\n{proc.stderr}"
    assert proc.returncode in (0, 1), f"{' '.join(map(str, args))} ended with {proc.returncode}:\n{proc.stderr}"
    return proc


def compile_c(passes, src, workdir):
    """c0, c1 and as on src; the CompletedProcess of the first that failed,
    or of as."""
    stem = Path(src).stem
    for args in ([passes["c0"], src, f"{stem}.tree"],
                 [passes["c1"], f"{stem}.tree", f"{stem}.s"],
                 [passes["as"], "-o", stem, f"{stem}.s", RUNTIME]):
        proc = run(args, workdir)
        if proc.returncode:
            return proc
    return proc


def load_segments(path):
    """[(offset, vaddr, filesz, memsz, flags)] of an ELF's PT_LOADs, and its entry."""
    data = Path(path).read_bytes()
    entry, phoff = struct.unpack_from("<QQ", data, 24)
    phnum = struct.unpack_from("<H", data, 56)[0]
    segs = []
    for i in range(phnum):
        ptype, flags, off, vaddr, _, filesz, memsz, _ = struct.unpack_from("<IIQQQQQQ", data, phoff + 56 * i)
        if ptype == 1:
            segs.append((off, vaddr, filesz, memsz, flags))
    return segs, entry, data


def test_programs_compile_to_valid_executables(passes, elfcheck, tmp_path):
    (tmp_path / "farbranch.c").write_text(far_branch_source())
    for src in SOURCES + [tmp_path / "farbranch.c"]:
        proc = compile_c(passes, src, tmp_path)
        assert proc.returncode == 0, f"{src.name}:\n{proc.stderr}"
        exe = tmp_path / src.stem
        check = subprocess.run([elfcheck, exe], capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, f"the kernel would refuse {src.name}: {check.stdout}"
        segs, entry, data = load_segments(exe)
        assert segs[0][4] == 5 and segs[0][1] <= entry < segs[0][1] + segs[0][2]   # R-X, holds the entry
        for off, vaddr, filesz, memsz, _ in segs:
            assert off % PAGE == vaddr % PAGE and vaddr >= USER_BASE and memsz >= filesz
            assert off + filesz <= len(data)
        # The headers are in the first page, as exec of a ram file needs.
        assert struct.unpack_from("<Q", data, 32)[0] + 56 * len(segs) <= PAGE
        # The intermediate files fit in a ram file (64 KiB).
        for name in (f"{src.stem}.tree", f"{src.stem}.s", src.stem):
            assert (tmp_path / name).stat().st_size <= 64 * 1024, name


def test_compiling_is_deterministic(passes, tmp_path):
    src = ROOT / "user" / "files" / "wordfreq.c"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for d in ("a", "b"):
        assert compile_c(passes, src, tmp_path / d).returncode == 0
    for name in ("wordfreq.tree", "wordfreq.s", "wordfreq"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


# ----- the assembler against GNU as ------------------------------------------------

REGS = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3",
        "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
        "t3", "t4", "t5", "t6"]
R_OPS = ["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and", "mul", "mulh",
         "div", "divu", "rem", "remu", "addw", "subw", "sllw", "srlw", "sraw", "mulw", "divw",
         "divuw", "remw", "remuw"]
I_OPS = ["addi", "slti", "sltiu", "xori", "ori", "andi", "addiw"]
SHIFTS = [("slli", 63), ("srli", 63), ("srai", 63), ("slliw", 31), ("srliw", 31), ("sraiw", 31)]
LOADS = ["lb", "lh", "lw", "ld", "lbu", "lhu", "lwu"]
STORES = ["sb", "sh", "sw", "sd"]
BRANCHES = ["beq", "bne", "blt", "bge", "bltu", "bgeu", "bgt", "ble", "bgtu", "bleu"]
BRANCHES_Z = ["beqz", "bnez", "bltz", "bgez", "blez", "bgtz"]
UNARY = ["mv", "not", "sext.w", "seqz", "sltz", "neg", "negw", "snez", "sgtz"]
# Constants whose li sequence is the same in both assemblers: 32-bit ones,
# but not -2^31, for which GNU as adds a needless sext.w after the lui
# (tests/cc/bigframe.c checks its value, and the 64-bit ones, at run time).
LI_VALUES = [0, 1, -1, 2047, -2048, 2048, -2049, 0x800, 0xfff, 0x12345678, 0x7ffff800,
             0x7fffffff, -0x7fffffff, -0x12345678]


def every_instruction(rng):
    """Assembly text using every instruction form, with registers and
    immediates drawn at random, branches both ways, and far branches."""
    r = lambda: rng.choice(REGS)
    imm12 = lambda: rng.randint(-2048, 2047)
    lines = ["\t.text", "\t.globl _start", "_start:"]
    for i in range(4):
        lines += [f"\t{op} {r()}, {r()}, {r()}" for op in R_OPS]
        lines += [f"\t{op} {r()}, {r()}, {imm12()}" for op in I_OPS]
        lines += [f"\t{op} {r()}, {r()}, {rng.randint(0, top)}" for op, top in SHIFTS]
        lines += [f"\t{op} {r()}, {imm12()}({r()})" for op in LOADS + STORES]
        lines += [f"back{i}:"]
        lines += [f"\t{op} {r()}, {r()}, {rng.choice([f'back{i}', f'fwd{i}'])}" for op in BRANCHES]
        lines += [f"\t{op} {r()}, {rng.choice([f'back{i}', f'fwd{i}'])}" for op in BRANCHES_Z]
        lines += [f"\t{op} {r()}, {r()}" for op in UNARY]
        lines += [f"\tli {r()}, {v}" for v in LI_VALUES]
        lines += [f"\tlui {r()}, {rng.randint(0, 0xfffff)}", f"\tauipc {r()}, {rng.randint(0, 0xfffff)}",
                  f"\tjal back{i}", f"\tjal {r()}, fwd{i}", f"\tjalr {r()}", f"\tjalr {r()}, {imm12()}({r()})",
                  "\tecall", "\tebreak", "\tnop", "\tret", f"\tj back{i}", f"\tjr {r()}",
                  f"\tla {r()}, back{i}", f"\tla {r()}, fwd{i}"]
        # Far enough that some branches must become a branch over a jump.
        lines += ["\tnop"] * rng.choice([10, 600, 1100])
        lines += [f"fwd{i}:"]
    return "\n".join(lines) + "\n"


def text_bytes(exe):
    segs, _, data = load_segments(exe)
    off, _, filesz, _, _ = segs[0]
    return data[off:off + filesz]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_assembler_encodes_like_gnu_as(passes, tmp_path, seed):
    for tool in (GNU_AS, GNU_LD, GNU_OBJCOPY):
        if shutil.which(tool) is None:
            pytest.skip(f"needs {tool}")
    src = tmp_path / "all.s"
    src.write_text(every_instruction(random.Random(seed)))
    proc = run([passes["as"], "-o", "mine", src], tmp_path)
    assert proc.returncode == 0, proc.stderr
    # GNU: no compressed instructions, no linker relaxation.
    subprocess.run([GNU_AS, "-march=rv64im", "-mno-relax", "-o", "all.o", src], cwd=tmp_path, check=True)
    subprocess.run([GNU_LD, "--no-relax", "-e", "_start", "-o", "gnu", "all.o"], cwd=tmp_path, check=True)
    subprocess.run([GNU_OBJCOPY, "-O", "binary", "-j", ".text", "gnu", "gnu.bin"], cwd=tmp_path, check=True)
    mine, gnu = text_bytes(tmp_path / "mine"), (tmp_path / "gnu.bin").read_bytes()
    assert len(mine) == len(gnu)
    for i in range(0, len(mine), 4):
        assert mine[i:i + 4] == gnu[i:i + 4], f"instruction at +{i:#x} differs: " \
            f"{mine[i:i + 4].hex()} vs GNU {gnu[i:i + 4].hex()}"


# ----- errors and damaged input ---------------------------------------------------

def test_errors_have_file_and_line(passes, tmp_path):
    for name, text, line, message in ERRORS:
        src = tmp_path / f"err_{name}.c"
        src.write_text(text)
        proc = run([passes["c0"], src.name, "out.tree"], tmp_path)
        where = f"{src.name}:{line}: error: " if line else f"{src.name}: error: "
        assert proc.returncode == 1, name
        assert re.fullmatch(re.escape(where) + ".*" + re.escape(message) + ".*\n", proc.stderr), \
            f"{name}: {proc.stderr!r}"
    # The assembler and c1 name their files and lines too.
    (tmp_path / "bad.s").write_text("\t.text\n_start:\n\tadd a0, a1\n")
    proc = run([passes["as"], "-o", "x", "bad.s"], tmp_path)
    assert proc.returncode == 1 and "bad.s:3: error: 'add' takes 3 operands" in proc.stderr
    (tmp_path / "bad.s").write_text("\t.text\n_start:\n\tj nowhere\n")
    proc = run([passes["as"], "-o", "x", "bad.s"], tmp_path)
    assert proc.returncode == 1 and "bad.s:3: error: undefined symbol 'nowhere'" in proc.stderr
    (tmp_path / "bad.tree").write_text("source x.c\nload w 0 - -\n")
    proc = run([passes["c1"], "bad.tree", "x.s"], tmp_path)
    assert proc.returncode == 1 and "bad.tree:2: error: damaged tree file" in proc.stderr


def mutate(rng, text):
    """text with a few random bytes deleted, duplicated or replaced."""
    b = bytearray(text.encode())
    for _ in range(rng.randint(1, 4)):
        if not b:
            break
        i = rng.randrange(len(b))
        choice = rng.random()
        if choice < 0.4:
            del b[i:i + rng.randint(1, 8)]
        elif choice < 0.7:
            b[i:i] = b[i:i + rng.randint(1, 16)]
        else:
            b[i] = rng.choice(b"(){}[];,=+-*/&|!<>?:'\"\\#0123456789azAZ_ \n\x01\xff")
    return bytes(b)


def test_damaged_input_never_crashes_a_pass(passes, tmp_path):
    """Every pass, fed its input damaged at random, either succeeds or
    prints an error and exits 1: no crash, no sanitizer report (run() checks)."""
    rng = random.Random(FUZZ_SEED)
    good = tmp_path / "good"
    good.mkdir()
    sources = SOURCES
    for src in sources:
        assert compile_c(passes, src, good).returncode == 0
    outcomes = {"c0": [0, 0], "c1": [0, 0], "as": [0, 0]}
    for round in range(FUZZ_ROUNDS):
        src = rng.choice(sources)
        stem = src.stem
        (tmp_path / "f.c").write_bytes(mutate(rng, src.read_text()))
        outcomes["c0"][run([passes["c0"], "f.c", "f.tree"], tmp_path).returncode] += 1
        (tmp_path / "g.tree").write_bytes(mutate(rng, (good / f"{stem}.tree").read_text()))
        outcomes["c1"][run([passes["c1"], "g.tree", "g.s"], tmp_path).returncode] += 1
        (tmp_path / "h.s").write_bytes(mutate(rng, (good / f"{stem}.s").read_text()))
        outcomes["as"][run([passes["as"], "-o", "h", "h.s", RUNTIME], tmp_path).returncode] += 1
    # The damage was real: every pass refused some inputs.
    for name, (ok, refused) in outcomes.items():
        assert refused > FUZZ_ROUNDS // 10, (name, ok, refused)
