"""QEMU integration tests of cc, the C compiler that runs inside faultline
(user/cc, docs/cc.md), and of exec from a ram file, which running what it
compiles needs.

Every program in tests/cc/ is valid C: the host's gcc compiles and runs it
to give the expected output, and the guest's cc must produce a program
that prints exactly the same. The guest boots with an initrd of its own
that holds these sources besides the usual programs.

Add a test program: drop NAME.c into tests/cc/ (it may use putchar,
write, read, open, close and exit without declaring them, as cc allows,
and must avoid what C leaves undefined); it is picked up by
test_programs_match_gcc.
"""

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

import mkinitrd
from qemu_helpers import boot_to_shell, timeout_scale

ROOT = Path(__file__).resolve().parent.parent
TEST_DIR = ROOT / "tests" / "cc"
SAMPLES = ROOT / "user" / "files"
RUNTIME = ROOT / "user" / "files" / "crt.s"
HOST_CC = "gcc"
COMPILE_TIMEOUT = 120.0

# What the host compiler needs to build the same sources: declarations of
# the runtime functions cc knows without them, and open() with a mode.
HOST_SHIM = """\
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <fcntl.h>
#define open(path, flags) open(path, flags, 0644)
"""

# A function longer than a conditional branch reaches (4 KiB: about 1000
# instructions; each line below is about 8): the assembler must turn far
# branches into a branch over a jump. (Not much longer: the intermediate
# files are ram files, at most 64 KiB each.)
FAR_LINES = 200


def far_branch_source():
    body = "\n".join(f"        if (x == {i}) s += {i} * x;" for i in range(FAR_LINES))
    return f"""int putchar(int c);
void printn(long n) {{ if (n >= 10) printn(n / 10); putchar('0' + n % 10); }}
int main()
{{
    long s = 0;
    int x;
    for (x = 0; x < {FAR_LINES}; x += 7) {{
{body}
        if (x > {FAR_LINES}) break;
    }}
    printn(s);
    putchar('\\n');
    return 0;
}}
"""


# Bad programs: (name, source, line, what the message must say).
ERRORS = [
    ("syntax", "int main()\n{\n    int x = 1\n    return x;\n}\n", 4, "expected ';'"),
    ("undeclared", "int main()\n{\n    return y + 1;\n}\n", 3, "undeclared variable 'y'"),
    ("toomany", "int f(int a) { return a; }\nint main()\n{\n    return f(1, 2);\n}\n", 4,
     "too many arguments to 'f'"),
    ("toofew", "int f(int a, int b) { return a; }\nint main() { return f(1); }\n", 2,
     "too few arguments to 'f'"),
    ("badtype", "int main()\n{\n    int x;\n    return *x;\n}\n", 4, "'*' needs a pointer"),
    ("assign", "int main()\n{\n    3 = 4;\n    return 0;\n}\n", 3, "cannot be assigned"),
    ("break", "int main()\n{\n    break;\n}\n", 3, "'break' outside a loop"),
    ("unclosed", "int main()\n{\n    return 0;\n", 2, "'{' is never closed"),
    ("string", "int main()\n{\n    char *s = \"abc;\n    return 0;\n}\n", 3, "unterminated literal"),
    ("include", "#include <stdio.h>\nint main() { return 0; }\n", 1, "unsupported preprocessor line"),
    ("nomain", "int f() { return 0; }\n", 0, "no function 'main'"),
    ("undefined", "int g(int x);\nint main()\n{\n    return g(1);\n}\n", 4,
     "'g' is called but never defined"),
    ("redefine", "int putchar(int c) { return c; }\nint main() { return 0; }\n", 1,
     "'putchar' is a runtime function"),
    ("deep", "int main()\n{\n    return " + "(" * 300 + "1" + ")" * 300 + ";\n}\n", 3,
     "nested too deeply"),
]


