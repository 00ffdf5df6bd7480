#!/usr/bin/env python3
"""Builds faultline's initrd: a cpio archive in the "newc" format.

  mkinitrd.py -o build/initrd.cpio [--tree DIR]... build/user/init build/user/sh ...

Each input is stored under its basename. Each --tree DIR adds every file
below DIR under its path relative to DIR, with '/' between the parts
(DIR/man/man1/ls.1 is stored as "man/man1/ls.1"); names starting with '.'
are skipped. The archive holds files only, no directory entries: the
kernel's root is flat and finds "man/man1/ls.1" by its whole name.
Three files are added for tests and for people:
  notelf   a few lines of text: exec must refuse it as "not an ELF file"
  badelf   the first 100 bytes of the first ELF input: a valid ELF header
           whose program headers run past the end of the file
  README   what this archive is

The output is reproducible: entries sorted by name, mtime 0, uid/gid 0,
inode numbers 1, 2, 3... in that order.

newc layout, per entry: a 110-byte header of ASCII fields ("070701" then 13
fields of 8 hex digits), the name with its NUL, zero padding so header+name
is a multiple of 4, the data, zero padding to a multiple of 4. The archive
ends with an entry named "TRAILER!!!".
"""

import argparse
import os
import struct
import sys
import tempfile
from pathlib import Path

MAGIC = b"070701"
# A stored name must fit the kernel's path buffer (FL_PATH_MAX = 128 in
# include/faultline/abi.h) with its NUL and a leading '/' added.
NAME_MAX = 126
HEADER_SIZE = 110
TRAILER = "TRAILER!!!"

S_IFREG = 0o100000
MODE_EXEC = S_IFREG | 0o755
MODE_FILE = S_IFREG | 0o644

ELF_MAGIC = b"\x7fELF"
BADELF_SIZE = 100

NOTELF_TEXT = b"""This is not an ELF file.
faultline's exec must refuse it and say why,
instead of trying to run these bytes.
"""

README_TEXT = b"""faultline initrd

A cpio archive ("newc" format) that the kernel reads in place. The
programs are at the top level, under their basenames: RISC-V ELF
executables linked at fixed user addresses. Other installed files keep
their paths (man/man1/ls.1: the manual pages that man reads). Two files exist for tests:
notelf (plain text) and badelf (an ELF header cut short at 100 bytes, so
its program headers run past the end of the file); exec must reject both.
"""


def align4(n: int) -> int:
    return (n + 3) & ~3


def newc_header(ino: int, mode: int, filesize: int, namesize: int, nlink: int = 1) -> bytes:
    """The 110-byte header. Every field that could vary between builds
    (times, owners, devices) is zero."""
    fields = [
        ino,        # c_ino
        mode,       # c_mode
        0,          # c_uid
        0,          # c_gid
        nlink,      # c_nlink
        0,          # c_mtime: 0 so that rebuilding gives the same bytes
        filesize,   # c_filesize
        0, 0,       # c_devmajor, c_devminor
        0, 0,       # c_rdevmajor, c_rdevminor
        namesize,   # c_namesize, including the NUL
        0,          # c_check: only used by the "crc" variant (070702)
    ]
    header = MAGIC + b"".join(b"%08X" % f for f in fields)
    assert len(header) == HEADER_SIZE
    return header


def newc_entry(ino: int, name: str, mode: int, data: bytes, nlink: int = 1) -> bytes:
    name_bytes = name.encode() + b"\0"
    head = newc_header(ino, mode, len(data), len(name_bytes), nlink) + name_bytes
    head += b"\0" * (align4(len(head)) - len(head))
    return head + data + b"\0" * (align4(len(data)) - len(data))


def build_archive(entries) -> bytes:
    """entries: (name, mode, data) tuples, written in the order given."""
    out = bytearray()
    names = set()
    for ino, (name, mode, data) in enumerate(entries, start=1):
        if not valid_name(name) or name in names:
            raise ValueError(f"bad or duplicate archive name {name!r}")
        names.add(name)
        out += newc_entry(ino, name, mode, data)
    out += newc_entry(0, TRAILER, 0, b"")
    return bytes(out)


def valid_name(name: str) -> bool:
    """A relative path of plain parts: no empty part (so no leading,
    trailing or doubled '/'), no '.' or '..', no NUL, short enough."""
    parts = name.split("/")
    return (0 < len(name) <= NAME_MAX and "\0" not in name and
            all(part not in ("", ".", "..") for part in parts))


def tree_files(root):
    """(name, path) for every file below root, name relative to it."""
    root = Path(root)
    if not root.is_dir():
        raise ValueError(f"--tree {root}: not a directory")
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for fname in sorted(filenames):
            if fname.startswith("."):
                continue
            path = Path(dirpath) / fname
            found.append((path.relative_to(root).as_posix(), path))
    return found


