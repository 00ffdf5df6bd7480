"""What QEMU integration tests import: the Machine class and a few helpers.

    from qemu_helpers import Machine, MachineTimeout, halt, EXIT_PANIC

Machine lives in tools/faultline_qemu.py (shared with tools/run.py); this
module re-exports it so tests need not know where the tools are.
"""

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

from faultline_qemu import (  # noqa: E402,F401  (re-exports)
    EXIT_BAD_PARAM,
    EXIT_CLEAN,
    EXIT_PANIC,
    PROMPT,
    Machine,
    MachineError,
    MachineExited,
    MachineTimeout,
    describe_exit,
    parse_json_lines,
    qemu_command,
    run_gdb,
    timeout_scale,
)

__all__ = [
    "EXIT_BAD_PARAM", "EXIT_CLEAN", "EXIT_PANIC", "PROMPT", "GDB_SCRIPT",
    "Machine", "MachineError", "MachineExited", "MachineTimeout",
    "boot_failure", "describe_exit", "halt", "parse_json_lines", "qemu_command",
    "run_gdb", "timeout_scale",
]

GDB_SCRIPT = TOOLS / "gdb" / "faultline-gdb.py"


def halt(machine: Machine, code: int = 0, timeout: float = 60.0) -> int:
    """Runs `halt [code]` at the shell prompt and returns QEMU's exit status."""
    machine.send("halt" if code == 0 else f"halt {code}")
    return machine.wait_exit(timeout)


def boot_failure(machine: Machine, timeout: float = 60.0) -> tuple:
    """For a boot expected to stop early (bad parameter, panic): waits for QEMU
    to end and returns (exit status, console text)."""
    code = machine.wait_exit(timeout)
    return code, machine.log
