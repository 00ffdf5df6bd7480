"""What QEMU integration tests import: the Machine class and a few helpers.

    from qemu_helpers import Machine, MachineTimeout, halt, EXIT_PANIC

Machine lives in tools/faultline/ (shared with tools/run.py); this
module re-exports it so tests need not know where the tools are.
"""

import re
import sys
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

from faultline import (  # noqa: E402,F401  (re-exports)
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
    "BOOT_TIMEOUT", "wait_for_log", "boot_hart", "wait_harts_online", "boot_to_shell",
    "run_guest_program", "assert_guest_tests_passed",
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


# ----- console waits shared by the integration tests ------------------------

BOOT_TIMEOUT = 120.0   # seconds from QEMU start to the first prompt (scaled)


def wait_for_log(m: Machine, pattern: str, timeout: float = 60.0, flags=re.MULTILINE):
    """Waits until `pattern` occurs anywhere in the console log, without
    consuming output (lines such as "hart N online" may arrive before or
    after the prompt). Returns the match."""
    import pytest
    regex = re.compile(pattern, flags)
    deadline = time.monotonic() + timeout * timeout_scale()
    while True:
        found = regex.search(m.log)
        if found:
            return found
        if not m.running:
            pytest.fail(f"QEMU ended before {pattern!r} appeared:\n{m.tail()}")
        if time.monotonic() > deadline:
            pytest.fail(f"{pattern!r} did not appear within {timeout}s:\n{m.tail()}")
        time.sleep(0.05)


def boot_hart(m: Machine) -> int:
    return int(wait_for_log(m, r"^faultline \S+ \(riscv64\) booting on hart (\d+)$").group(1))


def wait_harts_online(m: Machine, cpus: int, timeout: float = 60.0) -> None:
    """Waits for "hart N online" of every hart but the boot hart, so that no
    late banner line lands in the middle of a shell command's echo."""
    first = boot_hart(m)
    for hart in range(cpus):
        if hart != first:
            wait_for_log(m, rf"faultline: hart {hart} online$", timeout)


def boot_to_shell(machine, cpus: int = 1, **kwargs) -> Machine:
    """A machine from the `machine` fixture, at its prompt, all harts online."""
    m = machine(cpus=cpus, **kwargs)
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    wait_harts_online(m, cpus)
    return m


def run_lat(m: Machine, args: str = "", timeout: float = 300.0) -> dict:
    """Runs `lat [args]` at the shell prompt and returns its results by
    benchmark name (the FL-JSON result lines); the kernel meters printed
    after a benchmark are its result's "kernel_meters", by event name."""
    m.send(f"lat {args}".strip())
    results = {}
    while True:
        obj = m.expect_json(timeout=timeout)
        if obj.get("lat") == "done":
            break
        if "bench" in obj and "meters" not in obj:
            results[obj["bench"]] = obj
        elif "meters" in obj and obj.get("bench") in results:
            results[obj["bench"]]["kernel_meters"] = {r["event"]: r for r in obj["meters"]}
    m.expect_prompt(timeout=60)
    return results


def run_guest_program(m: Machine, command: str, timeout: float, silence: float) -> str:
    """Types `command` at the prompt and returns what it printed up to the
    next prompt: for the in-guest test programs (sigtests, sigposix,
    ulftests, racetests), whose output is their verdict."""
    m.send(command)
    m.expect(re.escape(command) + r"\n", timeout=30)
    return m.expect_prompt(timeout=timeout, idle_timeout=silence)


def assert_guest_tests_passed(m: Machine, out: str, program: str) -> None:
    """An in-guest test program's verdict: no FAILED line, no panic, and
    its closing ALL TESTS PASSED."""
    failed = [line for line in out.splitlines() if "FAILED" in line]
    assert "FL-PANIC" not in m.log, m.log[-3000:]
    assert not failed, f"{program} reported failures:\n" + "\n".join(failed)
    assert re.search(r"^ALL TESTS PASSED$", out, re.MULTILINE), out[-3000:]
