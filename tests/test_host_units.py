"""Host unit tests of the kernel's pure modules.

Each C program in tests/host/ is compiled with the host compiler, together
with the kernel sources it tests, under AddressSanitizer and
UndefinedBehaviorSanitizer, and run. Inputs that only real tools can make
(device trees dumped by QEMU or compiled by dtc, a RISC-V executable) are
made here, in the test's private tmp_path, and handed to the program on its
command line together with what the program should find in them.

Select with `pytest -k host`.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.host

ROOT = Path(__file__).resolve().parent.parent
HOST_DIR = ROOT / "tests" / "host"

HOST_CC = os.environ.get("HOST_CC", "gcc")
HOST_CFLAGS = [
    "-std=c11", "-Wall", "-Wextra", "-Werror", "-g",
    "-DFAULTLINE_HOST",
    "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
    "-Ikernel/include", "-Iinclude",
]
SANITIZER_ENV = {
    "ASAN_OPTIONS": "abort_on_error=0:detect_leaks=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}

CROSS_CC = "riscv64-unknown-elf-gcc"
CROSS_READELF = "riscv64-unknown-elf-readelf"
CROSS_NM = "riscv64-unknown-elf-nm"
QEMU = "qemu-system-riscv64"
DTC = "dtc"

# test program -> kernel sources it exercises
PROGRAMS = {
    "fdt": ["kernel/fdt/fdt.c", "kernel/fdt/fdt_board.c", "kernel/arch/riscv64/fdt_riscv.c",
            "kernel/lib/kstrlcpy.c"],
    "param": ["kernel/core/param.c", "kernel/lib/kstrlcpy.c", "kernel/lib/ktext.c"],
    "elf": ["kernel/lib/elf.c"],
    "initrd": ["kernel/fs/initrd.c"],
    "coremap": ["kernel/mm/coremap.c"],
    "swapmap": ["kernel/mm/swapmap.c"],
    "clock_replace": ["kernel/mm/clock_replace.c", "kernel/mm/coremap.c"],
    "pagestate": ["kernel/mm/pagestate.c"],
    # the riscv64 port's inline leaf calls (arch/pte.h): header only
    "pte": [],
    "kstrlcpy": ["kernel/lib/kstrlcpy.c"],
    "page": ["kernel/lib/page.c"],
    "irq": ["kernel/dev/irq.c"],
    "blk_latency": ["kernel/dev/blk_latency.c"],
    # the formatter of user/nroff/, all but main.c (its only system calls)
    "nroff": ["user/nroff/fmt.c", "user/nroff/request.c", "user/nroff/man.c",
              "user/nroff/text.c", "user/nroff/line.c", "user/nroff/page.c",
              "user/nroff/out.c"],
    # the shell's lexer, parser and $(( )) (user/sh/): no system calls
    "sh": ["user/sh/lex.c", "user/sh/parse.c", "user/sh/arith.c", "user/sh/arena.c"],
}
# Include paths a test needs beyond the kernel's: a subsystem's private
# headers sit beside its sources (kernel/mm/). User code is built against
# tests/host/ulib_shim/ulib.h, the C library's stand-in for ulib.
EXTRA_CFLAGS = {
    # the riscv64 port's half of the device-tree reader and its board part
    "fdt": ["-Ikernel/arch/riscv64/include"],
    "swapmap": ["-Ikernel/mm"],
    "clock_replace": ["-Ikernel/mm"],
    "pagestate": ["-Ikernel/mm"],
    "pte": ["-Ikernel/arch/riscv64/include"],
    "nroff": ["-Itests/host/ulib_shim", "-Iuser/nroff"],
    "sh": ["-Itests/host/ulib_shim", "-Iuser/sh"],
}

TOOL_TIMEOUT = 60
RUN_TIMEOUT = 120


def compile_program(name, tmp_path):
    exe = tmp_path / f"test_{name}"
    cmd = [HOST_CC, *HOST_CFLAGS, *EXTRA_CFLAGS.get(name, []), f"tests/host/test_{name}.c",
           *PROGRAMS[name], "-o", str(exe)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TOOL_TIMEOUT)
    if proc.returncode != 0:
        pytest.fail(f"compiling test_{name} failed:\n{' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    return exe


def run_program(exe, args=()):
    env = dict(os.environ, **SANITIZER_ENV)
    proc = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=RUN_TIMEOUT)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        pytest.fail(f"{exe.name} {' '.join(map(str, args))} exited {proc.returncode}:\n{output}")
    assert re.search(r"\b\d+ passed, 0 failed", output), output
    return output


def require(*tools):
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")


# ---------------------------------------------------------------- fdt inputs

QEMU_MEMORY = 256 * 1024 * 1024
QEMU_BOOTARGS = "mm=swap mem=8M"
QEMU_INITRD_BYTES = 3000
QEMU_TIMEBASE = 10_000_000
VIRTIO_SLOTS = 8
VIRTIO_BASE = 0x10001000
VIRTIO_STRIDE = 0x1000


def qemu_dtb(tmp_path, label, harts, extra=(), aclint=False):
    kernel = tmp_path / "dummy-kernel"
    kernel.write_bytes(b"\x00" * 4096)
    initrd = tmp_path / "dummy-initrd"
    initrd.write_bytes(b"i" * QEMU_INITRD_BYTES)
    dtb = tmp_path / f"{label}.dtb"
    machine = "virt,aclint=on" if aclint else "virt"
    cmd = [QEMU, "-machine", f"{machine},dumpdtb={dtb}", "-smp", str(harts), "-m", "256M",
           "-nographic", "-bios", "default", "-kernel", str(kernel), "-initrd", str(initrd),
           "-append", QEMU_BOOTARGS, *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TOOL_TIMEOUT,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0 and dtb.exists(), proc.stdout + proc.stderr
    return dtb


SSWI_BASE = 0x2f00000


def qemu_expectations(harts, aclint=False):
    # QEMU writes the virtio-mmio nodes from the highest slot down
    slots = [(VIRTIO_BASE + i * VIRTIO_STRIDE, i + 1) for i in reversed(range(VIRTIO_SLOTS))]
    return [
        f"memory=0x80000000:{QEMU_MEMORY:#x}",
        "reserved=none",
        "harts=" + ",".join(str(h) for h in range(harts)),
        "harts_ignored=0",
        f"timebase={QEMU_TIMEBASE}",
        f"bootargs={QEMU_BOOTARGS}",
        f"initrd=size:{QEMU_INITRD_BYTES}",
        "uart=0x10000000:10",
        "plic=0x0c000000",
        # QEMU wires each hart's M-mode then S-mode external interrupt in
        # turn, so the S-mode contexts are 1, 3, 5, ...
        "plic_contexts=" + ",".join(str(2 * h + 1) for h in range(harts)),
        "test=0x100000",
        "virtio=" + ",".join(f"{base:#x}:{irq}" for base, irq in slots),
        "sstc=1",
        # aclint=on adds the supervisor software-interrupt device, one
        # SETSSIP register per hart in hart order.
        f"sswi={SSWI_BASE:#x}" if aclint else "sswi=none",
        "sswi_regs=" + (",".join(str(h) for h in range(harts)) if aclint else "none"),
    ]


# A board unlike QEMU's: one-cell addresses, ten cpus (one disabled), a
# reserved-memory node and /memreserve/ entries, 32- and 64-bit initrd
# cells, compatible lists with the interesting entry second, a disabled
# device, and an isa string with near-misses for "sstc".
CELLS1_DTS = r"""
/dts-v1/;
/memreserve/ 0x80000000 0x200000;
/memreserve/ 0x90000000 0x1000;
/ {
    #address-cells = <1>;
    #size-cells = <1>;
    chosen {
        bootargs = "pc=daemon  quiet";
        linux,initrd-start = <0x84000000>;
        linux,initrd-end = /bits/ 64 <0x84100000>;
    };
    memory@40000000 {
        device_type = "memory";
        reg = <0x40000000 0x8000000 0x50000000 0x1000000>;
    };
    reserved-memory {
        #address-cells = <1>;
        #size-cells = <1>;
        ranges;
        firmware@40000000 { reg = <0x40000000 0x80000>; no-map; };
        pool { size = <0x100000>; };
        shared@40100000 { reg = <0x40100000 0x1000 0x40200000 0x2000>; };
    };
    cpus {
        #address-cells = <1>;
        #size-cells = <0>;
        timebase-frequency = <1000000>;
        cpu@0 { device_type = "cpu"; reg = <0>; status = "disabled"; riscv,isa = "rv64imac_sstc"; };
        cpu@1 { device_type = "cpu"; reg = <1>; status = "okay"; riscv,isa = "rv64imac_zsstc_sstcx_sstx_Zicsr"; };
        cpu@2 { device_type = "cpu"; reg = <2>; };
        cpu@3 { device_type = "cpu"; reg = <3>; status = "okay"; };
        cpu@4 { device_type = "cpu"; reg = <4>; status = "okay"; };
        cpu@5 { device_type = "cpu"; reg = <5>; status = "okay"; };
        cpu@6 { device_type = "cpu"; reg = <6>; status = "okay"; };
        cpu@7 { device_type = "cpu"; reg = <7>; status = "okay"; };
        cpu@8 { device_type = "cpu"; reg = <8>; status = "okay"; };
        cpu@9 { device_type = "cpu"; reg = <9>; status = "okay"; };
        cpu@a { device_type = "cpu"; reg = <10>; status = "okay"; };
        cpu-map { cluster0 { core0 { cpu = <1>; }; }; };
    };
    soc {
        #address-cells = <1>;
        #size-cells = <1>;
        compatible = "simple-bus";
        ranges;
        serial@10000000 { compatible = "acme,uart", "ns16550a"; reg = <0x10000000 0x100>; interrupts = <4>; };
        serial@10000100 { compatible = "ns16550a"; reg = <0x10000100 0x100>; interrupts = <5>; };
        interrupt-controller@c000000 { compatible = "riscv,plic0"; reg = <0xc000000 0x4000000>; riscv,ndev = <31>; };
        test@100000 { compatible = "sifive,test1", "sifive,test0", "syscon"; reg = <0x100000 0x1000>; };
        virtio@10001000 { compatible = "virtio,mmio"; reg = <0x10001000 0x1000>; interrupts = <1>; };
        virtio@10002000 { compatible = "virtio,mmio"; reg = <0x10002000 0x1000>; interrupts = <2>; status = "disabled"; };
        virtio@10003000 { compatible = "virtio,mmio"; reg = <0x10003000 0x1000>; interrupts = <3>; };
        not-virtio@10004000 { compatible = "virtio,mmio-ish"; reg = <0x10004000 0x1000>; };
    };
};
"""
CELLS1_EXPECT = [
    "memory=0x40000000:0x8000000,0x50000000:0x1000000",
    "reserved=0x80000000:0x200000,0x90000000:0x1000,"
    "0x40000000:0x80000,0x40100000:0x1000,0x40200000:0x2000",
    "harts=1,2,3,4,5,6,7,8",
    "harts_ignored=2",
    "timebase=1000000",
    "bootargs=pc=daemon  quiet",
    "initrd=0x84000000:0x84100000",
    "uart=0x10000000:4",
    "plic=0xc000000:31",
    "test=0x100000",
    "virtio=0x10001000:1,0x10003000:3",
    "sstc=0",
]

# A sparse board: memory found by device_type alone, "ok" status, the
# timebase only in the cpu node, 64-bit hart ids, sstc as the last token,
# and no /chosen or devices at all.
SPARSE_DTS = r"""
/dts-v1/;
/ {
    #address-cells = <2>;
    #size-cells = <2>;
    ram@1000000000 { device_type = "memory"; reg = <0x10 0x0 0x0 0x20000000>; };
    cpus {
        #address-cells = <2>;
        #size-cells = <0>;
        cpu@0 { device_type = "cpu"; reg = <0 5>; status = "ok"; timebase-frequency = <25000000>;
                riscv,isa = "rv64imafdc_zicsr_SSTC"; };
    };
};
"""
SPARSE_EXPECT = [
    "memory=0x1000000000:0x20000000",
    "reserved=none",
    "harts=5",
    "timebase=25000000",
    "bootargs=",
    "initrd=none",
    "uart=none",
    "plic=none",
    "test=none",
    "virtio=none",
    "sstc=1",
    "sswi=none",
    "sswi_regs=none",
]

# An SSWI whose interrupts-extended lists hart 1's register first, an
# M-mode software interrupt (3) that is not an IPI doorbell for S-mode,
# and a hart (2) it does not reach at all.
SSWI_DTS = r"""
/dts-v1/;
/ {
    #address-cells = <2>;
    #size-cells = <2>;
    memory@80000000 { device_type = "memory"; reg = <0x0 0x80000000 0x0 0x8000000>; };
    cpus {
        #address-cells = <1>;
        #size-cells = <0>;
        timebase-frequency = <10000000>;
        cpu@0 { device_type = "cpu"; reg = <0>; intc0: interrupt-controller { compatible = "riscv,cpu-intc"; }; };
        cpu@1 { device_type = "cpu"; reg = <1>; intc1: interrupt-controller { compatible = "riscv,cpu-intc"; }; };
        cpu@2 { device_type = "cpu"; reg = <2>; intc2: interrupt-controller { compatible = "riscv,cpu-intc"; }; };
    };
    soc {
        #address-cells = <2>;
        #size-cells = <2>;
        ranges;
        sswi@2f00000 { compatible = "riscv,aclint-sswi"; reg = <0x0 0x2f00000 0x0 0x4000>;
                       interrupts-extended = <&intc1 1 &intc0 1 &intc2 3>; };
    };
};
"""
SSWI_EXPECT = ["harts=0,1,2", "sswi=0x2f00000", "sswi_regs=1,0,-"]
# The same device with room for one register but naming two.
SSWI_TOO_SMALL_DTS = SSWI_DTS.replace("0x0 0x4000>", "0x0 0x4>")

FDT_ERR_STRUCTURE = -4
FDT_ERR_LIMIT = -5
MAX_RESERVED_RANGES = 16
NESTING_TOO_DEEP = 14

TOO_MANY_RESERVED_DTS = ("/dts-v1/;\n"
                         + "".join(f"/memreserve/ {0x80000000 + i * 0x1000:#x} 0x1000;\n"
                                   for i in range(MAX_RESERVED_RANGES + 1))
                         + "/ { };\n")
TOO_DEEP_DTS = ("/dts-v1/;\n/ {\n" + "n { " * NESTING_TOO_DEEP + "};" * NESTING_TOO_DEEP
                + "\n};\n")
HALF_INITRD_DTS = '/dts-v1/;\n/ { chosen { linux,initrd-start = <0x84000000>; }; };\n'
LONG_BOOTARGS_DTS = '/dts-v1/;\n/ { chosen { bootargs = "%s"; }; };\n' % ("x" * 300)

SYNTHETIC_BOARDS = {
    "cells1": (CELLS1_DTS, CELLS1_EXPECT),
    "sparse": (SPARSE_DTS, SPARSE_EXPECT),
    "sswi": (SSWI_DTS, SSWI_EXPECT),
    "too-many-reserved": (TOO_MANY_RESERVED_DTS, [f"error={FDT_ERR_LIMIT}"]),
    "too-deep": (TOO_DEEP_DTS, [f"error={FDT_ERR_STRUCTURE}"]),
    "half-initrd": (HALF_INITRD_DTS, [f"error={FDT_ERR_STRUCTURE}"]),
    # Scanned, but flagged with nothing kept: the kernel refuses the boot
    # with a message (a failed scan would leave it no way to exit with one).
    "long-bootargs": (LONG_BOOTARGS_DTS, ["bootargs_too_long=1", "bootargs="]),
    "sswi-too-small": (SSWI_TOO_SMALL_DTS, [f"error={FDT_ERR_STRUCTURE}"]),
}


def dtc_compile(tmp_path, label, source):
    dts = tmp_path / f"{label}.dts"
    dts.write_text(source)
    dtb = tmp_path / f"{label}.dtb"
    proc = subprocess.run([DTC, "-q", "-I", "dts", "-O", "dtb", "-o", str(dtb), str(dts)],
                          capture_output=True, text=True, timeout=TOOL_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    return dtb


def fdt_runs(tmp_path):
    require(QEMU, DTC)
    runs = []
    for harts in (1, 4):
        runs.append([qemu_dtb(tmp_path, f"qemu-smp{harts}", harts), *qemu_expectations(harts)])
    disk = tmp_path / "disk.img"
    disk.write_bytes(b"\x00" * 1024 * 1024)
    blk = qemu_dtb(tmp_path, "qemu-virtio-blk", 2,
                   ["-drive", f"file={disk},format=raw,if=none,id=d0",
                    "-device", "virtio-blk-device,drive=d0"])
    runs.append([blk, *qemu_expectations(2)])
    aclint = qemu_dtb(tmp_path, "qemu-aclint", 2, aclint=True)
    runs.append([aclint, *qemu_expectations(2, aclint=True)])
    for label, (source, expect) in SYNTHETIC_BOARDS.items():
        runs.append([dtc_compile(tmp_path, label, source), *expect])
    return runs


# ---------------------------------------------------------------- elf input

USER_PROGRAM = r"""
static volatile int counter = 5;          /* .data or .sdata */
static volatile char scratch[100];        /* .bss */

