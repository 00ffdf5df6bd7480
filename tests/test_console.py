"""The console as a person uses it: tools/run.py --interactive (QEMU
-nographic, the console on a terminal in raw mode) driven through a
pseudo-terminal, keys and pastes sent as a terminal sends them.

  - type-ahead during boot, long lines, a line over the limit, a paste of
    many lines: nothing typed is lost, and the Enter never is;
  - Ctrl-C and Ctrl-\\ signal the foreground job (every process of its
    group) and the shell prompts again; at the prompt Ctrl-C abandons the
    line; a background job is not hit, and cannot read what is typed for
    the shell;
  - `help` lists every program of the initrd with a description.

The in-guest `pgtests` (process groups, sessions, the foreground group,
kill of a group) and the kill command's group and signal forms run over the
usual pipe console (Machine).
"""

import re
import shutil
import sys
import time
from pathlib import Path

import pexpect
import pytest

from qemu_helpers import timeout_scale, wait_for_log
from faultline import GDB
from test_gdb import GdbBatch
from test_tools import read_newc

ROOT = Path(__file__).resolve().parent.parent
RUN_PY = ROOT / "tools" / "run.py"

BOOT_TIMEOUT = 120.0
TIMEOUT = 60.0
SHELL_LINE_MAX = 1023        # FL_CONSOLE_LINE_MAX less the newline
CTRL_C, CTRL_BACKSLASH, CTRL_A = b"\x03", b"\x1c", b"\x01"
ELF_MAGIC = b"\x7fELF"


class Terminal:
    """tools/run.py --interactive on a pseudo-terminal. Output is matched
    with every "\\r" dropped (QEMU's terminal adds them), and each match
    consumes the output up to its end, as Machine.expect does."""

    def __init__(self, kernel, initrd, workdir, *, cpus=1, gdb=False):
        argv = [sys.executable, str(RUN_PY), "--interactive", "--kernel", str(kernel),
                "--initrd", str(initrd), "--cpus", str(cpus), "--build-dir", str(workdir)]
        if gdb:
            argv.append("--gdb")
        self.log_path = Path(workdir) / "terminal.log"
        self._log = open(self.log_path, "wb")
        # pexpect gives the child a new session whose controlling terminal
        # is the pty: run.py execs QEMU, which puts that terminal in raw mode.
        self.child = pexpect.spawn(argv[0], argv[1:], cwd=str(workdir), timeout=None,
                                   dimensions=(50, 250))
        self.child.logfile_read = self._log
        self._text = ""
        self._pos = 0

    def _pump(self, wait):
        try:
            data = self.child.read_nonblocking(65536, timeout=wait)
        except pexpect.TIMEOUT:
            return
        except pexpect.EOF:
            raise AssertionError(f"QEMU ended; output so far:\n{self.tail()}") from None
        self._text += data.decode("utf-8", "replace").replace("\r", "")

    def tail(self, chars=3000):
        return self._text[-chars:]

    def expect(self, pattern, timeout=TIMEOUT):
        regex = re.compile(pattern, re.MULTILINE)
        deadline = time.monotonic() + timeout * timeout_scale()
        while True:
            found = regex.search(self._text, self._pos)
            if found:
                self._pos = found.end()
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} in {timeout * timeout_scale():.0f}s; "
                                     f"unmatched output:\n"
                                     f"{self._text[self._pos:][-3000:]!r}")
            self._pump(min(left, 0.5))

    def expect_prompt(self, timeout=TIMEOUT):
        """Waits for "$ " at the start of a line; returns the output before it."""
        start = self._pos
        found = self.expect(r"^\$ ", timeout)
        return self._text[start:found.start()]

    def send(self, data):
        """Writes all of data; blocks while the terminal's input queue is
        full (QEMU is not reading: the guest holds input back)."""
        view = memoryview(data)
        while view:
            view = view[self.child.send(bytes(view)):]

    def type_line(self, line):
        self.send(line.encode() + b"\r")

    def run(self, cmd, timeout=TIMEOUT):
        """Types cmd at a prompt; returns its output up to the next prompt."""
        self.type_line(cmd)
        self.expect(re.escape(cmd) + r"\n", timeout)
        return self.expect_prompt(timeout)

    def close(self):
        if self.child.isalive():
            self.send(CTRL_A + b"x")               # QEMU's own quit key
            try:
                self.child.expect(pexpect.EOF, timeout=10)
            except pexpect.TIMEOUT:
                pass
        self.child.close(force=True)
        self._log.close()


