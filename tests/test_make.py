"""The Makefile's targets and knobs, without booting: `make help`, the
DEBUG=1 build's flags and directory, and the checks of CPUS, MEM, ICOUNT,
DISK_SIZE and APPEND that `make qemu` and `make qemu-gdb` make before they
build or start anything (tools/knobs.py, through `make check-knobs` and
`tools/run.py --dry-run`, the command `make -n` shows).
"""

import re
import shlex
import subprocess
import sys

import pytest

from make_runner import ROOT, make_dry_run, make_runner_argv

KNOBS = ("DEBUG", "BUILD", "CPUS", "MEM", "APPEND", "ICOUNT", "DISK_SIZE")


def make(*args, timeout=120):
    res = subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=timeout)
    return res.returncode, res.stdout


def phony_targets():
    code, out = make("-p", "-n", "help")
    assert code == 0, out
    found = re.search(r"^\.PHONY: (.*)$", out, re.MULTILINE)
    assert found, "no .PHONY in make's database"
    return set(found.group(1).split())


def help_lines():
    code, out = make("help")
    assert code == 0, out
    targets = dict(re.findall(r"^  (\S+) +(\S.*)$", out.split("Knobs")[0], re.MULTILINE))
    knobs = dict(re.findall(r"^  ([A-Z_]+) +\[[^\]]*\] +(\S.*)$", out, re.MULTILINE))
    return targets, knobs, out


# ----- make help ----------------------------------------------------------------

def test_help_lists_every_target_and_knob():
    targets, knobs, out = help_lines()
    wanted = {"all", "qemu", "qemu-gdb", "gdb", "test", "test-host", "bench", "mmbench",
              "clean", "toolchain", "help"}
    assert wanted <= set(targets), f"missing from `make help`: {wanted - set(targets)}\n{out}"
    # A target added later documents itself with `## text` on its rule line;
    # one that does not is caught here.
    undocumented = phony_targets() - set(targets)
    assert not undocumented, f"targets without a `## text` help line: {sorted(undocumented)}"
    assert set(KNOBS) <= set(knobs), f"missing knobs: {set(KNOBS) - set(knobs)}\n{out}"
    for name, text in {**targets, **knobs}.items():
        assert len(text) > 10, f"{name}: help text too thin: {text!r}"


def test_help_shows_the_knobs_values():
    code, out = make("help", "CPUS=4", "DEBUG=1")
    assert code == 0, out
    assert re.search(r"^  CPUS +\[4\] ", out, re.MULTILINE), out
    assert re.search(r"^  BUILD +\[build-debug\] ", out, re.MULTILINE), out


# ----- DEBUG=1 ----------------------------------------------------------------

def compile_lines(out):
    return [line for line in out.splitlines() if "gcc" in line and " -c " in line]


def test_debug_build_has_its_own_directory_and_flags(tmp_path):
    # -B: every command, as if nothing were built yet.
    code, out = make("-n", "-B", "DEBUG=1", "all")
    assert code == 0, out
    lines = compile_lines(out)
    kernel = [line for line in lines if " kernel/" in line]
    user = [line for line in lines if " user/" in line]
    assert kernel and user, out[-3000:]
    for line in kernel + user:
        assert " -Og " in line and " -g " in line and " -DFL_DEBUG " in line, line
        assert " -O2 " not in line, line
        assert re.search(r" -o build-debug/", line), line

    code, out = make("-n", "-B", "all")
    assert code == 0, out
    for line in compile_lines(out):
        assert " -O2 " in line and "FL_DEBUG" not in line and " -Og " not in line, line
        assert re.search(r" -o build/", line), line


def test_build_directory_has_one_spelling():
    # Objects are named in the dependency files by the path they were built
    # under: an absolute BUILD inside the tree must be the same relative one,
    # or header changes go unnoticed by the other spelling's objects (which
    # left a DEBUG=1 kernel half rebuilt, hanging at its first prompt).
    code, out = make("-n", "-B", "kernel", f"BUILD={ROOT}/build-debug", "DEBUG=1")
    assert code == 0, out
    lines = compile_lines(out)
    assert lines and all(re.search(r" -o build-debug/kernel/", line) for line in lines), out[:2000]


def test_debug_knob_takes_only_1_or_nothing():
    code, out = make("-n", "DEBUG=yes", "all")
    assert code != 0 and "DEBUG=yes: use DEBUG=1" in out, out
    code, out = make("-n", "DEBUG=0", "kernel")
    assert code == 0 and "build-debug" not in out, out


def test_make_gdb_builds_nothing(tmp_path):
    # Under a running QEMU a rebuild would give GDB the wrong symbols: the
    # gdb target only runs the runner, even with no kernel built at all.
    code, out = make_dry_run("gdb", tmp_path / "nothing-built")
    assert code == 0, out
    assert compile_lines(out) == [] and " LD " not in out, out
    assert [line for line in out.splitlines() if line.strip()] == [
        f"python3 tools/run.py --attach-gdb --kernel {tmp_path}/nothing-built/kernel.elf"], out


# ----- the knobs of make qemu -------------------------------------------------------

def check_knobs(build_dir, **knobs):
    return make("check-knobs", f"BUILD={build_dir}", *[f"{k}={v}" for k, v in knobs.items()])


