#!/usr/bin/env python3
"""Checks (and on Debian/Ubuntu installs) what building and running faultline
needs: a RISC-V cross gcc, qemu-system-riscv64 >= 7.2 and gdb-multiarch.

  setup.py            check; install what is missing with apt-get if possible
  setup.py --check    check only; exit 1 if something is missing
  setup.py --test     also the Python packages the tests need
                      (requirements-dev.txt), installed with pip if missing

Prints one line when everything is there. `make toolchain` and `make qemu`
run it.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

CROSS_PREFIXES = ("riscv64-unknown-elf-", "riscv64-linux-gnu-", "riscv64-elf-")
QEMU = "qemu-system-riscv64"
GDB = "gdb-multiarch"
# QEMU 7.2 is what the icount measurements were checked against (see the
# design notes: counters under -icount, Sstc); older ones may still boot.
MIN_QEMU = (7, 2)
APT_PACKAGES = ["gcc-riscv64-unknown-elf", "binutils-riscv64-unknown-elf",
                "qemu-system-misc", "gdb-multiarch"]


def say(msg: str, err: bool = False) -> None:
    print(f"faultline: {msg}", file=sys.stderr if err else sys.stdout, flush=True)


def find_cross_gcc():
    for prefix in CROSS_PREFIXES:
        if shutil.which(prefix + "gcc"):
            return prefix + "gcc"
    return None


def tool_version(binary: str):
    """(major, minor, patch) from `binary --version`, or None."""
    try:
        out = subprocess.run([binary, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_version(out)


def parse_version(text: str):
    # "QEMU emulator version 7.2.22 (Debian ...)", "GNU gdb (Debian 13.1-3) 13.1"
    m = re.search(r"version (\d+)\.(\d+)(?:\.(\d+))?", text) or \
        re.search(r"\) (\d+)\.(\d+)(?:\.(\d+))?", text)
    if not m:
        return None
    return tuple(int(g or 0) for g in m.groups())


def fmt(version) -> str:
    return ".".join(map(str, version)) if version else "?"


def check():
    """Returns (missing, notes, warnings): what to install, what was found,
    and what is found but questionable."""
    missing, notes, warnings = [], [], []
    gcc = find_cross_gcc()
    if gcc:
        notes.append(gcc)
    else:
        missing.append("a RISC-V cross compiler (" +
                       ", ".join(p + "gcc" for p in CROSS_PREFIXES) + ")")
    if shutil.which(QEMU):
        version = tool_version(QEMU)
        notes.append(f"QEMU {fmt(version)}")
        if version is None or version[:2] < MIN_QEMU:
            warnings.append(f"warning: {QEMU} {fmt(version)} is older than "
                            f"{fmt(MIN_QEMU)}; icount counts and Sstc may differ")
    else:
        missing.append(QEMU)
    if shutil.which(GDB):
        notes.append(f"{GDB} {fmt(tool_version(GDB))}")
    else:
        missing.append(GDB)
    return missing, notes, warnings


def apt_install_command():
    """argv prefix for running apt-get as root, or None if we cannot."""
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo"):
        # -n: never wait for a password nobody can type (CI, no terminal).
        return ["sudo"] if sys.stdin.isatty() else ["sudo", "-n"]
    return None


def install() -> bool:
    prefix = apt_install_command()
    if prefix is None:
        say("missing tools and not root, and no sudo: install as root with")
        print("  apt-get install --no-install-recommends " + " ".join(APT_PACKAGES))
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    steps = [prefix + ["apt-get", "update"],
             prefix + ["apt-get", "install", "-y", "--no-install-recommends"] + APT_PACKAGES]
    for argv in steps:
        print("+ " + " ".join(argv), flush=True)
        if subprocess.run(argv, env=env).returncode != 0:
            say(f"`{' '.join(argv)}` failed", err=True)
            return False
    return True


def print_manual_instructions(missing) -> None:
    say("missing: " + "; ".join(missing), err=True)
    print("Install them with your system's package manager. On Debian/Ubuntu:\n"
          "  apt-get install --no-install-recommends " + " ".join(APT_PACKAGES) + "\n"
          "Elsewhere: a riscv64 bare-metal GCC + binutils (riscv64-unknown-elf-*),\n"
          f"QEMU >= {fmt(MIN_QEMU)} with {QEMU}, and a GDB that debugs RISC-V "
          f"(installed as {GDB}).")


REQUIREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "requirements-dev.txt")
# import name of each package the test run cannot start without
TEST_MODULES = ("pytest", "pexpect", "ptyprocess", "xdist", "pytest_timeout")


def missing_test_modules():
    import importlib.util
    return [m for m in TEST_MODULES if importlib.util.find_spec(m) is None]


def pip_install_requirements() -> bool:
    """pip-installs requirements-dev.txt for this user; a Debian-managed
    Python refuses (PEP 668) unless told, so that is the fallback."""
    base = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    user = [] if os.geteuid() == 0 else ["--user"]
    for extra in ([], ["--break-system-packages"]):
        argv = base + user + extra + ["-r", REQUIREMENTS]
        print("+ " + " ".join(argv), flush=True)
        if subprocess.run(argv).returncode == 0:
            return True
    return False


def ensure_test_modules(check_only: bool) -> bool:
    missing = missing_test_modules()
    if missing and not check_only:
        say("missing Python test packages: " + ", ".join(missing) + " -- installing with pip")
        pip_install_requirements()
        missing = missing_test_modules()
    if missing:
        say("missing Python test packages: " + ", ".join(missing), err=True)
        print(f"  python3 -m pip install -r {os.path.normpath(REQUIREMENTS)}")
        return False
    return True


# Host tools two host unit tests compare the kernel's parsers against: the
# device-tree parser against dtc's output, the initrd reader against GNU
# cpio's archives. Without them those tests skip, so `make test` installs
# them when it can.
TEST_APT_PACKAGES = {"dtc": "device-tree-compiler", "cpio": "cpio"}


def missing_test_tools():
    missing = []
    if not shutil.which("dtc"):
        missing.append("dtc")
    try:
        gnu = "GNU" in subprocess.run(["cpio", "--version"], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        gnu = False
    if not gnu:
        missing.append("cpio")
    return missing


def ensure_test_tools(check_only: bool) -> None:
    missing = missing_test_tools()
    prefix = apt_install_command()
    if missing and not check_only and prefix is not None and shutil.which("apt-get"):
        packages = [TEST_APT_PACKAGES[m] for m in missing]
        say("missing test tools: " + ", ".join(missing) + " -- installing with apt-get")
        subprocess.run(prefix + ["apt-get", "install", "-y", "--no-install-recommends"] + packages,
                       check=False)
        missing = missing_test_tools()
    if missing:
        say("warning: without " + ", ".join(missing) + " the host tests that compare against "
            "them are skipped", err=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Check/install faultline's toolchain.")
    p.add_argument("--check", action="store_true", help="only check; install nothing")
    p.add_argument("--test", action="store_true",
                   help="also check (and install) the Python packages the tests need")
    args = p.parse_args(argv)

    missing, notes, warnings = check()
    if missing and not args.check and shutil.which("apt-get"):
        say("missing: " + "; ".join(missing) + " -- installing with apt-get")
        if install():
            missing, notes, warnings = check()
    for w in warnings:
        say(w, err=True)
    if missing:
        print_manual_instructions(missing)
        return 1
    say("toolchain ok: " + ", ".join(notes))
    if args.test and not ensure_test_modules(args.check):
        return 1
    if args.test:
        ensure_test_tools(args.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