@pytest.fixture
def terminal(kernel_elf, initrd_cpio, tmp_path):
    """Factory: terminal(cpus=1, gdb=False) -> a Terminal; each is closed
    after the test, and a failing test shows where its output went."""
    made = []

    def start(**kwargs):
        t = Terminal(kernel_elf, initrd_cpio, tmp_path, **kwargs)
        made.append(t)
        return t

    yield start
    for t in made:
        t.close()
        print(f"terminal log: {t.log_path}")


@pytest.fixture
def term(terminal):
    """A Terminal at its first prompt."""
    t = terminal()
    t.expect_prompt(BOOT_TIMEOUT)
    return t


def assert_shell_works(t, word="still-here"):
    assert t.run(f"echo {word}") == f"{word}\n"


# ----- nothing typed is lost ---------------------------------------------------

@pytest.mark.skipif(shutil.which(GDB) is None, reason=f"{GDB} is not installed")
def test_typeahead_during_boot_is_kept(terminal, kernel_elf, tmp_path):
    """A line typed while the kernel boots, before any process reads the
    console, runs once the shell is up. The guest is held by GDB at
    uart_init, after the firmware has set the UART up, so the keys reach
    the UART and QEMU exactly while the kernel starts, every time.

    Bytes that reach QEMU even earlier, before the firmware's first output,
    lose their first byte to the firmware's own UART set-up, which the
    kernel cannot prevent (docs/architecture.md, Console)."""
    t = terminal(gdb=True)
    sock = t.expect(r"GDB stub on (\S+)\n", BOOT_TIMEOUT).group(1)
    typed = tmp_path / "typed"
    gdb = GdbBatch(kernel_elf, sock, [
        "set pagination off",
        "set confirm off",
        "break uart_init",
        "continue",
        # Hold the guest until the test has typed.
        f"shell while [ ! -e {typed} ]; do sleep 0.05; done",
        "delete",
        "detach",
    ], cwd=tmp_path)
    try:
        gdb.wait_for(r"Breakpoint 1, (0x[0-9a-f]+ in )?uart_init \(")
        t.type_line("echo typeahead1")
        time.sleep(1.0 * timeout_scale())     # QEMU takes the keys while the guest waits
        typed.touch()
        gdb.finish()
    finally:
        gdb.close()
    t.expect(r"^init: starting sh$", BOOT_TIMEOUT)
    out = t.expect(r"^(\$ )?(\S*typeahead1)$", TIMEOUT)
    assert out.group(2) == "typeahead1", f"typed ahead, got {out.group(0)!r}:\n{t.tail()}"
    assert "not found" not in t.tail()
    t.expect_prompt()
    assert_shell_works(t)


def test_600_character_line(term):
    word = ("0123456789" * 60)[:595]
    line = f"echo {word}"
    assert len(line) == 600
    assert term.run(line) == word + "\n"
    assert_shell_works(term)


def test_line_over_the_limit_is_rejected_whole(term):
    """Longer than the shell takes: every byte is still echoed, the shell
    says the line is too long, and the next line is unaffected."""
    line = "echo " + "y" * 1495
    out = term.run(line)
    assert out == f"sh: line too long (max {SHELL_LINE_MAX})\n"
    assert_shell_works(term)
    # Just within the limit still runs.
    word = "w" * (SHELL_LINE_MAX - len("echo "))
    assert term.run(f"echo {word}") == word + "\n"


def test_paste_of_many_lines(term):
    """Eight lines at once, twice what the old 256-byte buffer held: each
    runs, in order, and the shell prompts after the last. The echo of the
    pasted lines mixes with the commands' output, as on any terminal, so
    the output is told apart from the input by the quotes the shell
    removes ("paste""-3" prints paste-3)."""
    lines = [f'echo paste""-{i}-' + "z" * 50 for i in range(8)]
    term.send("".join(line + "\r" for line in lines).encode())
    for i in range(8):
        term.expect(rf"paste-{i}-z{{50}}\n")
    assert "not found" not in term.tail()
    term.expect_prompt()
    assert_shell_works(term)


