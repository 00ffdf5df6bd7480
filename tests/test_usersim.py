"""QEMU integration tests of `usersim`, the simulated users of the
paged-versus-swapped experiment (tools/repro_unix.py): a finite run of
users runs every script it should and reports it; the users' output goes
to /dev/null, not the console; `who` counts the users it logs in; bad
arguments give the usage and status 2."""

import json
import re
import time

import pytest

from qemu_helpers import boot_to_shell, timeout_scale
from test_hog import wait_after
from test_shell import background

STARTED = re.compile(r"usersim: started \d+ users")

DONE = re.compile(r'FL-JSON (\{"usersim":"done".*\})\s*$', re.MULTILINE)


@pytest.fixture
def sh(machine):
    return boot_to_shell(machine, cpus=1, append="mm=swap mem=8M", disk_size="64M")


def test_finite_users_run_every_script(sh):
    out = sh.run_shell("usersim -n 3 -r 2 -t 5 unix/format", timeout=300)
    assert "usersim: started 3 users" in out
    done = json.loads(DONE.search(out).group(1))
    assert done == {"usersim": "done", "users": 3, "rounds": 2, "scripts_run": 6,
                    "scripts_failed": 0}
    # man's and nroff's output went to /dev/null, not the console
    assert "NAME" not in out and "SYNOPSIS" not in out


def test_big_job_is_stopped_with_the_users(sh):
    out = sh.run_shell("usersim -n 1 -r 1 -t 1 -b 256 unix/format", timeout=300)
    assert "usersim: started 1 users (+ big job)" in out
    assert json.loads(DONE.search(out).group(1))["scripts_failed"] == 0
    ps = sh.run_shell("ps")
    assert "hog" not in ps and "usersim" not in ps, ps


@pytest.mark.parametrize("args", ["", "-n 0 unix/format", "-n 17 unix/format", "-t x unix/format",
                                  "-q 1 unix/format", "-n"])
# In the foreground: a background job's message could land in the middle
# of the next line typed, whose echo the harness waits for.
def test_bad_arguments(sh, args):
    out = sh.run_shell(f"usersim {args}; echo status=$?")
    assert "usage: usersim" in out and out.rstrip().endswith("status=2"), out


def test_missing_script(sh):
    out = sh.run_shell("usersim -n 1 no-such-script; echo status=$?")
    assert "usersim: no-such-script: no such file" in out, out
    assert out.rstrip().endswith("status=1"), out


def test_who_counts_the_users_and_their_processes(sh):
    start = len(sh.log)
    background(sh, "usersim -n 3 -t 600000 -b 64 unix/format")
    # Its line first: printed while `who` is typed, it splits the echo
    # the shell helper waits for ("$ wusersim: started ...\nho").
    wait_after(sh, STARTED, start, 60)
    deadline = time.monotonic() + 60 * timeout_scale()
    while True:
        out = sh.run_shell("who")
        names = sorted(line.split()[0] for line in out.splitlines()[1:] if line.strip())
        if names == ["big", "user0", "user1", "user2"] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert names == ["big", "user0", "user1", "user2"], out
    found = re.search(r"^users (\d+) procs (\d+)$", sh.run_shell("who -c"), re.MULTILINE)
    assert found and int(found.group(1)) == 4
    assert int(found.group(2)) >= 4          # each user's own process at least
    # the big job sweeps: its hog is at work, not refused and retried
    deadline = time.monotonic() + 60 * timeout_scale()
    while "hog" not in sh.run_shell("ps") and time.monotonic() < deadline:
        time.sleep(0.2)
    rows = [line.split() for line in sh.run_shell("ps").splitlines() if line.endswith(" hog")]
    assert len(rows) == 2, rows                # hog and its one child
    assert max(int(r[5].rstrip("K")) for r in rows) >= 64