def test_qemu_checks_the_knobs_before_anything_else(build_dir):
    for target in ("qemu", "qemu-gdb"):
        code, out = make_dry_run(target, build_dir)
        assert code == 0, out
        runs = [i for i, line in enumerate(out.splitlines()) if "tools/" in line]
        first = out.splitlines()[runs[0]]
        assert "tools/run.py" in first and "--check" in first, \
            f"`make {target}` does not check the knobs first:\n{out}"


def test_default_knobs_pass(build_dir):
    code, out = check_knobs(build_dir)
    assert code == 0 and out.strip() == "", out


@pytest.mark.parametrize("knob, value, says", [
    ("CPUS", "abc", "bad CPUS=abc (--cpus): the number of harts must be a whole number from 1 to 8"),
    ("CPUS", "0", "bad CPUS=0 (--cpus)"),
    ("CPUS", "9", "bad CPUS=9 (--cpus)"),
    ("CPUS", "2.5", "bad CPUS=2.5 (--cpus)"),
    ("MEM", "128", "bad MEM=128 (--mem): the unit is missing: write 128M"),
    ("MEM", "4x", "bad MEM=4x (--mem): not a size"),
    ("MEM", "4M", "bad MEM=4M (--mem): too little memory for this build"),
    ("MEM", "100000G", "bad MEM=100000G (--mem): more than this machine can give QEMU"),
    ("ICOUNT", "2", "bad ICOUNT=2 (--icount): use ICOUNT=1"),
    ("ICOUNT", "of", "bad ICOUNT=of (--icount)"),
    ("DISK_SIZE", "abc", "bad DISK_SIZE=abc (--disk-size): not a size"),
    ("DISK_SIZE", "64", "bad DISK_SIZE=64 (--disk-size): the unit is missing: write 64M"),
    ("DISK_SIZE", "0M", "bad DISK_SIZE=0M (--disk-size): a disk is whole 512-byte sectors"),
    ("APPEND", "x" * 300, "bad APPEND (--append): 300 characters; the kernel takes a command line of at most 255"),
])
def test_bad_knob_is_refused_with_a_sentence(build_dir, knob, value, says):
    code, out = check_knobs(build_dir, **{knob: value})
    assert code != 0, out
    assert f"faultline: {says}" in out, out
    assert "Traceback" not in out and "qemu-system" not in out, out


def test_every_bad_knob_is_named_at_once(build_dir):
    code, out = check_knobs(build_dir, CPUS="x", MEM="1", ICOUNT="x", DISK_SIZE="x")
    assert code != 0
    for knob in ("CPUS", "MEM", "ICOUNT", "DISK_SIZE"):
        assert f"bad {knob}=" in out, out


def qemu_argv(build_dir, tmp_path, **knobs):
    """The QEMU command `make qemu` with these knobs would start."""
    argv = make_runner_argv("qemu", build_dir, tmp_path, **knobs) + ["--dry-run"]
    res = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stdout
    return shlex.split(res.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("value, on", [("", False), ("0", False), ("off", False),
                                       ("1", True), ("on", True)])
def test_icount_0_is_off(build_dir, tmp_path, value, on):
    argv = qemu_argv(build_dir, tmp_path, ICOUNT=value)
    assert ("-icount" in argv) == on, argv


def test_knobs_reach_qemu(build_dir, tmp_path):
    append = "mm=swap mem=8M init=/sh it's \"quoted\""
    argv = qemu_argv(build_dir, tmp_path, CPUS="4", MEM="256M", APPEND=append,
                     DISK_SIZE="32M")
    assert argv[argv.index("-smp") + 1] == "4"
    assert argv[argv.index("-m") + 1] == "256M"
    assert argv[argv.index("-append") + 1] == append, "APPEND must reach QEMU as typed"
    drive = argv[argv.index("-drive") + 1]
    assert drive.startswith(f"file={tmp_path}/disk.img,"), drive

    argv = qemu_argv(build_dir, tmp_path, DISK_SIZE="")
    assert "-drive" not in argv, "DISK_SIZE= (empty) means no disk"
    assert "-append" not in argv, "no APPEND, no -append"


def test_mem_minimum_is_consistent(build_dir):
    code, out = check_knobs(build_dir, MEM="1M")
    least = re.search(r"Use MEM=(\d+)M or more", out)
    assert code != 0 and least, out
    least = int(least.group(1))
    assert check_knobs(build_dir, MEM=f"{least}M")[0] == 0
    assert check_knobs(build_dir, MEM=f"{least - 1}M")[0] != 0
    # From there up every size is taken (the runner, as make calls it).
    for mib in range(least, least + 24):
        res = subprocess.run([sys.executable, "tools/run.py", "--kernel",
                              str(build_dir / "kernel.elf"), "--initrd",
                              str(build_dir / "initrd.cpio"), "--mem", f"{mib}M", "--check"],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, timeout=60)
        assert res.returncode == 0, res.stdout


def test_runner_checks_without_make():
    # tools/run.py says the same to someone who runs it directly.
    res = subprocess.run([sys.executable, "tools/run.py", "--kernel", "k", "--initrd", "i",
                          "--cpus", "many", "--check"], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=60)
    assert res.returncode == 2 and "bad CPUS=many (--cpus)" in res.stdout, res.stdout
