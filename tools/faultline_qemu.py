"""Starting and driving QEMU for faultline.

This module is the one place that knows how faultline's QEMU command line
looks. tools/run.py uses it for `make qemu` and batch runs, and the pytest
suite imports it (pytest.ini puts tools/ on sys.path):

    from faultline_qemu import Machine

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
from typing import Callable, Iterable, Optional, Sequence, Union

QEMU = "qemu-system-riscv64"
GDB = "gdb-multiarch"

# QEMU's exit status is the code the kernel wrote to the sifive,test0 device
# (see docs/protocol.md).
EXIT_CLEAN = 0
EXIT_BAD_PARAM = 2
EXIT_PANIC = 3
EXIT_MEANINGS = {
    EXIT_CLEAN: "clean halt",
    EXIT_BAD_PARAM: "bad boot parameter",
    EXIT_PANIC: "kernel panic",
}

PROMPT = "$ "
PANIC_TAG = "FL-PANIC:"
JSON_TAG = "FL-JSON "

# A Unix socket path must fit in sockaddr_un.sun_path (108 bytes with the NUL).
UNIX_PATH_MAX = 107

Pattern = Union[str, "re.Pattern[str]"]


def timeout_scale() -> float:
    """Multiplier for every timeout, from FL_TIMEOUT_SCALE (default 1).

    TCG speed varies a lot between a laptop and a loaded CI machine running
    two QEMUs at once; one knob is easier than editing every test.
    """
    try:
        scale = float(os.environ.get("FL_TIMEOUT_SCALE", "1"))
    except ValueError:
        return 1.0
    return scale if scale > 0 else 1.0


def parse_size(text: str) -> int:
    """'64M' -> 67108864. Accepts K, M, G suffixes (powers of 1024) or bytes."""
    m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", str(text), re.IGNORECASE)
    if not m:
        raise ValueError(f"bad size {text!r} (use e.g. 4096, 512K, 64M, 1G)")
    shift = {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]
    return int(m.group(1)) << shift


def describe_exit(code: Optional[int]) -> str:
    """Human-readable meaning of a QEMU exit status."""
    if code is None:
        return "still running"
    if code < 0:
        return f"killed by signal {-code}"
    if code == 1:
        return "exit 1 (QEMU could not start, or `halt 1`)"
    return EXIT_MEANINGS.get(code, f"halt {code}")


def _qemu_opt_escape(value: str) -> str:
    # QEMU option values are comma-separated; a literal comma is written ",,".
    return str(value).replace(",", ",,")


# ----- blkdebug: QEMU's error-injecting block driver --------------------------
#
# A disk can be wrapped in blkdebug so that chosen requests fail, to test the
# kernel's error paths. Rules are dicts; each becomes one [inject-error]
# section of the config file QEMU reads:
#
#   {"event": "read_aio", "errno": 5, "sector": 65528, "once": False}
#
# event   (required) the block-layer event that arms the rule; "read_aio" and
#         "write_aio" fire on every guest read and write of a raw image
# errno   errno the request fails with (default 5, EIO). The guest sees only
#         "I/O error" whatever the number; avoid 28 (ENOSPC): QEMU's default
#         werror=enospc policy then pauses the VM instead of reporting it
# sector  fail only requests that cover this 512-byte sector (default: all)
# once    fail only the first matching request (default False)
# iotype  which requests fail once armed: "read", "write", ... QEMU itself
#         reads sector 0 when it attaches the disk (geometry guess), which
#         arms a read_aio rule before the guest runs, and an armed rule with
#         no iotype fails every kind of request. So iotype defaults to "read"
#         for read_aio and "write" for write_aio.
# state, immediately   passed through as QEMU documents them

BLKDEBUG_DEFAULT_ERRNO = 5          # EIO
BLKDEBUG_KEYS = ("event", "errno", "sector", "once", "iotype", "state", "immediately")
BLKDEBUG_EVENT_IOTYPE = {"read_aio": "read", "write_aio": "write"}


def _blkdebug_value(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    text = str(value)
    if '"' in text or "\n" in text:
        raise ValueError(f"blkdebug value {text!r} may not contain quotes or line ends")
    return text


def blkdebug_config(rules: Sequence[dict]) -> str:
    """The text of a blkdebug config file with one [inject-error] section per
    rule (see above). Pure; raises ValueError on a malformed rule."""
    if not rules:
        raise ValueError("blkdebug needs at least one rule")
    sections = []
    for rule in rules:
        unknown = set(rule) - set(BLKDEBUG_KEYS)
        if unknown:
            raise ValueError(f"unknown blkdebug rule keys {sorted(unknown)}; "
                             f"valid: {', '.join(BLKDEBUG_KEYS)}")
        if not rule.get("event"):
            raise ValueError(f"blkdebug rule {rule!r} has no event")
        full = {"errno": BLKDEBUG_DEFAULT_ERRNO, **rule}
        if "iotype" not in full and full["event"] in BLKDEBUG_EVENT_IOTYPE:
            full["iotype"] = BLKDEBUG_EVENT_IOTYPE[full["event"]]
        lines = ["[inject-error]"]
        lines += [f'{key} = "{_blkdebug_value(full[key])}"' for key in BLKDEBUG_KEYS if key in full]
        sections.append("\n".join(lines) + "\n")
    return "\n".join(sections)


def qemu_command(
    kernel: Union[str, Path],
    initrd: Optional[Union[str, Path]] = None,
    *,
    cpus: int = 1,
    mem: str = "128M",
    append: str = "",
    icount: bool = False,
    disk: Optional[Union[str, Path]] = None,
    blkdebug_config_path: Optional[Union[str, Path]] = None,
    disk_readonly: bool = False,
    console: str = "pipe",
    gdb_socket: Optional[Union[str, Path]] = None,
    gdb_wait: bool = False,
    extra_args: Sequence[str] = (),
    qemu: str = QEMU,
    aclint: bool = True,
) -> list:
    """Builds the QEMU argv. Pure: touches no file, starts nothing.

    console="pipe": serial on stdin/stdout, no monitor and no display, for
    scripted runs (no Ctrl-A escape character can be eaten by a monitor).
    console="terminal": -nographic, for a person at a terminal (Ctrl-A x quits).
    aclint=True adds the ACLINT devices to the machine, among them the SSWI
    through which the kernel sends IPIs without the firmware; aclint=False
    leaves only the CLINT, and IPIs then go through SBI.
    """
    if cpus < 1:
        raise ValueError("cpus must be >= 1")
    if console not in ("pipe", "terminal"):
        raise ValueError(f"console must be 'pipe' or 'terminal', not {console!r}")
    if gdb_wait and not gdb_socket:
        raise ValueError("gdb_wait needs gdb_socket")
    if (blkdebug_config_path is not None or disk_readonly) and disk is None:
        raise ValueError("blkdebug_config_path and disk_readonly need a disk")

    cmd = [
        qemu,
        "-machine", "virt,aclint=on" if aclint else "virt",
        "-cpu", "rv64",
        "-smp", str(cpus),
        "-m", str(mem),
        "-bios", "default",          # OpenSBI, which starts the kernel in S-mode
        "-kernel", str(kernel),
    ]
    if initrd is not None:
        cmd += ["-initrd", str(initrd)]
    if append:
        cmd += ["-append", append]
    if icount:
        # shift=0: one instruction = one virtual ns, so cycle and instret
        # counts are deterministic (what the budgets in tests rely on).
        # sleep=off: when every hart idles, the virtual clock jumps to the
        # next timer instead of following the host's clock, so a measurement
        # that spans an idle hart (the cross-hart signal) does not depend on
        # how busy the host is.
        cmd += ["-icount", "shift=0,sleep=off"]
    if disk is not None:
        # The swap/paging device. Modern (virtio 1.x) MMIO transport: QEMU's
        # default is the legacy version-1 register layout.
        if blkdebug_config_path is not None:
            # The raw format driver over blkdebug over the image file: the
            # raw driver's reads and writes are the read_aio/write_aio events.
            source = (f"file.driver=blkdebug,"
                      f"file.config={_qemu_opt_escape(blkdebug_config_path)},"
                      f"file.image.filename={_qemu_opt_escape(disk)}")
        else:
            source = f"file={_qemu_opt_escape(disk)}"
        # readonly=on: the device offers VIRTIO_BLK_F_RO
        readonly = ",readonly=on" if disk_readonly else ""
        cmd += [
            "-global", "virtio-mmio.force-legacy=false",
            "-drive", f"{source},if=none,format=raw,id=disk0{readonly}",
            "-device", "virtio-blk-device,drive=disk0",
        ]
    if console == "pipe":
        cmd += ["-display", "none", "-serial", "stdio", "-monitor", "none"]
    else:
        cmd += ["-nographic"]
    # A guest reset ends QEMU instead of booting again, so a reboot can never
    # look like a second, endless run.
    cmd += ["-no-reboot"]
    if gdb_socket:
        cmd += [
            "-chardev",
            f"socket,id=gdb0,path={_qemu_opt_escape(gdb_socket)},server=on,wait=off",
            "-gdb", "chardev:gdb0",
        ]
        if gdb_wait:
            cmd += ["-S"]       # harts stay stopped until GDB says continue
    cmd += list(extra_args)
    return cmd


def ensure_disk(path: Union[str, Path], size: Union[str, int]) -> Path:
    """Creates (sparse) or resizes a raw disk image to exactly `size` bytes."""
    path = Path(path)
    nbytes = parse_size(size) if isinstance(size, str) else int(size)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.stat().st_size != nbytes:
        with open(path, "ab"):
            pass
        os.truncate(path, nbytes)
    return path


# QEMU's file driver locks byte ranges of an image it has open (open file
# description locks): offsets 100 + n for each permission it holds and
# 200 + n for each it refuses others. Any lock there means a QEMU uses it.
QEMU_LOCK_FIRST_BYTE = 100
QEMU_LOCK_BYTES = 200


def disk_locked(path: Union[str, Path]) -> bool:
    """True if some process (a QEMU) holds QEMU's lock on the image. Asks
    the kernel who would block a write lock; takes no lock itself."""
    import fcntl
    import struct
    if not hasattr(fcntl, "F_OFD_GETLK"):
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        # struct flock: l_type, l_whence, l_start, l_len, l_pid (native layout)
        query = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET,
                            QEMU_LOCK_FIRST_BYTE, QEMU_LOCK_BYTES, 0)
        answer = fcntl.fcntl(fd, fcntl.F_OFD_GETLK, query)
        return struct.unpack("hhqqi", answer)[0] != fcntl.F_UNLCK
    except OSError:
        return False
    finally:
        os.close(fd)


def qemu_pids_using(path: Union[str, Path]) -> list:
    """[(pid, command line)] of the QEMUs whose command line names `path`."""
    needle = str(Path(path).absolute())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                errors="replace")
        except OSError:
            continue
        if "qemu-system" in cmdline and needle in cmdline:
            found.append((int(entry.name), cmdline))
    return found


def short_socket_path(preferred: Union[str, Path]) -> Path:
    """`preferred` if it fits in a sockaddr_un, else a path in a fresh
    private directory under the system temp dir (pytest's tmp_path can be
    too long for a Unix socket)."""
    preferred = Path(preferred).absolute()
    if len(str(preferred)) <= UNIX_PATH_MAX:
        return preferred
    return Path(tempfile.mkdtemp(prefix="fl-gdb-")) / "gdb.sock"


def _death_signal_prefix() -> list:
    # If whoever started QEMU dies without cleaning up (SIGKILL, a crashed
    # pytest worker), the kernel sends QEMU SIGTERM. QEMU runs in its own
    # session, so it would not get the terminal's or make's signals otherwise.
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "TERM", "--"] if setpriv else []


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
        qemu: str = QEMU,
        on_output: Optional[Callable[[str], None]] = None,
    ):
        # Absolute paths: QEMU runs in workdir, not in the caller's directory.
        self.kernel = Path(kernel).absolute()
        self.initrd = Path(initrd).absolute() if initrd is not None else None
        self.name = name
        self.qemu = qemu
        self.on_output = on_output
        self.workdir = Path(workdir).absolute() if workdir is not None else Path(
            tempfile.mkdtemp(prefix="faultline-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = (Path(log_path).absolute() if log_path
                         else self.workdir / f"{name}.log")
        self.command: list = []
        self.gdb_socket: Optional[Path] = None
        self.disk: Optional[Path] = None
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
    ) -> "Machine":
        """Starts QEMU. Returns self so `Machine(...).start(...)` reads well.

        disk_size without disk puts a fresh disk image in workdir; disk with
        disk_size creates/resizes that image. blkdebug: error-injection rules
        for the disk (see blkdebug_config); their config file is written to
        workdir as <name>-blkdebug.conf. disk_readonly=True attaches the disk
        read-only (the device then offers VIRTIO_BLK_F_RO). gdb=True opens a GDB stub on a
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

        self.command = qemu_command(
            self.kernel, self.initrd, cpus=cpus, mem=mem, append=append,
            icount=icount, disk=self.disk, blkdebug_config_path=blkdebug_path,
            disk_readonly=disk_readonly, console="pipe",
            gdb_socket=self.gdb_socket, gdb_wait=gdb_wait,
            extra_args=extra_args, qemu=self.qemu, aclint=aclint)

        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "wb")
        self._proc = subprocess.Popen(
            _death_signal_prefix() + self.command,
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
            pos = _find_prompt(text)
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


def _find_prompt(text: str) -> int:
    """Index of the first "$ " that starts a line in `text` (text[0] counts
    as a line start, since callers pass text that begins after a line end)."""
    if text.startswith(PROMPT):
        return 0
    pos = text.find("\n" + PROMPT)
    return pos + 1 if pos >= 0 else -1


def parse_json_lines(text: str) -> list:
    """All `FL-JSON {...}` objects in console text, in order."""
    out = []
    for line in text.splitlines():
        if line.startswith(JSON_TAG):
            out.append(json.loads(line[len(JSON_TAG):]))
    return out


def gdb_command(kernel: Union[str, Path], target: str, script: Optional[Union[str, Path]] = None,
                batch_commands: Iterable[str] = (), gdb: str = GDB) -> list:
    """argv for gdb-multiarch attached to a QEMU stub. `target` is what
    `target remote` takes: a Unix socket path (GDB 13 accepts a local socket
    path directly) or host:port. With batch_commands, GDB runs them and exits."""
    cmd = [gdb, "-q"]
    batch = list(batch_commands)
    if batch:
        cmd += ["-nx", "-batch"]
    cmd += [str(kernel)]
    if script:
        cmd += ["-x", str(script)]
    cmd += ["-ex", f"target remote {target}"]
    for c in batch:
        cmd += ["-ex", c]
    return cmd


def run_gdb(kernel: Union[str, Path], target: Union[str, Path], commands: Iterable[str],
            script: Optional[Union[str, Path]] = None, timeout: float = 60.0,
            cwd: Optional[Union[str, Path]] = None) -> str:
    """Runs GDB in batch mode against a stub (e.g. Machine.gdb_socket) and
    returns its combined output. For tests of the GDB extensions."""
    cmd = gdb_command(kernel, str(target), script, commands)
    res = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, timeout=timeout * timeout_scale(),
                         cwd=cwd, text=True)
    return res.stdout
