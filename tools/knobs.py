"""Checks of the values `make qemu` passes on (CPUS, MEM, ICOUNT, DISK_SIZE,
APPEND), so that a bad one is refused with a sentence that names it, before
anything is built or QEMU starts, instead of a Python traceback, QEMU's own
error, or a value that silently means something else (ICOUNT=0 was "on").

tools/run.py calls check_all(); each check returns the parsed value or
raises KnobError, whose text is what the person sees.

The smallest MEM comes from where QEMU's virt board puts things in RAM;
see virt_layout_problem().
"""

from __future__ import annotations

import os
import re
import struct
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
CONFIG_H = ROOT / "kernel" / "include" / "config.h"

KIB = 1 << 10
MIB = 1 << 20
GIB = 1 << 30
SECTOR = 512

# Fallbacks if config.h cannot be read (run.py used outside the tree).
DEFAULT_MAX_HARTS = 8
DEFAULT_BOOTARGS_MAX = 256


class KnobError(ValueError):
    """A knob has a value that cannot work; str() says which and why."""


def config_value(name: str, default: int) -> int:
    """A plain number #define'd in kernel/include/config.h, so that the
    limits here cannot drift from the kernel's."""
    try:
        text = CONFIG_H.read_text()
    except OSError:
        return default
    m = re.search(rf"^#define\s+{name}\s+(\d+)\b", text, re.MULTILINE)
    return int(m.group(1)) if m else default


def _bad(knob: str, option: str, value: str, why: str) -> KnobError:
    return KnobError(f"bad {knob}={value} ({option}): {why}")


# ----- one check per knob ---------------------------------------------------

def check_cpus(value: str) -> int:
    top = config_value("MAX_HARTS", DEFAULT_MAX_HARTS)
    text = str(value).strip()
    if not re.fullmatch(r"\d+", text) or not 1 <= int(text) <= top:
        raise _bad("CPUS", "--cpus", value,
                   f"the number of harts must be a whole number from 1 to {top} "
                   f"(the kernel's MAX_HARTS), e.g. CPUS=4")
    return int(text)


ICOUNT_ON = ("1", "on", "yes", "true")
ICOUNT_OFF = ("", "0", "off", "no", "false")


def check_icount(value: Optional[str]) -> bool:
    text = "" if value is None else str(value).strip().lower()
    if text in ICOUNT_ON:
        return True
    if text in ICOUNT_OFF:
        return False
    raise _bad("ICOUNT", "--icount", value,
               "use ICOUNT=1 for -icount (deterministic instruction counts), "
               "or ICOUNT=0 (or leave it empty) for none")


def _parse_with_unit(knob: str, option: str, value: str, units: str, example: str) -> int:
    text = str(value).strip()
    if re.fullmatch(r"\d+", text):
        raise _bad(knob, option, value,
                   f"the unit is missing: write {text}M, or use {'/'.join(units)} "
                   f"(e.g. {knob}={example})")
    m = re.fullmatch(r"(\d+)([%s])" % units, text, re.IGNORECASE)
    if not m:
        raise _bad(knob, option, value,
                   f"not a size; use a whole number with a unit {', '.join(units)} "
                   f"(e.g. {knob}={example})")
    shift = {"K": 10, "M": 20, "G": 30}[m.group(2).upper()]
    return int(m.group(1)) << shift


def host_memory() -> Optional[int]:
    """RAM plus swap of this machine in bytes: QEMU cannot reserve more for
    the guest than the host kernel will let it map (None if unknown)."""
    try:
        info = Path("/proc/meminfo").read_text()
    except OSError:
        return None
    total = 0
    for key in ("MemTotal", "SwapTotal"):
        m = re.search(rf"^{key}:\s+(\d+) kB", info, re.MULTILINE)
        if m:
            total += int(m.group(1)) * KIB
    return total or None


def check_mem(value: str, kernel=None, initrd=None) -> int:
    """Guest RAM in bytes. Knows the virt board's layout when the kernel
    and initrd exist (before the first build they do not; the check runs
    again right before QEMU starts)."""
    nbytes = _parse_with_unit("MEM", "--mem", value, "MG", "128M")
    if nbytes % MIB:
        raise _bad("MEM", "--mem", value, "QEMU gives RAM in whole MiB (e.g. MEM=128M)")
    host = host_memory()
    if host is not None and nbytes > host:
        raise _bad("MEM", "--mem", value,
                   f"more than this machine can give QEMU ({host // MIB} MiB of RAM and swap)")
    if kernel and initrd and Path(kernel).is_file() and Path(initrd).is_file():
        problem = virt_layout_problem(nbytes, kernel, initrd)
        if problem:
            least = min_virt_mem(kernel, initrd)
            raise _bad("MEM", "--mem", value,
                       f"too little memory for this build: {problem}. "
                       f"Use MEM={least // MIB}M or more")
    return nbytes


def check_disk_size(value: Optional[str]) -> Optional[int]:
    """Disk image size in bytes, or None for no disk (an empty value)."""
    if value is None or str(value).strip() == "":
        return None
    nbytes = _parse_with_unit("DISK_SIZE", "--disk-size", value, "KMG", "64M")
    if nbytes == 0 or nbytes % SECTOR:
        raise _bad("DISK_SIZE", "--disk-size", value,
                   f"a disk is whole {SECTOR}-byte sectors and not empty "
                   "(e.g. DISK_SIZE=64M; DISK_SIZE= for no disk)")
    return nbytes