def host_expected(src, workdir):
    """(stdout, exit status) of src built by the host's gcc and run in workdir."""
    shim = workdir / "shim.h"
    shim.write_text(HOST_SHIM)
    exe = workdir / (src.stem + ".host")
    proc = subprocess.run([HOST_CC, "-w", "-funsigned-char", "-include", str(shim), str(src),
                           "-o", str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, f"gcc cannot build {src.name}:\n{proc.stderr}"
    run = subprocess.run([str(exe)], capture_output=True, text=True, cwd=workdir, timeout=60)
    return run.stdout, run.returncode


def user_programs(build_dir):
    return sorted(p for p in (build_dir / "user").iterdir() if p.is_file())


@pytest.fixture(scope="module")
def cc_sources(tmp_path_factory):
    """The test programs, with the generated ones, in one directory."""
    d = tmp_path_factory.mktemp("ccsrc")
    for src in sorted(TEST_DIR.glob("*.c")):
        shutil.copy(src, d / src.name)
    (d / "farbranch.c").write_text(far_branch_source())
    for name, text, _, _ in ERRORS:
        (d / f"err_{name}.c").write_text(text)
    return d


@pytest.fixture(scope="module")
def cc_initrd(tmp_path_factory, build_dir, cc_sources):
    """An initrd with the usual programs, the runtime, the samples and the tests."""
    out = tmp_path_factory.mktemp("ccinitrd") / "initrd.cpio"
    inputs = user_programs(build_dir) + [RUNTIME] + sorted(SAMPLES.glob("*.c")) + \
        sorted(cc_sources.glob("*.c"))
    out.write_bytes(mkinitrd.build_archive(mkinitrd.collect_entries(inputs)))
    return out


def job_status(m, cmd, output=None, timeout=60.0):
    """Runs cmd as a background job and returns the shell's report of how it
    ended ("status N" or "signal N"). The shell reports it before a later
    prompt, so empty commands are sent until it does; a job that prints must
    be done printing first (output: a regex for the end of what it prints),
    or its text would land in the middle of those commands' echo."""
    mark = len(m.log)
    out = m.run_shell(f"{cmd} &", timeout=timeout)
    found = re.search(r"^\[(\d+)\]$", out, re.MULTILINE)
    assert found, f"`{cmd} &` printed no [pid] line: {out!r}"
    pid = found.group(1)
    deadline = time.monotonic() + timeout * timeout_scale()
    if output:
        while not re.search(output, m.log[mark:]):
            assert time.monotonic() < deadline, f"`{cmd}` never printed {output!r}:\n{m.tail()}"
            time.sleep(0.05)
    done = re.compile(rf"^\[{pid}\] done (.*)$", re.MULTILINE)
    while not done.search(m.log[mark:]):
        assert time.monotonic() < deadline, f"job {pid} never ended:\n{m.tail()}"
        m.run_shell("echo")
        time.sleep(0.1)
    return done.search(m.log[mark:]).group(1)


def assert_kernel_fine(m):
    assert "FL-PANIC" not in m.log, m.tail()
    assert "killed pid=" not in m.log, f"a process was killed:\n{m.tail()}"


# ----- programs -----------------------------------------------------------------

def test_hello_sample(machine):
    """The sample of the README: compile, run, and the program is a ram file."""
    m = boot_to_shell(machine)
    assert m.run_shell("cc hello.c -o hello", timeout=COMPILE_TIMEOUT) == ""
    assert m.run_shell("hello") == "hello, world\n"
    assert re.search(r"^hello\s+file\s+\d+\s*$", m.run_shell("ls"), re.MULTILINE)
    assert_kernel_fine(m)


def test_programs_match_gcc(machine, cc_initrd, cc_sources, tmp_path):
    """Every test program, compiled by cc in the guest, prints what gcc's
    build of it prints on the host."""
    m = boot_to_shell(machine, initrd=cc_initrd)
    failures = []
    programs = sorted(p for p in cc_sources.glob("*.c") if not p.name.startswith("err_"))
    assert len(programs) >= 10
    for src in programs:
        want, status = host_expected(src, tmp_path)
        assert status == 0, f"{src.name} exits {status} on the host"
        got = m.run_shell(f"cc {src.name} -o {src.stem}", timeout=COMPILE_TIMEOUT)
        if got:
            failures.append(f"cc {src.name} said:\n{got}")
            continue
        got = m.run_shell(src.stem, timeout=COMPILE_TIMEOUT)
        if got != want:
            failures.append(f"{src.stem} printed:\n{got}\nbut gcc's build printed:\n{want}")
    assert not failures, "\n\n".join(failures)
    assert_kernel_fine(m)


def test_exit_status_and_arguments(machine):
    """main's value is the exit status; argv reaches main."""
    m = boot_to_shell(machine)
    assert m.run_shell("cc wordfreq.c -o wf", timeout=COMPILE_TIMEOUT) == ""
    assert job_status(m, "wf no-such-file > /dev/null") == "status 1"
    assert job_status(m, "wf -n 2 README > /dev/null") == "status 0"
    assert_kernel_fine(m)


def wordfreq_expected(text, name, top=10):
    """What wordfreq prints for a file, computed here independently."""
    words = [w.lower()[:63] for w in re.findall(r"[A-Za-z0-9_]+", text)]
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].encode()))
    lines = [f"{name}: {len(words)} words, {len(counts)} different"]
    lines += [f"{n:6d} {w}" for w, n in ranked[:top]]
    return "\n".join(lines) + "\n"


# A memory hog beside the compile, as the paper's compiles ran beside big
# processes: two children of 2400 KiB each in 8 MiB (5 MiB for users), for
# long enough to overlap the compile (pages go out and come back in under
# either manager, though how many depends on timing).
HOG = "hog -p 2 -m 2400 -r 30"
HOG_TIMEOUT = 300.0


