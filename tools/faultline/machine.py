"""Machine: one QEMU running faultline, driven through its console.

It boots the kernel, types shell commands and waits for what they print.
tools/run.py uses it for batch runs, and the pytest suite imports it
(pytest.ini puts tools/ on sys.path):

    from faultline import Machine

    with Machine("build/kernel.elf", "build/initrd.cpio", workdir=tmp_path) as m:
        m.start(cpus=2, append="mm=paging")
        m.expect_prompt()
        print(m.run_shell("ls"))
        m.send("halt")
        assert m.wait_exit() == 0

The console is read by a thread of our own rather than through a pty: QEMU
writes to a pipe, so nothing translates line endings behind our back and the
log on disk is always complete, even when a test never reads it.
"""

from __future__ import annotations

import atexit
import codecs
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import Callable, Optional, Sequence, Union

from .gdb import short_socket_path
from .protocol import PROMPT, describe_exit, find_prompt
from .qemu import (ARCHES, DEFAULT_ARCH, blkdebug_config, death_signal_prefix, ensure_disk,
                   pd_size_of, qemu_command, timeout_scale)

Pattern = Union[str, "re.Pattern[str]"]


class MachineError(Exception):
    """A Machine did not do what was expected; the message has the log tail."""


class MachineTimeout(MachineError, TimeoutError):
    """Nothing matched in time (or, for wait_exit, QEMU did not end in time).
    `idle` is True when the limit hit was the one on silence."""

    def __init__(self, message: str, idle: bool = False):
        super().__init__(message)
        self.idle = idle


class MachineExited(MachineError):
    """QEMU ended while we were still waiting for output."""


# Every started Machine, so that an interpreter exit can still stop them.
_live_machines: "weakref.WeakSet[Machine]" = weakref.WeakSet()


def _close_all_at_exit() -> None:
    for machine in list(_live_machines):
        machine.close()


atexit.register(_close_all_at_exit)


def _compile(pattern: Pattern, flags: int = 0) -> "re.Pattern[str]":
    return pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, flags)


# Above this much unmatched output, waiters rescan at most every FLOOD_PAUSE
# seconds instead of after every chunk: a kernel printing in a loop must not
# make the test process burn a CPU rescanning megabytes.
FLOOD_UNREAD = 256 * 1024
FLOOD_PAUSE = 0.05
# Pause after a short read so console bytes arrive in batches (see _read_console).
READ_COALESCE = 0.002


