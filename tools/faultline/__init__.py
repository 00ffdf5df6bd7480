"""faultline's host-side tools: running the kernel under QEMU and reading
what it prints.

    qemu.py      QEMU's command line, disk images, blkdebug error injection
    machine.py   Machine: one QEMU driven through its console (boot, type
                 shell commands, wait for output, exit status)
    protocol.py  what the kernel and programs print for machines: exit
                 codes, the prompt, FL-JSON and FL-PANIC (docs/protocol.md)
    gdb.py       gdb-multiarch against QEMU's stub, and which stub runs for
                 a build directory

The names callers use are importable from the package itself:

    from faultline import Machine, EXIT_PANIC
    import faultline as fq;  fq.qemu_command(...)

The command-line scripts beside this package (run.py, report.py,
mmbench.py) parse arguments and call into it.
"""

from .gdb import GDB, UNIX_PATH_MAX, gdb_command, run_gdb, short_socket_path
from .machine import Machine, MachineError, MachineExited, MachineTimeout
from .protocol import (
    EXIT_BAD_PARAM,
    EXIT_CLEAN,
    EXIT_MEANINGS,
    EXIT_PANIC,
    JSON_TAG,
    PANIC_TAG,
    PROMPT,
    describe_exit,
    find_prompt,
    json_lines_apart,
    parse_json_lines,
)
from .qemu import (
    ARCHES,
    DEFAULT_ARCH,
    QEMU,
    blkdebug_config,
    disk_locked,
    ensure_disk,
    pd_size_of,
    parse_size,
    qemu_command,
    qemu_pids_using,
    timeout_scale,
)

__all__ = [
    "GDB", "UNIX_PATH_MAX", "gdb_command", "run_gdb", "short_socket_path",
    "Machine", "MachineError", "MachineExited", "MachineTimeout",
    "EXIT_BAD_PARAM", "EXIT_CLEAN", "EXIT_MEANINGS", "EXIT_PANIC", "JSON_TAG", "PANIC_TAG",
    "PROMPT", "describe_exit", "find_prompt", "json_lines_apart", "parse_json_lines",
    "ARCHES", "DEFAULT_ARCH", "QEMU", "blkdebug_config", "disk_locked", "ensure_disk", "parse_size", "pd_size_of", "qemu_command",
    "qemu_pids_using", "timeout_scale",
]