def is_elf(data: bytes) -> bool:
    return data[:4] == ELF_MAGIC


def make_badelf(elf: bytes) -> bytes:
    """The first BADELF_SIZE bytes of an ELF64 file, checked to be a header
    whose program header table ends beyond those bytes."""
    if len(elf) < 64 or elf[4] != 2 or elf[5] != 1:
        raise ValueError("badelf needs a 64-bit little-endian ELF input")
    e_phoff, = struct.unpack_from("<Q", elf, 0x20)
    e_phentsize, e_phnum = struct.unpack_from("<HH", elf, 0x36)
    if e_phnum == 0 or e_phoff + e_phentsize * e_phnum <= BADELF_SIZE:
        raise ValueError("the first ELF input's program headers fit in "
                         f"{BADELF_SIZE} bytes; cutting it would not break them")
    return elf[:BADELF_SIZE]


def synthetic_elf_header() -> bytes:
    """A RISC-V ELF64 executable header with one program header at offset 64,
    for archives built without any ELF input (so badelf always exists)."""
    ident = ELF_MAGIC + bytes([2, 1, 1, 0]) + bytes(8)   # ELF64, LE, version 1
    rest = struct.pack("<HHIQQQIHHHHHH",
                       2,          # e_type: ET_EXEC
                       243,        # e_machine: EM_RISCV
                       1,          # e_version
                       0x10000,    # e_entry
                       64,         # e_phoff
                       0,          # e_shoff
                       0x5,        # e_flags: RVC, double-float ABI
                       64, 56, 1,  # e_ehsize, e_phentsize, e_phnum
                       64, 0, 0)   # e_shentsize, e_shnum, e_shstrndx
    return ident + rest + bytes(56)     # header + one (zeroed) program header


def collect_entries(paths, trees=()):
    """(name, mode, data) for the inputs, the trees' files and the
    generated files, by name."""
    entries = {}
    first_elf = None
    named = [(Path(path).name, Path(path)) for path in paths]
    for tree in trees:
        named += tree_files(tree)
    for name, path in named:
        data = path.read_bytes()
        if not valid_name(name):
            raise ValueError(f"{path}: cannot be stored as {name!r} "
                             f"(at most {NAME_MAX} characters, no '.' or '..' parts)")
        if name in entries:
            raise ValueError(f"two inputs are both named {name!r}")
        executable = is_elf(data) or os.access(path, os.X_OK)
        entries[name] = (MODE_EXEC if executable else MODE_FILE, data)
        if first_elf is None and is_elf(data):
            first_elf = data

    generated = {
        # notelf/badelf are "executable" so exec gets as far as the ELF check.
        "notelf": (MODE_EXEC, NOTELF_TEXT),
        "badelf": (MODE_EXEC, make_badelf(first_elf or synthetic_elf_header())),
        "README": (MODE_FILE, README_TEXT),
    }
    for name, entry in generated.items():
        if name in entries:
            raise ValueError(f"input {name!r} clashes with a generated file")
        entries[name] = entry
    # Sorted so that listing order is stable; only badelf's source (the first
    # ELF on the command line) depends on the order of the inputs.
    return [(name, mode, data) for name, (mode, data) in sorted(entries.items())]


def read_archive(data: bytes):
    """(name, mode, data) of every entry of an archive this module wrote,
    in order, trailer excluded: for tools and tests that look inside."""
    entries, pos = [], 0
    while True:
        if data[pos:pos + len(MAGIC)] != MAGIC:
            raise ValueError(f"no newc header at offset {pos}")
        fields = [int(data[pos + 6 + 8 * i: pos + 14 + 8 * i], 16) for i in range(13)]
        mode, filesize, namesize = fields[1], fields[6], fields[11]
        name_end = pos + HEADER_SIZE + namesize
        name = data[pos + HEADER_SIZE:name_end - 1].decode()
        start = align4(name_end)
        if name == TRAILER:
            return entries
        entries.append((name, mode, data[start:start + filesize]))
        pos = align4(start + filesize)


def write_atomically(path: Path, data: bytes) -> None:
    # A half-written initrd must never look up to date to make.
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Build faultline's initrd (cpio newc).")
    p.add_argument("-o", "--output", required=True, help="archive to write")
    p.add_argument("--tree", action="append", default=[], metavar="DIR",
                   help="also store every file below DIR, under its path relative to DIR")
    p.add_argument("files", nargs="*", help="files to store, each under its basename")
    args = p.parse_args(argv)
    try:
        archive = build_archive(collect_entries(args.files, args.tree))
    except (OSError, ValueError) as e:
        print(f"mkinitrd: {e}", file=sys.stderr)
        return 1
    write_atomically(Path(args.output), archive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
