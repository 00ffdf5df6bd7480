"""What `make` would run, without running it: the tools/run.py command line
of a target, from `make -n`, so tests exercise the Makefile's own command
(its knobs and quoting) rather than a copy of it."""

import shlex
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_dry_run(target, build_dir=None, **knobs):
    """`make -n TARGET KNOB=value ...`: (exit status, what it printed)."""
    cmd = ["make", "-n", "--no-print-directory", target]
    if build_dir is not None:
        cmd.append(f"BUILD={build_dir}")
    cmd += [f"{k}={v}" for k, v in knobs.items()]
    res = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=120)
    return res.returncode, res.stdout


def make_runner_argv(target, build_dir, tmp_dir=None, **knobs):
    """The tools/run.py argv that `make TARGET` runs last; with tmp_dir, its
    socket, state and disk go there (--build-dir), so that tests never meet
    a person's own `make qemu-gdb`, or each other."""
    code, out = make_dry_run(target, build_dir, **knobs)
    assert code == 0, out
    runs = [line for line in out.splitlines()
            if "tools/run.py" in line and "--check" not in line]
    assert runs, f"`make -n {target}` runs no tools/run.py:\n{out}"
    argv = shlex.split(runs[-1])
    return argv + ["--build-dir", str(tmp_dir)] if tmp_dir is not None else argv
