"""QEMU integration tests of debugging the kernel with gdb-multiarch through
QEMU's GDB stub (the socket Machine.gdb_socket):

  - a breakpoint on the getpid system call, hit by a user program, shows
    the whole trap path in the backtrace;
  - with gdb_wait the harts stay stopped until GDB continues them, and the
    project's GDB extensions (fl-harts) work on a live target.

GDB runs in batch mode in its own process group, and the test talks to the
guest console while GDB waits in `continue`.
"""

import os
import re
import shutil
import signal
import subprocess
import threading
import time

import pytest

from faultline_qemu import GDB, gdb_command
from qemu_helpers import timeout_scale

BOOT_TIMEOUT = 120.0
GDB_TIMEOUT = 90.0

pytestmark = pytest.mark.skipif(shutil.which(GDB) is None, reason=f"{GDB} is not installed")


class GdbBatch:
    """gdb-multiarch -batch running `commands` against a QEMU stub, its
    output collected by a thread so the test can wait for a line while GDB
    is still running."""

    def __init__(self, kernel, socket, commands, script=None, cwd=None):
        self.command = gdb_command(kernel, str(socket), script, commands)
        self.proc = subprocess.Popen(
            self.command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, cwd=cwd,
            start_new_session=True)        # its own group: we stop only what we started
        self._text = ""
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for chunk in iter(lambda: self.proc.stdout.readline(), ""):
            with self._cond:
                self._text += chunk
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    @property
    def output(self):
        with self._cond:
            return self._text

    def wait_for(self, pattern, timeout=GDB_TIMEOUT):
        regex = re.compile(pattern, re.MULTILINE)
        deadline = time.monotonic() + timeout * timeout_scale()
        with self._cond:
            while True:
                found = regex.search(self._text)
                if found:
                    return found
                if self.proc.poll() is not None and not self._reader.is_alive():
                    pytest.fail(f"GDB exited before {pattern!r}:\n{self._text}")
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(f"GDB printed no {pattern!r} in {timeout}s:\n{self._text}")
                self._cond.wait(min(left, 0.5))

    def finish(self, timeout=GDB_TIMEOUT):
        """Waits for GDB to run its last command and exit; returns its output."""
        try:
            self.proc.wait(timeout=timeout * timeout_scale())
        except subprocess.TimeoutExpired:
            self.close()
            pytest.fail(f"GDB did not finish in {timeout}s:\n{self.output}")
        self._reader.join(timeout=5)
        return self.output

    def close(self):
        if self.proc.poll() is None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(timeout=5)
                    break
                except subprocess.TimeoutExpired:
                    continue
        self._reader.join(timeout=5)


@pytest.fixture
def gdb_batch(tmp_path):
    """Factory of GdbBatch runs; any still running are stopped at teardown."""
    runs = []

    def start(kernel, socket, commands, script=None):
        run = GdbBatch(kernel, socket, commands, script=script, cwd=tmp_path)
        runs.append(run)
        return run

    yield start
    for run in runs:
        run.close()


def backtrace_functions(text):
    """Function names of the first `bt` in GDB output, innermost first."""
    names = []
    for line in text.splitlines():
        found = re.match(r"#(\d+)\s+(?:0x[0-9a-f]+ in )?([A-Za-z_][\w.]*) \(", line)
        if found:
            if int(found.group(1)) == 0 and names:
                break               # the start of a second backtrace
            names.append(found.group(2))
    return names


def test_breakpoint_on_getpid_shows_trap_path(machine, gdb_batch, kernel_elf):
    # getpid is normally answered in the trap vector itself (a light system
    # call); lightsys=off sends it through dispatch to sys_getpid.
    m = machine(cpus=1, gdb=True, append="lightsys=off")
    m.expect_prompt(timeout=BOOT_TIMEOUT)

    gdb = gdb_batch(kernel_elf, m.gdb_socket, [
        "set pagination off",
        "set confirm off",
        "break sys_getpid",
        "continue",
        "bt",
        # tp holds the hart's struct cpu * in the kernel: who made the call?
        "print ((struct cpu *)$tp)->current->name",
        "delete",
        "detach",
    ])
    # Attaching stops the guest; the breakpoint is set before `continue`
    # resumes it, so a command typed from now on cannot slip past it (the
    # console input waits in the pipe while the guest is stopped).
    gdb.wait_for(r"^Breakpoint 1 at 0x[0-9a-f]+")
    m.send("getpidbench")
    out = gdb.finish()

    assert re.search(r"^(Thread \d+ hit )?Breakpoint 1, (0x[0-9a-f]+ in )?sys_getpid \(", out, re.MULTILINE), out
    frames = backtrace_functions(out)
    assert frames and frames[0] == "sys_getpid", f"backtrace:\n{out}"
    # The trap path: vector -> user_trap -> syscall_dispatch -> (do_sys_getpid,
    # which -O2 may inline or turn into a tail call) -> sys_getpid.
    for caller in ("syscall_dispatch", "user_trap"):
        assert caller in frames, f"{caller} missing from the backtrace {frames}:\n{out}"
    assert frames.index("syscall_dispatch") < frames.index("user_trap"), frames
    assert frames[-1] == "trap_vector", f"the outermost frame is not the trap vector: {frames}"
    assert re.search(r'^\$1 = "getpidbench', out, re.MULTILINE), \
        f"the breakpoint was not hit by getpidbench:\n{out}"
    assert "[Inferior 1 (process 1) detached]" in out

    # Detached, the guest runs on: the benchmark finishes and the shell works.
    result = m.expect_json(timeout=60)
    assert result["bench"] == "getpid"
    m.expect_prompt(timeout=60)
    assert m.run_shell("echo after gdb") == "after gdb\n"


def test_gdb_wait_holds_harts_until_continue(machine, gdb_batch, kernel_elf, gdb_script):
    m = machine(cpus=2, gdb_wait=True)
    # -S: nothing runs, not even the firmware, until GDB says so.
    time.sleep(0.5)
    assert m.running
    assert m.log == "", f"the guest ran before GDB continued it:\n{m.log}"

    gdb = gdb_batch(kernel_elf, m.gdb_socket, [
        "set pagination off",
        "set confirm off",
        "break kmain",
        "continue",
        "bt",
        "fl-harts",
        "delete",
        "detach",
    ], script=gdb_script)
    out = gdb.finish()

    assert re.search(r"^(Thread \d+ hit )?Breakpoint 1, (0x[0-9a-f]+ in )?kmain \(", out, re.MULTILINE), out
    assert backtrace_functions(out)[:1] == ["kmain"], out
    harts = re.findall(r"^[ *] (\d+)\s+(running|halted)\s+(\S+)\s+0x[0-9a-f]+", out, re.MULTILINE)
    assert sorted(int(h[0]) for h in harts) == [0, 1], f"fl-harts output:\n{out}"
    current = [line for line in out.splitlines() if line.startswith("* ")]
    assert len(current) == 1 and current[0].split()[3] == "S" and "kmain" in current[0], \
        f"the hart at the breakpoint should be in S-mode in kmain:\n{out}"

    m.expect_prompt(timeout=BOOT_TIMEOUT)
    assert re.search(r"^faultline: harts: 2 ", m.log, re.MULTILINE)
    # The secondary hart may report in after the prompt; let it, so that its
    # line does not land in the middle of the next command.
    deadline = time.monotonic() + 60 * timeout_scale()
    while not re.search(r"faultline: hart \d+ online", m.log):
        assert time.monotonic() < deadline, f"the second hart never came online:\n{m.tail()}"
        time.sleep(0.05)
    assert m.run_shell("echo booted") == "booted\n"
