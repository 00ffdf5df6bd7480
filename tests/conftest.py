"""Fixtures shared by faultline's tests.

Host unit tests need none of these. QEMU integration tests use:

  build_dir, kernel_elf, initrd_cpio, user_dir   paths (session scope); the
      tests assume `make` has built them (`make test` does) and fail with a
      clear message if the kernel or initrd is missing. FL_BUILD=DIR points
      them at another build directory.
  debug_build, release_build   a build directory of each flavour (session
      scope): the suite's own build if it is of that flavour, else one
      `make` makes beside it (<build>-debug for DEBUG=1; build/ for the
      release build when the suite runs on build-debug/).
  machine    a factory: machine(cpus=1, mem="128M", append="", icount=False,
             extra_args=(), disk_size="64M", gdb=False, gdb_wait=False,
             initrd=None, name=None, blkdebug=None, disk_readonly=False,
             aclint=True)
             -> a started Machine (disk_size=None: no disk; initrd=None:
             build/initrd.cpio; blkdebug: error-injection rules for the
             disk, see tools/faultline/qemu.py blkdebug_config;
             disk_readonly: attach the disk read-only; aclint=False: no
             ACLINT SSWI, so IPIs go through SBI). Every machine it
             made is closed after the test, and on failure the report shows
             its console tail and log path.
  shell      a Machine booted to its first "$ " prompt. Configure it with
             @pytest.mark.machine(cpus=2, append="mm=swap", ...) (the same
             keyword arguments as the factory).

Everything a test writes (logs, disk images, GDB sockets) goes under its own
tmp_path, so tests can run in parallel (pytest -n 2).
"""

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from faultline import Machine  # noqa: E402

# Seconds from QEMU start to the first shell prompt; FL_TIMEOUT_SCALE scales it.
BOOT_TIMEOUT = 120.0

_MACHINES = pytest.StashKey[list]()


def _build_dir() -> Path:
    path = Path(os.environ.get("FL_BUILD", "build"))
    return path if path.is_absolute() else ROOT / path


def _artifact(path: Path, what: str) -> Path:
    if not path.is_file():
        pytest.fail(f"{what} {path} is missing: build it first with `make` "
                    "(`make test` builds everything before running the tests)",
                    pytrace=False)
    return path


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def build_dir() -> Path:
    return _build_dir()


@pytest.fixture(scope="session")
def kernel_elf(build_dir) -> Path:
    return _artifact(build_dir / "kernel.elf", "kernel")


@pytest.fixture(scope="session")
def initrd_cpio(build_dir) -> Path:
    return _artifact(build_dir / "initrd.cpio", "initrd")


@pytest.fixture(scope="session")
def user_dir(build_dir) -> Path:
    return build_dir / "user"


DEBUG_BANNER = b"faultline: debug build (FL_DEBUG)"


def is_debug_build(build: Path) -> bool:
    """Whether build/kernel.elf was built with DEBUG=1 (it prints the banner)."""
    return DEBUG_BANNER in _artifact(build / "kernel.elf", "kernel").read_bytes()


def _make_flavour(out_dir: Path, debug: bool) -> Path:
    """`make [DEBUG=1] BUILD=out_dir all`, once per session; a lock keeps two
    test workers from building into one directory at the same time."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with open(out_dir / ".test-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        res = subprocess.run(["make", "-j2", "--no-print-directory", f"DEBUG={1 if debug else ''}",
                              f"BUILD={out_dir}", "all"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=900)
    assert res.returncode == 0, f"make DEBUG={1 if debug else ''} failed:\n{res.stdout[-4000:]}"
    return out_dir


@pytest.fixture(scope="session")
def debug_build(build_dir) -> Path:
    if is_debug_build(build_dir):
        return build_dir
    return _make_flavour(build_dir.parent / (build_dir.name + "-debug"), debug=True)


@pytest.fixture(scope="session")
def release_build(build_dir) -> Path:
    if not is_debug_build(build_dir):
        return build_dir
    name = build_dir.name
    name = name[:-len("-debug")] if name.endswith("-debug") and name != "-debug" else name + "-release"
    return _make_flavour(build_dir.parent / name, debug=False)


@pytest.fixture(scope="session")
def gdb_script() -> Path:
    return ROOT / "tools" / "gdb" / "faultline-gdb.py"


@pytest.fixture
def machine(request, tmp_path, kernel_elf, initrd_cpio):
    """Factory of started Machines, all closed when the test ends."""
    machines = []
    request.node.stash[_MACHINES] = machines

    def boot(cpus=1, mem="128M", append="", icount=False, extra_args=(), *,
             disk_size="64M", gdb=False, gdb_wait=False, initrd=None,
             name=None, blkdebug=None, disk_readonly=False, aclint=True,
             pd_size=None) -> Machine:
        m = Machine(kernel_elf, initrd or initrd_cpio, workdir=tmp_path,
                    name=name or f"qemu{len(machines)}")
        machines.append(m)
        # A fresh, private disk per machine: QEMU locks its image, so two
        # tests must never share one.
        return m.start(cpus=cpus, mem=mem, append=append, icount=icount,
                       extra_args=extra_args, disk_size=disk_size,
                       gdb=gdb, gdb_wait=gdb_wait, blkdebug=blkdebug,
                       disk_readonly=disk_readonly, aclint=aclint, pd_size=pd_size)

    yield boot
    for m in machines:
        m.close()


@pytest.fixture
def shell(request, machine) -> Machine:
    """A Machine at its first shell prompt (see @pytest.mark.machine)."""
    marker = request.node.get_closest_marker("machine")
    m = machine(**(marker.kwargs if marker else {}))
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    return m


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # A failed QEMU test is hard to read without the console: put the tail of
    # every machine's console (and where the whole log is) in the report.
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for m in item.stash.get(_MACHINES, []):
            report.sections.append(
                (f"QEMU console of {m.name} (full log: {m.log_path})", m.tail(60)))