def test_input_beyond_the_buffer_waits_upstream(term):
    """About 9 KiB pasted while the shell is busy, twice the console's
    4096-byte ring: the console stops taking bytes when the ring is full,
    the rest waits in QEMU and the terminal, and every line still runs."""
    term.type_line("sleep 2000")
    term.expect(r"sleep 2000\n")
    lines = [f'echo flow""-{i:03d}-' + "q" * 60 for i in range(120)]
    assert sum(len(line) + 1 for line in lines) > 2 * 4096
    term.send("".join(line + "\r" for line in lines).encode())
    for i in range(len(lines)):
        term.expect(rf"flow-{i:03d}-q{{60}}\n", timeout=120)
    assert "not found" not in term.tail(20000)
    term.expect_prompt()
    assert_shell_works(term)


# ----- Ctrl-C and Ctrl-\ ------------------------------------------------------

def interrupt_running(t, command, key):
    """Starts `command` in the foreground and sends key once it runs."""
    t.type_line(f"echo started; {command}")
    t.expect(r"^started$")
    time.sleep(0.5 * timeout_scale())        # from the echo to the job's exec
    t.send(key)


def test_ctrl_c_interrupts_spin(term):
    interrupt_running(term, "spin", CTRL_C)
    term.expect(r"\^C\n")
    term.expect_prompt()
    assert_shell_works(term)
    # And again: the shell took the console back.
    interrupt_running(term, "spin", CTRL_C)
    term.expect(r"\^C\n")
    term.expect_prompt()
    assert_shell_works(term, "twice")


def test_ctrl_c_at_the_prompt(term):
    term.send(CTRL_C)
    term.expect(r"\^C\n\$ ")
    assert_shell_works(term)
    # A half-typed line is abandoned, not run and not kept.
    term.send(b"echo partial")
    term.expect(r"echo partial")
    term.send(CTRL_C)
    term.expect(r"\^C\n\$ ")
    assert term.run("echo fresh") == "fresh\n"


@pytest.mark.parametrize("key, echo, sig", [(CTRL_C, r"\^C", 2), (CTRL_BACKSLASH, r"\^\\", 3)],
                         ids=["ctrl-c", "ctrl-backslash"])
def test_key_signals_every_process_of_the_job(term, key, echo, sig):
    """`pgtests fgjob`: two spinning children and a parent that catches
    SIGINT and SIGQUIT. The key reaches all three."""
    term.type_line("pgtests fgjob")
    term.expect(r"^fgjob: child ready$")
    term.expect(r"^fgjob: child ready$")
    term.send(key)
    term.expect(echo + r"\n")
    out = term.expect_prompt()
    assert len(re.findall(rf"^fgjob: child \d+ signal {sig}$", out, re.MULTILINE)) == 2, out
    assert re.search(rf"^fgjob: parent caught signal {sig}$", out, re.MULTILINE), out
    assert "caught signal" not in out.replace(f"caught signal {sig}", ""), out
    assert_shell_works(term)


def test_ctrl_backslash_quits_spin(term):
    interrupt_running(term, "spin", CTRL_BACKSLASH)
    term.expect(r"\^\\\n")
    term.expect_prompt()
    assert_shell_works(term)


def background_pid(t, command):
    out = t.run(f"{command} &")
    found = re.search(r"^\[(\d+)\]$", out, re.MULTILINE)
    assert found, out
    return int(found.group(1))


def kill_and_wait_job_done(t, pid, sig):
    """The shell reports an ended background job before a later prompt:
    possibly the very prompt after `kill`, so that output counts too."""
    seen = t.run(f"kill -{sig} {pid}")
    for _ in range(20):
        if f"[{pid}] done signal {sig}" in seen:
            return
        seen += t.run("echo")
        time.sleep(0.2 * timeout_scale())
    raise AssertionError(f"no '[{pid}] done signal {sig}':\n{t.tail()}")