class Machine:
    """One QEMU running faultline, console on pipes, in its own process group.

    Output is matched against a text copy of the console in which every
    "\\r" has been dropped, so "\\r\\n" and "\\n" line ends look the same.
    expect()/expect_line()/run_shell() consume output: each search starts
    where the previous match ended. The log file holds the raw bytes.
    """

    # Line end sent after each command: what a terminal's Enter key sends
    # through QEMU's raw-mode stdio, so it is what `make qemu` users type too.
    newline = "\r"

    def __init__(
        self,
        kernel: Union[str, Path],
        initrd: Optional[Union[str, Path]] = None,
        *,
        workdir: Optional[Union[str, Path]] = None,
        log_path: Optional[Union[str, Path]] = None,
        name: str = "qemu",
        qemu: Optional[str] = None,
        arch: str = DEFAULT_ARCH,
        on_output: Optional[Callable[[str], None]] = None,
    ):
        # Absolute paths: QEMU runs in workdir, not in the caller's directory.
        self.kernel = Path(kernel).absolute()
        self.initrd = Path(initrd).absolute() if initrd is not None else None
        self.name = name
        if arch not in ARCHES:
            raise MachineError(f"no QEMU machine for arch {arch!r} (known: {', '.join(sorted(ARCHES))})")
        self.arch = arch
        self.qemu = qemu or ARCHES[arch]["qemu"]
        self.on_output = on_output
        self.workdir = Path(workdir).absolute() if workdir is not None else Path(
            tempfile.mkdtemp(prefix="faultline-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = (Path(log_path).absolute() if log_path
                         else self.workdir / f"{name}.log")
        self.command: list = []
        self.gdb_socket: Optional[Path] = None
        self.disk: Optional[Path] = None
        self.pd: Optional[Path] = None     # the paging device's image (pd=)
        self.exit_code: Optional[int] = None
        self.killed = False             # close() had to stop QEMU

        self._proc: Optional[subprocess.Popen] = None
        # Console text with "\r" removed, kept three ways so that no append
        # copies the whole log: every chunk (for .log), the text after the
        # last match (what expect() searches), and chunks not yet added to it.
        self._parts: list = []
        self._unread = ""
        self._pending: list = []
        self._stderr = b""
        self._eof = False
        self._last_output = time.monotonic()
        self._cond = threading.Condition()
        self._threads: list = []
        self._log = None
        self._scratch_dirs: list = []   # made by us outside workdir; removed by close()

    # ----- starting and stopping -------------------------------------------

    def start(
        self,
        cpus: int = 1,
        mem: str = "128M",
        append: str = "",
        icount: bool = False,
        extra_args: Sequence[str] = (),
        *,
        disk: Optional[Union[str, Path]] = None,
        disk_size: Optional[Union[str, int]] = None,
        gdb: bool = False,
        gdb_wait: bool = False,
        blkdebug: Optional[Sequence[dict]] = None,
        disk_readonly: bool = False,
        aclint: bool = True,
        pd_size: Optional[Union[str, int]] = None,
    ) -> "Machine":
        """Starts QEMU. Returns self so `Machine(...).start(...)` reads well.

        disk_size without disk puts a fresh disk image in workdir; disk with
        disk_size creates/resizes that image. blkdebug: error-injection rules
        for the disk (see blkdebug_config); their config file is written to
        workdir as <name>-blkdebug.conf. disk_readonly=True attaches the disk
        read-only (the device then offers VIRTIO_BLK_F_RO). A boot with
        pd=SIZE in append gets a paging device, a second disk image of that
        size (pd_size= gives it another size and pd_size=False none, to see
        the kernel refuse the boot). gdb=True opens a GDB stub on a
        Unix socket private to this machine (self.gdb_socket); gdb_wait=True
        also keeps the harts stopped until GDB continues them. aclint: see
        qemu_command.
        """
        if self._proc is not None:
            raise MachineError("this Machine was already started; use a new one")
        if not self.kernel.is_file():
            raise MachineError(f"kernel not found: {self.kernel}")
        if self.initrd is not None and not self.initrd.is_file():
            raise MachineError(f"initrd not found: {self.initrd}")
        if not shutil.which(self.qemu):
            raise MachineError(f"{self.qemu} not found; run `make toolchain`")

        if disk_size is not None:
            self.disk = ensure_disk(Path(disk or self.workdir / f"{self.name}-disk.img").absolute(),
                                    disk_size)
        elif disk is not None:
            self.disk = Path(disk).absolute()
        blkdebug_path = None
        if blkdebug is not None:
            if self.disk is None:
                raise MachineError("blkdebug rules need a disk (disk or disk_size)")
            blkdebug_path = self.workdir / f"{self.name}-blkdebug.conf"
            blkdebug_path.write_text(blkdebug_config(blkdebug))
        if gdb or gdb_wait:
            preferred = self.workdir / f"{self.name}-gdb.sock"
            self.gdb_socket = short_socket_path(preferred)
            if self.gdb_socket != preferred:
                self._scratch_dirs.append(self.gdb_socket.parent)
            if self.gdb_socket.exists():
                self.gdb_socket.unlink()

        # pd=SIZE in the command line: a fresh paging-device image of that
        # size beside the disk (pd_size= overrides, for a mismatch test;
        # pd_size=False attaches none, to see the kernel refuse the boot).
        if pd_size is None:
            pd_size = pd_size_of(append)
        if pd_size and self.disk is not None:
            self.pd = ensure_disk((self.workdir / f"{self.name}-pd.img").absolute(), pd_size)
        self.command = qemu_command(
            self.kernel, self.initrd, cpus=cpus, mem=mem, append=append,
            icount=icount, disk=self.disk, blkdebug_config_path=blkdebug_path,
            disk_readonly=disk_readonly, pd=self.pd, console="pipe",
            gdb_socket=self.gdb_socket, gdb_wait=gdb_wait,
            extra_args=extra_args, qemu=self.qemu, aclint=aclint, arch=self.arch)

        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "wb")
        self._proc = subprocess.Popen(
            death_signal_prefix() + self.command,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            # Own session = own process group: close() can stop QEMU and
            # nothing else, and a Ctrl-C aimed at the tests does not hit
            # QEMU before we have saved its log.
            start_new_session=True,
            cwd=self.workdir,
        )
        _live_machines.add(self)
        self._last_output = time.monotonic()
        for target, stream in ((self._read_console, self._proc.stdout),
                               (self._read_stderr, self._proc.stderr)):
            t = threading.Thread(target=target, args=(stream,), daemon=True,
                                 name=f"{self.name}-{target.__name__}")
            t.start()
            self._threads.append(t)
        if self.gdb_socket:
            self._wait_for_socket(self.gdb_socket, 10.0)
        return self

    def _wait_for_socket(self, path: Path, timeout: float) -> None:
        # QEMU creates the socket while it sets up the machine; a GDB started
        # before that would fail to connect.
        deadline = time.monotonic() + timeout * timeout_scale()
        while not path.exists():
            if self._proc.poll() is not None or time.monotonic() > deadline:
                raise MachineError(self._explain(f"GDB socket {path} never appeared"))
            time.sleep(0.02)

    def close(self) -> Optional[int]:
        """Stops QEMU if it still runs (its own process group only), waits for
        the reader threads and closes the log. Safe to call twice. Returns
        QEMU's exit status; self.killed tells whether close() had to stop it
        (QEMU then exits 0, which is no clean halt)."""
        proc = self._proc
        if proc is None:
            return None
        # poll() before signalling: once reaped, the pid may belong to someone else.
        if proc.poll() is None:
            # QEMU exits 0 on SIGTERM, so remember that the code is ours.
            self.killed = True
            self._signal_group(signal.SIGTERM)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._signal_group(signal.SIGKILL)
                proc.wait()
        for stream in (proc.stdin,):
            try:
                stream.close()
            except OSError:
                pass
        for t in self._threads:
            t.join(timeout=5)
        with self._cond:
            self.exit_code = proc.returncode
            if self._log and not self._log.closed:
                self._log.close()
        for d in self._scratch_dirs:
            shutil.rmtree(d, ignore_errors=True)
        _live_machines.discard(self)
        return self.exit_code

    def _signal_group(self, sig: int) -> None:
        try:
            os.killpg(self._proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def __enter__(self) -> "Machine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def pid(self) -> Optional[int]:
        return self._proc.pid if self._proc else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # ----- reader threads ---------------------------------------------------

    def _read_console(self, stream) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            text = decoder.decode(chunk, final=not chunk).replace("\r", "")
            with self._cond:
                if chunk and self._log and not self._log.closed:
                    self._log.write(chunk)
                    self._log.flush()
                if text:
                    self._parts.append(text)
                    self._pending.append(text)
                self._last_output = time.monotonic()
                if not chunk:
                    self._eof = True
                self._cond.notify_all()
            if text and self.on_output:
                try:
                    self.on_output(text)
                except Exception:
                    # A broken callback must not stop the reader: the
                    # console would stall and EOF would never be seen.
                    self.on_output = None
            if not chunk:
                return
            if len(chunk) < 4096:
                # QEMU writes the UART a byte at a time; without a pause we
                # would wake for every few bytes and spend a CPU doing it.
                time.sleep(READ_COALESCE)

    def _read_stderr(self, stream) -> None:
        # QEMU's own complaints (bad option, missing file). Kept apart from the
        # console so they cannot confuse a match, but shown in every error.
        data = stream.read()
        with self._cond:
            self._stderr += data
            self._cond.notify_all()

    # ----- output -----------------------------------------------------------

    @property
    def log(self) -> str:
        """Everything the console printed so far ("\\r" removed)."""
        with self._cond:
            if len(self._parts) > 1:
                self._parts[:] = ["".join(self._parts)]
            return self._parts[0] if self._parts else ""

    @property
    def qemu_stderr(self) -> str:
        with self._cond:
            return self._stderr.decode("utf-8", "replace")

    @property
    def unread(self) -> str:
        """Output after the last match."""
        with self._cond:
            return self._take_pending()

    def _take_pending(self) -> str:
        # Caller holds self._cond.
        if self._pending:
            self._unread += "".join(self._pending)
            self._pending.clear()
        return self._unread

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.splitlines()[-lines:])

    def _explain(self, what: str) -> str:
        parts = [f"{self.name}: {what}",
                 f"  QEMU: {describe_exit(self._proc.poll() if self._proc else None)}",
                 f"  console log: {self.log_path}"]
        err = self.qemu_stderr.strip()
        if err:
            parts.append("  QEMU stderr:\n    " + err.replace("\n", "\n    "))
        parts.append("  last console lines:\n    " + self.tail().replace("\n", "\n    "))
        return "\n".join(parts)

    def _wait_for(self, finder, timeout: float, what: str,
                  idle_timeout: Optional[float] = None):
        """Calls finder(text_after_cursor) under the lock until it returns
        (value, consumed_chars); advances the cursor and returns value.
        Gives up after `timeout` s, or after `idle_timeout` s of silence."""
        scale = timeout_scale()
        deadline = time.monotonic() + timeout * scale
        idle = idle_timeout * scale if idle_timeout else None
        while True:
            with self._cond:
                unread = self._take_pending()
                found = finder(unread)
                if found is not None:
                    value, consumed = found
                    self._unread = unread[consumed:]
                    return value
                if self._eof:
                    # The console has closed: no more output can ever come.
                    break
                now = time.monotonic()
                if now >= deadline:
                    raise MachineTimeout(self._explain(
                        f"timed out after {timeout * scale:.0f}s waiting for {what}"))
                if idle is not None and now - self._last_output >= idle:
                    raise MachineTimeout(self._explain(
                        f"no console output for {idle:.0f}s while waiting for {what}"),
                        idle=True)
                if not self._pending:       # nothing arrived while we searched
                    self._cond.wait(min(deadline - now, 0.5))
                flooded = len(unread) > FLOOD_UNREAD
            if flooded:
                time.sleep(FLOOD_PAUSE)
        if self._proc:
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        raise MachineExited(self._explain(f"QEMU ended while waiting for {what}"))

    def expect(self, pattern: Pattern, timeout: float = 30.0, flags: int = 0) -> "re.Match":
        """Waits for `pattern` (a regex, searched, not anchored) in the output
        after the previous match. Returns the match object (positions are
        relative to where the search began).

        Note: output arrives in pieces, so a pattern ending in `$` or `.*`
        can match a line that is not complete yet; use expect_line() for
        whole lines.
        """
        regex = _compile(pattern, flags)

        def finder(text):
            m = regex.search(text)
            return (m, m.end()) if m else None

        return self._wait_for(finder, timeout, repr(regex.pattern))

    def expect_line(self, pattern: Pattern, timeout: float = 30.0, flags: int = 0) -> "re.Match":
        """Waits for a complete line (ended by a newline) that `pattern`
        matches (re.search within the line). Returns the match on that line;
        output up to the end of that line is consumed."""
        regex = _compile(pattern, flags)

        def finder(text):
            pos = 0
            while True:
                end = text.find("\n", pos)
                if end < 0:
                    return None
                m = regex.search(text[pos:end])
                if m:
                    return m, end + 1
                pos = end + 1

        return self._wait_for(finder, timeout, f"a line matching {regex.pattern!r}")

    def expect_prompt(self, timeout: float = 60.0, idle_timeout: Optional[float] = None) -> str:
        """Waits for the shell prompt "$ " at the start of a line and returns
        the output before it."""
        def finder(text):
            pos = find_prompt(text)
            return (text[:pos], pos + len(PROMPT)) if pos >= 0 else None

        return self._wait_for(finder, timeout, "the shell prompt '$ '", idle_timeout)

    def expect_json(self, timeout: float = 30.0) -> dict:
        """Waits for the next `FL-JSON {...}` line and returns the object."""
        m = self.expect_line(r"^FL-JSON (\{.*\})\s*$", timeout)
        try:
            return json.loads(m.group(1))
        except json.JSONDecodeError as e:
            raise MachineError(self._explain(f"bad FL-JSON line ({e}): {m.group(0)!r}"))

    # ----- input ------------------------------------------------------------

    def send_raw(self, data: Union[str, bytes]) -> None:
        """Writes bytes to the console as they are."""
        if self._proc is None or self._proc.stdin is None:
            raise MachineError("machine not started")
        if isinstance(data, str):
            data = data.encode()
        try:
            self._proc.stdin.write(data)
            self._proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise MachineExited(self._explain("QEMU is gone; cannot send input")) from None

    def send(self, line: str) -> None:
        """Types one line at the console (Enter is added)."""
        if "\n" in line or "\r" in line:
            raise ValueError("send() takes one line without line ends")
        self.send_raw(line + self.newline)

    def run_shell(self, cmd: str, timeout: float = 60.0) -> str:
        """Runs one shell command and returns its output: the text between the
        echo of the command line and the next prompt, "\\r" removed. Call it
        when the shell is at a prompt (after expect_prompt() or run_shell())."""
        self.send(cmd)
        echo = re.compile(re.escape(cmd) + r"[ \t]*\n")

        def past_echo(text):
            m = echo.search(text)
            return (None, m.end()) if m else None

        self._wait_for(past_echo, timeout, f"the echo of {cmd!r}")
        return self.expect_prompt(timeout)

    # ----- the end ----------------------------------------------------------

    def wait_exit(self, timeout: float = 60.0, idle_timeout: Optional[float] = None) -> int:
        """Waits for QEMU to end by itself and returns its exit status (see
        EXIT_*; negative = killed by a signal). Raises MachineTimeout after
        `timeout` seconds, or after `idle_timeout` seconds without console
        output; QEMU is left running then (close() stops it)."""
        scale = timeout_scale()
        deadline = time.monotonic() + timeout * scale
        idle = idle_timeout * scale if idle_timeout else None
        with self._cond:
            while not self._eof:
                now = time.monotonic()
                if now >= deadline:
                    raise MachineTimeout(self._explain(
                        f"QEMU still running after {timeout * scale:.0f}s"))
                if idle is not None and now - self._last_output >= idle:
                    raise MachineTimeout(self._explain(
                        f"no console output for {idle:.0f}s (idle timeout)"), idle=True)
                self._cond.wait(min(deadline - now, 0.5))
        try:
            code = self._proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            # stdout closed but the process lingers: treat as still running.
            raise MachineTimeout(self._explain("console closed but QEMU did not exit"))
        for t in self._threads:
            t.join(timeout=5)
        self.exit_code = code
        return code
