"""QEMU integration test of what a new thread's kernel stack holds: every
byte of its frames is overwritten (zeroed) before the thread runs, so no
frame an exited process left behind (its program text, tables, stack)
reaches a kernel stack as it was.

Why it matters beyond tidiness: under QEMU's TCG, a frame whose earlier
contents were run as code keeps those translations until every byte they
came from is written. A kernel stack is only ever written near its top, so
a stale frame kept them for the thread's whole life, and QEMU took its
slow self-modifying-code path on every store the thread made to its stack
(every trap, every call): `racetests readreopen` after `racetests
openclose` ran 25-40 times slower than before it. The instruction count
does not show that (QEMU's time, not the guest's), so this test checks
the guest-visible cause instead: the deepest page of a fresh thread's
stack, which it has not reached, must read as zeros.

The thread looked at is `sleep`'s, started right after `racetests
openclose` has freed its children's frames; GDB reads its stack.
"""

import re
import shutil
from pathlib import Path

import pytest

from faultline import GDB, run_gdb

ROOT = Path(__file__).resolve().parent.parent
CONFIG_H = ROOT / "kernel" / "include" / "config.h"
BOOT_TIMEOUT = 120.0
RACE_TIMEOUT = 300.0
SLEEP_MS = 60000              # long enough for GDB to find it asleep
PAGE_SIZE = 4096

pytestmark = pytest.mark.skipif(shutil.which(GDB) is None, reason=f"{GDB} is not installed")


def kstack_pages() -> int:
    m = re.search(r"^#define KSTACK_PAGES\s+(\d+)", CONFIG_H.read_text(), re.MULTILINE)
    assert m, "KSTACK_PAGES not found in config.h"
    return int(m.group(1))


# Prints "slot kstack_top" for every thread of the process named `sleep`.
FIND_SLEEP = """\
set $i = 0
while $i < sizeof(threads) / sizeof(threads[0])
  if threads[$i].state != T_UNUSED && threads[$i].proc != 0
    if $_streq(threads[$i].proc->name, "sleep")
      printf "SLEEPER %d 0x%lx\\n", $i, threads[$i].kstack_top
    end
  end
  set $i = $i + 1
end
"""


def test_new_kernel_stack_is_zeroed(machine, kernel_elf, tmp_path):
    m = machine(cpus=1, gdb=True)
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    # Frees many frames that held program text and data: the children's.
    out = m.run_shell("racetests openclose", timeout=RACE_TIMEOUT)
    assert "openclose: OK" in out, out
    m.send(f"sleep {SLEEP_MS}")
    m.expect(re.escape(f"sleep {SLEEP_MS}") + r"\n")

    script = tmp_path / "find_sleep.gdb"
    script.write_text(FIND_SLEEP)
    # The shell forks and execs: wait until `sleep` is the process's name.
    found = None
    for _ in range(20):
        text = run_gdb(kernel_elf, m.gdb_socket, ["interrupt", f"source {script}", "detach"])
        found = re.search(r"^SLEEPER (\d+) (0x[0-9a-f]+)$", text, re.MULTILINE)
        if found:
            break
    assert found, f"no thread of `sleep` found:\n{text}"

    top = int(found.group(2), 16)
    bottom = top - kstack_pages() * PAGE_SIZE
    dump = tmp_path / "kstack-bottom.bin"
    text = run_gdb(kernel_elf, m.gdb_socket,
                   ["interrupt", f"dump binary memory {dump} {bottom:#x} {bottom + PAGE_SIZE:#x}",
                    "detach"])
    assert dump.exists() and dump.stat().st_size == PAGE_SIZE, text
    data = dump.read_bytes()
    stale = [i for i in range(0, PAGE_SIZE, 8) if any(data[i:i + 8])]
    assert not stale, (f"the deepest page of a new kernel stack (slot {found.group(1)}) holds "
                       f"{len(stale)} non-zero words left from the frame's last use, "
                       f"first at +{stale[0]:#x}")