def test_background_job_survives_ctrl_c(term):
    pid = background_pid(term, "spin")
    interrupt_running(term, "spin", CTRL_C)
    term.expect(r"\^C\n")
    term.expect_prompt()
    ps = term.run("ps")
    rows = [line.split() for line in ps.splitlines() if line.split()[:1] == [str(pid)]]
    assert rows and rows[0][-1] == "spin", f"background spin {pid} is gone:\n{ps}"
    assert f"[{pid}] done" not in ps
    kill_and_wait_job_done(term, pid, 15)


def test_background_reader_does_not_take_the_shells_input(term):
    """A background `cat` reading the console waits: what is typed goes to
    the shell, the foreground job."""
    pid = background_pid(term, "cat")
    assert term.run("echo mine") == "mine\n"
    assert term.run("echo again") == "again\n"
    kill_and_wait_job_done(term, pid, 15)


# ----- help ---------------------------------------------------------------------

def initrd_programs(initrd_cpio):
    return {name for name, _, data in read_newc(Path(initrd_cpio).read_bytes())
            if data[:4] == ELF_MAGIC}


def test_help_lists_every_program(term, initrd_cpio):
    out = term.run("help")
    sections = re.split(r"^(Built into the shell|Programs in the initrd):$", out, flags=re.MULTILINE)
    assert len(sections) == 5, out
    builtins = dict(re.findall(r"^  (\S+)\s+(.+)$", sections[2], re.MULTILINE))
    assert set(builtins) == {":", "[", "break", "continue", "exit", "false", "help", "read",
                             "shift", "test", "true", "wait"}, out
    rest = sections[4]
    listed = dict(re.findall(r"^  (\S+)\s+(.+)$", rest, re.MULTILINE))
    programs = initrd_programs(initrd_cpio)
    assert programs and set(listed) == programs, \
        f"help lists {sorted(listed)}, the initrd holds {sorted(programs)}"
    missing = sorted(name for name, what in listed.items() if what == "(no description)")
    assert not missing, f"no description in user/sh/help.c's table for: {missing}"
    assert "Ctrl-C" in rest
    assert_shell_works(term)


# ----- over the pipe console --------------------------------------------------

def test_pgtests(shell):
    out = shell.run_shell("pgtests", timeout=300)
    failed = [line for line in out.splitlines() if "FAILED" in line]
    assert not failed, out
    assert re.search(r"^ALL TESTS PASSED$", out, re.MULTILINE), out
    assert len(re.findall(r"^\w+: OK$", out, re.MULTILINE)) >= 7, out


def test_sigtests_eintr_read_leaves_typed_input_alone(shell):
    """eintr(read) blocks in a console read: with the next command already
    typed it must neither return early nor take a byte of it."""
    shell.send_raw("sigtests eintr" + shell.newline + "echo after" + shell.newline)
    out = shell.expect_prompt(timeout=120)
    assert re.search(r"^eintr: OK$", out, re.MULTILINE), out
    assert re.search(r"^ALL TESTS PASSED$", out, re.MULTILINE), out
    out = shell.expect_prompt(timeout=60)
    assert out.endswith("after\n") and "not found" not in out, out


def test_kill_command_signal_and_group(shell):
    """kill -INT PID and kill -SIG -PGID: a background job leads its own
    group, so its pid names the group too."""
    out = shell.run_shell("sleep 100000 &")
    first = int(re.search(r"^\[(\d+)\]$", out, re.MULTILINE).group(1))
    out = shell.run_shell(f"kill -INT {first}")
    assert "kill:" not in out, out
    shell.run_shell("echo")
    wait_for_log(shell, rf"^\[{first}\] done signal 2$")

    out = shell.run_shell("sleep 100000 &")
    second = int(re.search(r"^\[(\d+)\]$", out, re.MULTILINE).group(1))
    out = shell.run_shell(f"kill -QUIT -{second}")
    assert "kill:" not in out, out
    shell.run_shell("echo")
    wait_for_log(shell, rf"^\[{second}\] done signal 3$")
    out = shell.run_shell(f"kill -- -{second}")
    assert re.search(rf"kill: -{second}: no such process", out), out