def check_append(value: str) -> str:
    """The kernel command line goes through as it is (the kernel checks the
    parameters and names a bad one); only its length is the kernel's limit
    that would otherwise surface as a damaged device tree."""
    text = "" if value is None else str(value)
    most = config_value("BOOTARGS_MAX", DEFAULT_BOOTARGS_MAX) - 1
    if len(text) > most:
        raise KnobError(f"bad APPEND (--append): {len(text)} characters; the kernel takes "
                        f"a command line of at most {most}")
    return text


# ----- where QEMU's virt board puts things ----------------------------------
#
# QEMU 7.2's virt board (hw/riscv/boot.c) loads, in RAM at 0x80000000:
#   - OpenSBI at the bottom, the kernel at its ELF load addresses (0x80200000);
#   - the initrd at the kernel's entry + min(RAM/2, 128 MiB);
#   - the device tree, 1 MiB unpacked, at the top of RAM (at most 3 GiB)
#     less its size, rounded down to 2 MiB.
# QEMU refuses to start when the initrd and device tree overlap ("Some ROM
# regions are overlapping") and, when the initrd runs past the end of RAM,
# starts anyway with its tail in a hole (the kernel refuses that boot). The
# device tree's place jumps by 2 MiB, so some small sizes fit and the next
# one up does not: min_virt_mem() is the size from which every size fits.

VIRT_DRAM_BASE = 0x80000000
VIRT_INITRD_MAX_OFFSET = 128 * MIB
VIRT_FDT_SIZE = 1 * MIB
VIRT_FDT_ALIGN = 2 * MIB
VIRT_FDT_TOP_LIMIT = 3 * GIB
# Past RAM = 2 * 128 MiB the initrd's place stops moving: nothing changes above.
VIRT_LAYOUT_SETTLED = 2 * VIRT_INITRD_MAX_OFFSET


def elf_load_span(path) -> tuple:
    """(entry, lowest load address, end of the highest PT_LOAD) of an ELF64
    little-endian file, from its program headers."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise KnobError(f"{path} is not a 64-bit little-endian ELF file")
    entry, phoff = struct.unpack_from("<QQ", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    low, high = None, 0
    for i in range(phnum):
        p_type, _flags, _off, _vaddr, paddr, _filesz, memsz, _align = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type != 1 or memsz == 0:      # PT_LOAD
            continue
        low = paddr if low is None else min(low, paddr)
        high = max(high, paddr + memsz)
    return entry, low or entry, high


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def virt_layout(mem: int, kernel_entry: int, initrd_size: int) -> dict:
    """Where the virt board puts the initrd and device tree: {name: (start, end)}."""
    ram_end = VIRT_DRAM_BASE + mem
    initrd = kernel_entry + min(mem // 2, VIRT_INITRD_MAX_OFFSET)
    fdt = (min(ram_end, VIRT_FDT_TOP_LIMIT) - VIRT_FDT_SIZE) & ~(VIRT_FDT_ALIGN - 1)
    return {"ram": (VIRT_DRAM_BASE, ram_end),
            "initrd": (initrd, initrd + initrd_size),
            "fdt": (fdt, fdt + VIRT_FDT_SIZE)}


def virt_layout_problem(mem: int, kernel, initrd) -> Optional[str]:
    """Why `mem` bytes of RAM cannot boot this kernel and initrd on virt, or None."""
    entry, _low, kernel_end = elf_load_span(kernel)
    size = os.path.getsize(initrd)
    where = virt_layout(mem, entry, size)
    ram, rd, fdt = where["ram"], where["initrd"], where["fdt"]
    mib = f"{size / MIB:.1f} MiB"
    if rd[1] > ram[1]:
        return (f"QEMU would load the {mib} initrd half way up RAM, at "
                f"0x{rd[0]:x}-0x{rd[1]:x}, which runs past the end of RAM (0x{ram[1]:x})")
    if _overlap(rd, fdt):
        return (f"QEMU would load the {mib} initrd at 0x{rd[0]:x}-0x{rd[1]:x}, across "
                f"the device tree it puts at 0x{fdt[0]:x}-0x{fdt[1]:x}")
    if rd[0] < kernel_end or fdt[0] < kernel_end:
        return f"the kernel (up to 0x{kernel_end:x}) leaves no room for the initrd and device tree"
    return None


def min_virt_mem(kernel, initrd) -> int:
    """The smallest RAM size, in whole MiB, from which every size boots."""
    least = VIRT_LAYOUT_SETTLED
    for mib in range(VIRT_LAYOUT_SETTLED // MIB, 0, -1):
        if virt_layout_problem(mib * MIB, kernel, initrd):
            break
        least = mib * MIB
    return least


def check_all(args) -> list:
    """Checks every knob on run.py's args, converting them in place
    (cpus int, icount bool, disk_size None when empty). Returns the errors
    as sentences; empty when all is well."""
    errors = []
    for name, check in (("cpus", check_cpus), ("icount", check_icount),
                        ("disk_size", check_disk_size), ("append", check_append)):
        try:
            setattr(args, name, check(getattr(args, name)))
        except KnobError as e:
            errors.append(str(e))
    try:
        check_mem(args.mem, args.kernel, args.initrd)
    except KnobError as e:
        errors.append(str(e))
    return errors