@pytest.mark.parametrize("mm", ["paging", "swap"])
def test_benchmark_program(machine, mm):
    """The benchmark's "small C program" compiles under both memory
    managers in 8 MiB while a memory hog runs, and then counts words
    correctly; -v reports the passes' sizes; the hog loses nothing."""
    m = boot_to_shell(machine, append=f"mm={mm} mem=8M")
    out = m.run_shell(f"{HOG} > /dev/null &")
    hog = re.search(r"^\[(\d+)\]$", out, re.MULTILINE)
    assert hog, out
    out = m.run_shell("cc -v wordfreq.c -o wordfreq", timeout=COMPILE_TIMEOUT)
    for p in ("c0", "c1", "as"):
        assert re.search(rf"^cc: {p} -v ", out, re.MULTILINE), out
        sizes = re.search(rf"^{p}: .*: text (\d+) KiB, rodata \d+ KiB, data \d+ KiB, bss \d+ KiB, "
                          r"heap (\d+) KiB \((\d+) KiB allocated\), resident (\d+) KiB$", out, re.MULTILINE)
        assert sizes, f"no size line for {p}:\n{out}"
        text, heap, allocated, resident = map(int, sizes.groups())
        assert text > 0 and resident > 0 and heap >= allocated > 0, sizes.group(0)
    source = (SAMPLES / "wordfreq.c").read_text()
    assert m.run_shell("wordfreq") == wordfreq_expected(source, "wordfreq.c")
    readme = mkinitrd.README_TEXT.decode()
    assert m.run_shell("wordfreq -n 4 README") == wordfreq_expected(readme, "README", 4)
    # The temporaries are gone.
    assert not re.search(r"^cc\d+\.(tree|s)\s", m.run_shell("ls"), re.MULTILINE)
    done = re.compile(rf"^\[{hog.group(1)}\] done (.*)$", re.MULTILINE)
    deadline = time.monotonic() + HOG_TIMEOUT * timeout_scale()
    while not done.search(m.log):
        assert time.monotonic() < deadline, f"hog never ended:\n{m.tail()}"
        m.run_shell("echo")
        time.sleep(0.2)
    assert done.search(m.log).group(1) == "status 0", m.tail()
    assert_kernel_fine(m)


# ----- errors -------------------------------------------------------------------

def test_errors_name_the_line(machine, cc_initrd):
    """Bad programs: one clear message with file:line, exit status 1, no
    output file, and nothing wrong in the kernel."""
    m = boot_to_shell(machine, initrd=cc_initrd)
    failures = []
    for name, _, line, message in ERRORS:
        src = f"err_{name}.c"
        where = f"{src}:{line}: error: " if line else f"{src}: error: "
        expected = re.escape(where) + r".*" + re.escape(message) + r".*\n"
        out = m.run_shell(f"cc {src} -o err_{name}", timeout=COMPILE_TIMEOUT)
        if not re.fullmatch(expected, out):
            failures.append(f"{src}: expected '{where}...{message}' alone, not:\n{out}")
            continue
        how = job_status(m, f"cc {src} -o err_{name}", output=expected)
        if how != "status 1":
            failures.append(f"{src}: cc ended with {how}")
    listing = m.run_shell("ls")
    for name, _, _, _ in ERRORS:
        if re.search(rf"^err_{name}\s", listing, re.MULTILINE):
            failures.append(f"err_{name} was written although cc failed")
    assert not failures, "\n".join(failures)
    assert_kernel_fine(m)


def test_usage_errors(machine):
    m = boot_to_shell(machine)
    assert "usage: cc" in m.run_shell("cc")
    assert "not a C source file" in m.run_shell("cc hello.s")
    assert "cannot open 'nothere.c'" in m.run_shell("cc nothere.c")
    # The assembler reports bad input by file and line too.
    assert "hello.c:1: error: unexpected '/'" in m.run_shell("as -o x hello.c")
    assert_kernel_fine(m)


# ----- -S ------------------------------------------------------------------------

def test_dash_S_writes_assembly(machine):
    """cc -S stops after c1: hello.s is readable assembly with a function
    prologue, the call, the string and the return."""
    m = boot_to_shell(machine)
    assert m.run_shell("cc -S hello.c", timeout=COMPILE_TIMEOUT) == ""
    asm = m.run_shell("cat hello.s")
    assert asm.startswith("# hello.c, compiled by cc\n"), asm
    for pattern in (r"^main:$", r"^puts:$", r"^\tcall puts$", r"^\tcall putchar$",
                    r"^\taddi sp, sp, -16$", r"^\tsd ra, 8\(sp\)$", r"^\tret$",
                    r'^\t\.string "hello, world"$', r"^\t\.section \.rodata$"):
        assert re.search(pattern, asm, re.MULTILINE), f"{pattern!r} not in:\n{asm}"
    # The assembly assembles by hand, with the runtime, into the same program.
    assert m.run_shell("as -o hello2 hello.s crt.s") == ""
    assert m.run_shell("hello2") == "hello, world\n"
    assert_kernel_fine(m)
