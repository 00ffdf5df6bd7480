# GDB extensions for faultline, loaded by `make gdb` (tools/run.py --attach-gdb).
#
#   fl-user PROGRAM   load the symbols of build/user/PROGRAM (user programs are
#                     linked at fixed addresses, so no offset is needed)
#   fl-user           list the user programs that can be loaded
#   fl-harts          one line per hart: pc, sp, privilege mode, satp, function
#
# QEMU's GDB stub shows each hart as one GDB thread (thread N = hart N-1).

import os

import gdb

PRIV_NAMES = {0: "U", 1: "S", 3: "M"}


def _build_dir():
    """The directory of the kernel ELF GDB was started with (build/)."""
    main = gdb.current_progspace().filename
    if main:
        return os.path.dirname(os.path.abspath(main))
    return os.path.abspath("build")


def _user_dir():
    return os.path.join(_build_dir(), "user")


def _user_programs():
    try:
        names = sorted(os.listdir(_user_dir()))
    except OSError:
        return []
    # Object and dependency files live next to the programs; keep executables.
    return [n for n in names
            if os.path.isfile(os.path.join(_user_dir(), n))
            and os.access(os.path.join(_user_dir(), n), os.X_OK)]


def _find_program(name):
    candidates = [name] if os.sep in name else []
    candidates += [os.path.join(_user_dir(), name), os.path.join(_user_dir(), name + ".elf")]
    for path in candidates:
        if os.path.isfile(path):
            return path
    return None


class FlUser(gdb.Command):
    """Load a user program's symbols: fl-user PROGRAM (e.g. fl-user sh).
Without an argument, list the programs in build/user."""

    def __init__(self):
        super().__init__("fl-user", gdb.COMMAND_FILES, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        name = arg.strip()
        if not name:
            progs = _user_programs()
            print("user programs in %s: %s" % (_user_dir(), " ".join(progs) or "(none)"))
            return
        path = _find_program(name)
        if path is None:
            raise gdb.GdbError("fl-user: no program %r in %s" % (name, _user_dir()))
        # add-symbol-file asks "(y or n)"; the question adds nothing here.
        confirm = gdb.parameter("confirm")
        gdb.execute("set confirm off")
        try:
            gdb.execute("add-symbol-file %s" % path, from_tty)
        finally:
            gdb.execute("set confirm %s" % ("on" if confirm else "off"))


def _read(expr):
    try:
        return int(gdb.parse_and_eval(expr))
    except (gdb.error, ValueError, OverflowError):
        return None


def _function_at(pc):
    if pc is None:
        return "?"
    block_fn = gdb.block_for_pc(pc)
    while block_fn is not None and block_fn.function is None:
        block_fn = block_fn.superblock
    if block_fn is not None:
        return block_fn.function.print_name
    sym = gdb.execute("info symbol 0x%x" % pc, to_string=True).strip()
    return sym.split(" in section")[0] if not sym.startswith("No symbol") else "?"


def _hex(value):
    return "0x%016x" % (value & 0xFFFFFFFFFFFFFFFF) if value is not None else "?"


class FlHarts(gdb.Command):
    """Show every hart: pc, sp, privilege mode, satp and the function it is in."""

    def __init__(self):
        super().__init__("fl-harts", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        inferior = gdb.selected_inferior()
        if inferior.pid == 0:
            raise gdb.GdbError("fl-harts: not connected (target remote ...)")
        current = gdb.selected_thread()
        print("  hart  state     priv  pc                  sp                  "
              "satp                function")
        # Threads come newest first; sort so hart 0 is on top.
        for thread in sorted(inferior.threads(), key=lambda t: t.num):
            thread.switch()
            # QEMU numbers its GDB threads from 1 in cpu-index (hart id) order.
            hart = thread.num - 1
            state = "running"
            details = getattr(thread, "details", None) or ""
            if "halted" in details:
                state = "halted"   # QEMU's word for a hart in wfi or not started
            pc = _read("$pc")
            priv = _read("$priv")
            print("%s %-4d  %-8s  %-4s  %s  %s  %s  %s" % (
                "*" if thread == current else " ", hart, state,
                PRIV_NAMES.get(priv, "?"), _hex(pc), _hex(_read("$sp")),
                _hex(_read("$satp")), _function_at(pc)))
        if current is not None and current.is_valid():
            current.switch()


def _defaults():
    gdb.execute("set pagination off")
    gdb.execute("set architecture riscv:rv64")
    gdb.execute("set print pretty on")


FlUser()
FlHarts()
_defaults()
