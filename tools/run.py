#!/usr/bin/env python3
"""Runs faultline under QEMU.

  run.py --kernel K --initrd I [--cpus N] [--mem 128M] [--append "k=v ..."]
         [--icount[=0|1]] [--disk PATH] [--disk-size 64M] MODE

MODE is one of
  --check                check the values above (what `make qemu` passes as
                         CPUS, MEM, ICOUNT, DISK_SIZE, APPEND) and stop
  --interactive          console on this terminal (Ctrl-A x quits QEMU)
  --interactive --gdb    same, harts stopped at reset, GDB stub on a Unix
                         socket in the build directory; attach with `make gdb`
  --attach-gdb           start gdb-multiarch on that socket (needs --kernel only)
  (none: batch)          console copied to stdout and to a log file, QEMU
                         stopped after --timeout s, or --idle-timeout s
                         without output; lines from --send are typed at
                         successive shell prompts

Batch exit status: QEMU's own (0 clean halt, 2 bad boot parameter, 3 panic,
N for `halt N`), 124 overall timeout, 125 idle timeout, 128+S if QEMU died
of signal S. On failure the log is kept and its path printed. A bad value
(see tools/knobs.py) exits 2 before QEMU starts; a disk or GDB stub that
another QEMU is using, or a kernel rebuilt under a running QEMU, exits 1.
"""

import argparse
import os
import shlex
import signal
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

import faultline as fq  # noqa: E402
from faultline import gdb  # noqa: E402
import knobs  # noqa: E402

GDB_SCRIPT = TOOLS / "gdb" / "faultline-gdb.py"
EXIT_TIMEOUT = 124
EXIT_IDLE = 125
EXIT_BAD_KNOB = 2          # as argparse's usage errors: QEMU never started
EXIT_IN_USE = 1


