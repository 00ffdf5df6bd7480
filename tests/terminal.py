"""A program on a pseudo-terminal, as a person runs it: `make qemu-gdb` in
one terminal, `make gdb` in another.

    with Terminal(["gdb-multiarch", ...], cwd=ROOT) as gdb:
        gdb.wait_for(r"\\(gdb\\) $")
        gdb.send("bt\\r")

A thread reads everything the program prints, so it never blocks on a full
terminal, and wait_for() searches what came after the previous match.
ANSI colour and bracketed-paste sequences are dropped from the text.
"""

import os
import re
import signal
import threading
import time

from ptyprocess import PtyProcess

from faultline import timeout_scale

_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")


class TerminalTimeout(AssertionError):
    pass


class Terminal:
    def __init__(self, argv, cwd=None, env=None, name="terminal"):
        self.name = name
        self.argv = list(argv)
        full_env = dict(os.environ if env is None else env)
        # No colours, and a size that does not wrap GDB's lines.
        full_env.setdefault("TERM", "dumb")
        self.proc = PtyProcess.spawn(self.argv, cwd=cwd, env=full_env, dimensions=(50, 250))
        self._text = ""
        self._cursor = 0
        self._eof = False
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True, name=name)
        self._reader.start()

    def _read(self):
        while True:
            try:
                chunk = self.proc.read(65536)
            except EOFError:
                chunk = b""
            text = _ESCAPES.sub("", chunk.decode("utf-8", "replace"))
            with self._cond:
                self._text += text
                if not chunk:
                    self._eof = True
                self._cond.notify_all()
            if not chunk:
                return

    @property
    def text(self):
        """Everything printed so far."""
        with self._cond:
            return self._text

    @property
    def unread(self):
        with self._cond:
            return self._text[self._cursor:]

    def wait_for(self, pattern, timeout=60.0, flags=re.MULTILINE):
        """Waits for `pattern` after the previous match; returns the text
        from there up to the end of the match, and moves past it."""
        regex = re.compile(pattern, flags)
        deadline = time.monotonic() + timeout * timeout_scale()
        with self._cond:
            while True:
                found = regex.search(self._text, self._cursor)
                if found:
                    before = self._text[self._cursor:found.end()]
                    self._cursor = found.end()
                    return before
                left = deadline - time.monotonic()
                if self._eof or left <= 0:
                    what = "ended" if self._eof else f"printed nothing matching it in {timeout}s"
                    raise TerminalTimeout(
                        f"{self.name} {what} while waiting for {pattern!r}; it printed after "
                        f"the last match:\n{self._text[self._cursor:][-4000:]}")
                self._cond.wait(min(left, 0.5))

    def send(self, data):
        self.proc.write(data.encode() if isinstance(data, str) else data)

    def wait_exit(self, timeout=60.0):
        """The program's exit status once it has ended by itself."""
        deadline = time.monotonic() + timeout * timeout_scale()
        while self.proc.isalive():
            if time.monotonic() > deadline:
                raise TerminalTimeout(f"{self.name} still runs after {timeout}s:\n"
                                      f"{self.text[-3000:]}")
            time.sleep(0.05)
        self._reader.join(timeout=5)
        return self.proc.exitstatus if self.proc.exitstatus is not None \
            else 128 + (self.proc.signalstatus or 0)

    def close(self):
        """Ends the program (this pid only) if it still runs."""
        if self.proc.isalive():
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    self.proc.kill(sig)
                except OSError:
                    break
                deadline = time.monotonic() + 5
                while self.proc.isalive() and time.monotonic() < deadline:
                    time.sleep(0.05)
                if not self.proc.isalive():
                    break
        try:
            self.proc.close(force=True)
        except OSError:
            pass
        self._reader.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
