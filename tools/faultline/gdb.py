"""The GDB side: gdb-multiarch's command line against QEMU's stub, the
socket the stub listens on, and the record of which stub runs for a build
directory (tools/run.py, `make qemu-gdb` and `make gdb`).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Iterable, Optional, Union

from .qemu import timeout_scale

GDB = "gdb-multiarch"

# A Unix socket path must fit in sockaddr_un.sun_path (108 bytes with the NUL).
UNIX_PATH_MAX = 107


def short_socket_path(preferred: Union[str, Path]) -> Path:
    """`preferred` if it fits in a sockaddr_un, else a path in a fresh
    private directory under the system temp dir (pytest's tmp_path can be
    too long for a Unix socket)."""
    preferred = Path(preferred).absolute()
    if len(str(preferred)) <= UNIX_PATH_MAX:
        return preferred
    return Path(tempfile.mkdtemp(prefix="fl-gdb-")) / "gdb.sock"


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


# ----- which stub runs for a build directory ---------------------------------
# QEMU's stub listens on a Unix socket named after the user, inside the build
# directory: no TCP port that another user (or CI job) could already hold.
# gdb 13 takes the socket path directly: `target remote /path/to/sock`.
# A small JSON file next to it records the target, QEMU's pid and a digest
# of the kernel it booted, and then the pid of the GDB attached to it, so
# that `run.py --attach-gdb` finds the stub, refuses a kernel rebuilt since (its
# symbols would not match what runs) and a second GDB (which would wait
# forever for a stub that serves one), and a second qemu-gdb does not steal
# a live socket.

def gdb_socket_path(build_dir: Path) -> Path:
    return short_socket_path(build_dir / f"gdb-{os.getuid()}.sock")


def gdb_state_path(build_dir: Path) -> Path:
    return build_dir / f"gdb-{os.getuid()}.json"


def read_gdb_state(build_dir: Path) -> dict:
    try:
        return json.loads(gdb_state_path(build_dir).read_text())
    except (OSError, ValueError):
        return {}


def write_gdb_state(build_dir: Path, state: dict) -> None:
    build_dir.mkdir(parents=True, exist_ok=True)
    gdb_state_path(build_dir).write_text(json.dumps(state) + "\n")


def pid_cmdline(pid) -> str:
    try:
        return Path(f"/proc/{int(pid)}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace")
    except (OSError, ValueError, TypeError):
        return ""


def pid_runs_qemu(pid: int, socket: str) -> bool:
    """True if pid is a live QEMU serving `socket` (not a reused pid)."""
    cmdline = pid_cmdline(pid)
    return "qemu" in cmdline and socket in cmdline


def pid_runs_gdb(pid) -> bool:
    return "gdb" in pid_cmdline(pid).split(" ")[0]


def live_stub(build_dir: Path) -> dict:
    """The state of a QEMU with a GDB stub that runs for build_dir, or {}."""
    state = read_gdb_state(build_dir)
    if state.get("pid") and pid_runs_qemu(int(state["pid"]), str(state.get("target", ""))):
        return state
    return {}


def file_digest(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