def say(msg: str) -> None:
    print(f"faultline: {msg}", file=sys.stderr, flush=True)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.splitlines()[2:]))
    p.add_argument("--kernel", required=True, help="kernel ELF (build/kernel.elf)")
    p.add_argument("--initrd", help="initrd cpio (build/initrd.cpio)")
    p.add_argument("--cpus", default="1", help="harts (-smp)")
    p.add_argument("--mem", default="128M", help="guest RAM (-m), in M or G")
    p.add_argument("--append", default="", help="kernel command line")
    p.add_argument("--icount", nargs="?", const="1", default="", metavar="0|1",
                   help="-icount shift=0: cycles = instructions, deterministic counts "
                   "(--icount alone is --icount=1)")
    p.add_argument("--disk", help="raw disk image for the virtio block (swap/paging) device")
    p.add_argument("--disk-size", help="create or resize the disk image to this size (64M)")
    p.add_argument("--build-dir", help="where GDB sockets, logs and the default disk go "
                   "(default: the kernel's directory)")
    p.add_argument("--arch", default=fq.DEFAULT_ARCH, choices=sorted(fq.ARCHES),
                   help="the port the kernel was built for (make's ARCH): picks QEMU's machine")
    p.add_argument("--qemu", default=None, help="QEMU binary (default: the port's)")
    p.add_argument("--extra", action="append", default=[], metavar="ARG",
                   help="one more QEMU argument (repeatable)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="check --cpus, --mem, --icount, --disk-size, --append and stop")
    mode.add_argument("--interactive", action="store_true", help="console on this terminal")
    mode.add_argument("--attach-gdb", action="store_true", help="attach gdb-multiarch")
    p.add_argument("--gdb", action="store_true", help="with --interactive: wait for GDB")
    p.add_argument("--dry-run", action="store_true", help="print the QEMU command and stop")
    batch = p.add_argument_group("batch mode")
    batch.add_argument("--timeout", type=float, default=600, help="overall limit, s (600)")
    batch.add_argument("--idle-timeout", type=float, default=120,
                       help="limit on console silence, s (120)")
    batch.add_argument("--log", help="console log file (default: BUILD/logs/run-PID.log, "
                       "removed after a clean halt)")
    batch.add_argument("--send", action="append", default=[], metavar="LINE",
                       help="type LINE at the next shell prompt (repeatable)")
    batch.add_argument("--quiet", action="store_true", help="do not copy the console to stdout")
    args = p.parse_args(argv)
    if args.gdb and not args.interactive:
        p.error("--gdb goes with --interactive (then `make gdb` attaches)")
    if not args.attach_gdb and not args.check and not args.initrd:
        p.error("--initrd is required to boot")
    if not args.attach_gdb:
        errors = knobs.check_all(args)
        for e in errors:
            say(e)
        if errors:
            sys.exit(EXIT_BAD_KNOB)
    return args


def build_dir_of(args) -> Path:
    return Path(args.build_dir or Path(args.kernel).parent).absolute()


# ----- GDB stub ----------------------------------------------------------------
# Which stub runs for a build directory is recorded by faultline.gdb; what
# to say, and when to refuse, is decided here.

def make_command(target: str, build_dir: Path) -> str:
    """The make command that runs `target` for build_dir."""
    if build_dir.name == "build-debug":
        return f"make {target} DEBUG=1"
    if build_dir.name == "build":
        return f"make {target}"
    return f"make {target} BUILD={build_dir}"


def how_to_attach(build_dir: Path) -> str:
    return make_command("gdb", build_dir)


def refuse_live_stub(build_dir: Path) -> None:
    state = gdb.live_stub(build_dir)
    if state:
        say(f"a QEMU with a GDB stub already runs for {build_dir} (pid {state['pid']}); "
            f"attach to it with `{how_to_attach(build_dir)}`, or quit it first "
            "(Ctrl-A x in its terminal)")
        sys.exit(EXIT_IN_USE)


def claim_gdb_socket(build_dir: Path, kernel) -> Path:
    sock = gdb.gdb_socket_path(build_dir)
    refuse_live_stub(build_dir)
    if sock.exists() or sock.is_symlink():
        sock.unlink()           # stale: its QEMU is gone
    # exec keeps our pid, so this pid is QEMU's from the exec on.
    gdb.write_gdb_state(build_dir, {"target": str(sock), "transport": "unix",
                                    "pid": os.getpid(), "kernel": str(Path(kernel).absolute()),
                                    "kernel_sha256": gdb.file_digest(kernel)})
    return sock


def attach_gdb(args) -> int:
    build_dir = build_dir_of(args)
    state = gdb.live_stub(build_dir)
    if not state:
        say(f"no QEMU with a GDB stub runs for {build_dir}; start one first with "
            f"`{make_command('qemu-gdb', build_dir)}` in another terminal")
        for other in sorted(build_dir.parent.glob(f"*/{gdb.gdb_state_path(build_dir).name}")):
            if other.parent != build_dir and gdb.live_stub(other.parent):
                say(f"(one runs for {other.parent}: attach with "
                    f"`{how_to_attach(other.parent)}`)")
        return EXIT_IN_USE
    if not Path(args.kernel).is_file():
        say(f"kernel {args.kernel} not found; it was there when QEMU started: "
            "quit QEMU and start `make qemu-gdb` again")
        return EXIT_IN_USE
    if state.get("kernel_sha256") and gdb.file_digest(args.kernel) != state["kernel_sha256"]:
        say(f"{args.kernel} changed after this QEMU (pid {state['pid']}) started it, so "
            "GDB would show symbols of a kernel that is not the one running; quit QEMU "
            "(Ctrl-A x) and start `make qemu-gdb` again")
        return EXIT_IN_USE
    if state.get("gdb_pid") and gdb.pid_runs_gdb(state["gdb_pid"]):
        say(f"a GDB (pid {state['gdb_pid']}) is already attached to this QEMU, and its stub "
            "serves one GDB at a time; use that one, or quit it first")
        return EXIT_IN_USE
    cmd = gdb.gdb_command(args.kernel, state["target"], script=GDB_SCRIPT)
    if args.dry_run:
        print(shlex.join(cmd))
        return 0
    # exec keeps our pid: from here on it is GDB's.
    gdb.write_gdb_state(build_dir, {**state, "gdb_pid": os.getpid()})
    try:
        os.execvp(cmd[0], cmd)
    except FileNotFoundError:
        say(f"{cmd[0]} not found; run `make toolchain`")
        return 127


# ----- booting ---------------------------------------------------------------

def disk_path(args, build_dir: Path):
    """The disk image to attach: --disk, or BUILD/disk.img if only
    --disk-size was given, or None."""
    if args.disk:
        return Path(args.disk).absolute()
    return build_dir / "disk.img" if args.disk_size else None


def refuse_disk_in_use(path: Path) -> None:
    """QEMU locks its disk image, and a second QEMU on the same image stops
    with a raw "Failed to get write lock". Say who has it instead."""
    if not fq.disk_locked(path):
        return
    users = fq.qemu_pids_using(path)
    who = "; ".join(f"pid {pid}, {'a `make qemu-gdb`' if ' -gdb ' in cmd else 'a `make qemu`'}"
                    for pid, cmd in users) or "one this user cannot see"
    say(f"{path} is in use by another QEMU ({who}); quit that one first (Ctrl-A x in its "
        "terminal), or boot this one without the disk: make qemu DISK_SIZE=")
    sys.exit(EXIT_IN_USE)


def prepare_disk(args, build_dir: Path):
    """disk_path(), created or resized first if --disk-size says so."""
    path = disk_path(args, build_dir)
    if path is None:
        return None
    if path.is_file():
        refuse_disk_in_use(path)
    if args.disk_size:
        fq.ensure_disk(path, args.disk_size)
    elif not path.is_file():
        say(f"disk image {path} does not exist; add --disk-size to create it")
        sys.exit(1)
    return path


def prepare_pd(args, build_dir: Path, create: bool = True):
    """With pd=SIZE in --append: the paging device's image, BUILD/pd.img,
    made (sparse) or resized to SIZE; else None."""
    size = fq.pd_size_of(args.append)
    if size is None or disk_path(args, build_dir) is None:
        return None
    path = build_dir / "pd.img"
    if create:
        if path.is_file():
            refuse_disk_in_use(path)
        fq.ensure_disk(path, size)
    return path


def check_files(args) -> None:
    for what, path in (("kernel", args.kernel), ("initrd", args.initrd)):
        if not Path(path).is_file():
            say(f"{what} {path} not found; run `make` first")
            sys.exit(1)


def run_interactive(args) -> int:
    build_dir = build_dir_of(args)
    if not args.dry_run:
        check_files(args)
    if args.gdb and not args.dry_run:
        refuse_live_stub(build_dir)     # before the disk: the clearer reason
    disk = disk_path(args, build_dir) if args.dry_run else prepare_disk(args, build_dir)
    sock = None
    if args.gdb:
        sock = gdb.gdb_socket_path(build_dir) if args.dry_run else claim_gdb_socket(build_dir,
                                                                                args.kernel)
    cmd = fq.qemu_command(
        args.kernel, args.initrd, cpus=args.cpus, mem=args.mem, append=args.append,
        icount=args.icount, disk=disk, pd=prepare_pd(args, build_dir, not args.dry_run),
        console="terminal", gdb_socket=sock, gdb_wait=args.gdb,
        extra_args=args.extra, qemu=args.qemu, arch=args.arch)
    if args.dry_run:
        print(shlex.join(cmd))
        return 0
    if args.gdb:
        say(f"harts stopped at reset; GDB stub on {sock}")
        say(f"attach from another terminal with:  {how_to_attach(build_dir)}")
    say("console on this terminal; Ctrl-A x quits QEMU")
    # exec: QEMU owns the terminal directly, and its exit status is ours.
    try:
        os.execvp(cmd[0], cmd)
    except FileNotFoundError:
        say(f"{cmd[0]} not found; run `make toolchain`")
        return 127


def _raise_exit(signum, _frame):
    # Turns SIGTERM/SIGHUP into an exception so the finally-block stops QEMU.
    raise SystemExit(128 + signum)


def run_batch(args) -> int:
    build_dir = build_dir_of(args)
    if args.dry_run:
        print(shlex.join(fq.qemu_command(
            args.kernel, args.initrd, cpus=args.cpus, mem=args.mem, append=args.append,
            icount=args.icount, disk=disk_path(args, build_dir), console="pipe",
            pd=prepare_pd(args, build_dir, create=False), extra_args=args.extra,
            qemu=args.qemu, arch=args.arch)))
        return 0
    check_files(args)
    log = Path(args.log) if args.log else build_dir / "logs" / f"run-{os.getpid()}.log"
    echo = None if args.quiet else (lambda text: (sys.stdout.write(text), sys.stdout.flush()))
    signal.signal(signal.SIGTERM, _raise_exit)
    signal.signal(signal.SIGHUP, _raise_exit)

    machine = fq.Machine(args.kernel, args.initrd, workdir=build_dir, log_path=log,
                         qemu=args.qemu, arch=args.arch, on_output=echo)
    code = None
    try:
        machine.start(cpus=args.cpus, mem=args.mem, append=args.append, icount=args.icount,
                      extra_args=args.extra, disk=prepare_disk(args, build_dir))
        for line in args.send:
            machine.expect_prompt(timeout=args.timeout, idle_timeout=args.idle_timeout)
            machine.send(line)
        code = machine.wait_exit(timeout=args.timeout, idle_timeout=args.idle_timeout)
    except fq.MachineTimeout as e:
        say(str(e).splitlines()[0].split(": ", 1)[-1])
        code = EXIT_IDLE if e.idle else EXIT_TIMEOUT
    except fq.MachineExited:
        code = None              # the exit status below says what happened
    except fq.MachineError as e:
        say(str(e))
        return 1
    except KeyboardInterrupt:
        code = 130
    finally:
        status = machine.close()
    if code is None:
        code = status if status is not None else 1
    meaning = {EXIT_TIMEOUT: "timed out", EXIT_IDLE: "no output (idle timeout)",
               130: "interrupted"}.get(code) or fq.describe_exit(code)
    if code < 0:
        code = 128 - code        # died of a signal: report it as a shell does

    if code == fq.EXIT_CLEAN:
        if not args.log:
            log.unlink(missing_ok=True)
    else:
        say(f"QEMU run failed: exit {code} ({meaning}); console log kept at {log}")
    return code


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.check:
        return 0            # parse_args has checked every value
    if args.attach_gdb:
        return attach_gdb(args)
    if args.interactive:
        return run_interactive(args)
    return run_batch(args)


if __name__ == "__main__":
    sys.exit(main())
