"""QEMU's command line for faultline, and the disks it attaches.

qemu_command() is the one place that knows how faultline's QEMU command
line looks (the machine, the firmware, the disk through virtio-mmio or
through blkdebug's error injection, the console, the GDB stub);
Machine (machine.py) and tools/run.py both build theirs with it. The rest
makes, checks and finds the users of disk images.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Optional, Sequence, Union

# The machine each port runs on: QEMU binary, board, CPU model and
# firmware. The key is the port's ARCH_QEMU (kernel/arch/<arch>/arch.mk),
# which make passes to run.py as --arch.
ARCHES = {
    "riscv64": {
        "qemu": "qemu-system-riscv64",
        "machine": "virt",
        "cpu": "rv64",
        "bios": "default",           # OpenSBI, which starts the kernel in S-mode
    },
}
# The port the tests boot: make test passes its ARCH_QEMU as FL_ARCH. A
# name ARCHES does not have is refused where a machine is started.
DEFAULT_ARCH = os.environ.get("FL_ARCH") or "riscv64"
QEMU = ARCHES.get(DEFAULT_ARCH, ARCHES["riscv64"])["qemu"]


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
    pd: Optional[Union[str, Path]] = None,
    console: str = "pipe",
    gdb_socket: Optional[Union[str, Path]] = None,
    gdb_wait: bool = False,
    extra_args: Sequence[str] = (),
    qemu: Optional[str] = None,
    aclint: bool = True,
    arch: str = DEFAULT_ARCH,
) -> list:
    """Builds the QEMU argv. Pure: touches no file, starts nothing.

    console="pipe": serial on stdin/stdout, no monitor and no display, for
    scripted runs (no Ctrl-A escape character can be eaten by a monitor).
    console="terminal": -nographic, for a person at a terminal (Ctrl-A x quits).
    aclint=True adds the ACLINT devices to the machine, among them the SSWI
    through which the kernel sends IPIs without the firmware; aclint=False
    leaves only the CLINT, and IPIs then go through SBI.
    """
    if arch not in ARCHES:
        raise ValueError(f"no QEMU machine for arch {arch!r} (known: {', '.join(sorted(ARCHES))})")
    port = ARCHES[arch]
    if cpus < 1:
        raise ValueError("cpus must be >= 1")
    if console not in ("pipe", "terminal"):
        raise ValueError(f"console must be 'pipe' or 'terminal', not {console!r}")
    if gdb_wait and not gdb_socket:
        raise ValueError("gdb_wait needs gdb_socket")
    if (blkdebug_config_path is not None or disk_readonly) and disk is None:
        raise ValueError("blkdebug_config_path and disk_readonly need a disk")
    if pd is not None and disk is None:
        raise ValueError("a paging device (pd) needs a disk: the kernel takes the first "
                         "block device for the disk")

    cmd = [
        qemu or port["qemu"],
        "-machine", port["machine"] + (",aclint=on" if aclint else ""),
        "-cpu", port["cpu"],
        "-smp", str(cpus),
        "-m", str(mem),
        "-bios", port["bios"],
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
    if pd is not None:
        # pd=SIZE's paging device: the second virtio-blk, after the disk.
        # QEMU gives devices virtio-mmio slots from the top down, and the
        # device tree lists the slots from the top, so the kernel finds
        # the disk first and this second (docs/memory.md, "The paging
        # device"); the kernel checks its size against pd=.
        cmd += [
            "-drive", f"file={_qemu_opt_escape(pd)},if=none,format=raw,id=pd0",
            "-device", "virtio-blk-device,drive=pd0",
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
        # Every hart on one host thread while GDB may attach. With a thread
        # per hart (QEMU 7.2's default), a user breakpoint that GDB passes
        # over (fl-break-user in the shell's code) now and then left that
        # hart taking interrupts at the breakpoint, never reporting it nor
        # running on, until GDB let go: about 1 command in 30 on 2 harts on
        # a busy host, none in 300 this way (README, "Debugging with GDB").
        cmd += ["-accel", "tcg,thread=single"]
    cmd += list(extra_args)
    return cmd


def pd_size_of(append: str) -> Optional[str]:
    """The SIZE of a pd=SIZE boot parameter in a kernel command line, or
    None: the boot that asks for a paging device gets one of that size."""
    found = None
    for token in append.split():
        if token.startswith("pd="):
            found = token[len("pd="):]
    return found or None


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


def death_signal_prefix() -> list:
    # If whoever started QEMU dies without cleaning up (SIGKILL, a crashed
    # pytest worker), the kernel sends QEMU SIGTERM. QEMU runs in its own
    # session, so it would not get the terminal's or make's signals otherwise.
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "TERM", "--"] if setpriv else []