void _start(void)
{
    counter++;
    scratch[0] = 1;
    for (;;)
        ;
}
"""
USER_LINK_ADDRESS = 0x10000
LOAD_LINE = re.compile(r"^\s*LOAD\s+(0x\w+)\s+(0x\w+)\s+0x\w+\s+(0x\w+)\s+(0x\w+)\s+([RWE ]{3})")


def elf_runs(tmp_path):
    require(CROSS_CC, CROSS_READELF, CROSS_NM)
    src = tmp_path / "start.c"
    src.write_text(USER_PROGRAM)
    exe = tmp_path / "start.elf"
    subprocess.run([CROSS_CC, "-O2", "-nostdlib", "-static", "-Wl,-e,_start",
                    f"-Wl,-Ttext-segment={USER_LINK_ADDRESS:#x}", str(src), "-o", str(exe)],
                   check=True, timeout=TOOL_TIMEOUT)
    nm = subprocess.run([CROSS_NM, str(exe)], capture_output=True, text=True, check=True).stdout
    entry = next(line.split()[0] for line in nm.splitlines() if line.endswith(" _start"))
    readelf = subprocess.run([CROSS_READELF, "-lW", str(exe)], capture_output=True, text=True,
                             check=True).stdout
    loads = []
    for line in readelf.splitlines():
        m = LOAD_LINE.match(line)
        if m:
            offset, vaddr, filesz, memsz, flags = m.groups()
            loads.append(f"{vaddr}:{memsz}:{offset}:{filesz}:{flags}")
    assert len(loads) >= 2, readelf
    assert int(entry, 16) >= USER_LINK_ADDRESS
    return [[exe, entry, *loads]]


ARGUMENTS = {
    "fdt": fdt_runs,
    "elf": elf_runs,
}


@pytest.mark.parametrize("name", sorted(PROGRAMS), ids=str)
def test_host_unit(name, tmp_path):
    exe = compile_program(name, tmp_path)
    runs = ARGUMENTS[name](tmp_path) if name in ARGUMENTS else [[]]
    for args in runs:
        run_program(exe, args)
