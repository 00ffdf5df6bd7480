#!/usr/bin/env python3
"""Turns the kernel's backtrace lines into function names and source lines.

A panic prints `FL-BT: #N 0xADDR` lines (see docs/protocol.md). Every
address but a trap's frame 0 is a return address, which points just past
the call, so it is looked up at ADDR-1 to land on the calling line.

  python3 tools/symbolize.py build/kernel.elf < console.log
"""

import re
import shutil
import subprocess
import sys

BT_LINE = re.compile(r"FL-BT: #(\d+) 0x([0-9a-f]+)( trap)?")
ADDR2LINE_NAMES = ("riscv64-unknown-elf-addr2line", "riscv64-linux-gnu-addr2line",
                   "riscv64-elf-addr2line")


def addr2line_tool():
    for name in ADDR2LINE_NAMES:
        if shutil.which(name):
            return name
    return None


def symbolize_frames(kernel, text):
    """Returns [(depth, address, function, file:line)] for each FL-BT line."""
    frames = []
    for m in BT_LINE.finditer(text):
        depth, addr, exact = int(m.group(1)), int(m.group(2), 16), bool(m.group(3))
        frames.append((depth, addr, addr if exact else addr - 1))
    tool = addr2line_tool()
    if not frames or not tool:
        return [(d, a, "?", "?") for d, a, _ in frames]
    out = subprocess.run([tool, "-f", "-C", "-e", str(kernel)] +
                         [hex(lookup) for _, _, lookup in frames],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    return [(d, a, out[2 * i], out[2 * i + 1].rsplit("/", 1)[-1])
            for i, (d, a, _) in enumerate(frames)]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for depth, addr, func, where in symbolize_frames(sys.argv[1], sys.stdin.read()):
        print(f"#{depth} {addr:#x} {func} ({where})")


if __name__ == "__main__":
    main()
