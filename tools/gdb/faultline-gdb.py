# GDB extensions for faultline, loaded by `make gdb` (tools/run.py --attach-gdb).
#
#   fl-user PROGRAM   load the symbols of build/user/PROGRAM (user programs are
#                     linked at fixed addresses, so no offset is needed)
#   fl-user           list the user programs that can be loaded
#   fl-break-user PROGRAM FUNCTION
#                     break at FUNCTION of PROGRAM, but stop only when the
#                     process running it is named PROGRAM: every user program
#                     is linked at 0x10000, so a plain `break main` also
#                     fires in whichever other program has code there
#   fl-current        the process and thread on the selected hart
#   fl-harts          one line per hart: pc, sp, privilege mode, satp, function
#
# QEMU's GDB stub shows each hart as one GDB thread (thread N = hart N-1).
#
# Stepping: `scheduler-locking step` is set, so that while one hart is
# stepped (next, step) the others wait. Otherwise they run on during a
# step, and a `next` in the idle loop ends with a stray SIGTRAP from another
# hart, in the trap vector, or inside OpenSBI (an SBI call made from a timer
# interrupt). `continue` still runs every hart.

import contextlib
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
        if _loaded_objfile(path) is not None:
            print("%s: symbols already loaded" % path)
            return
        _load_program(path, from_tty)


def _loaded_objfile(path):
    path = os.path.abspath(path)
    for objfile in gdb.objfiles():
        if objfile.filename and os.path.abspath(objfile.filename) == path:
            return objfile
    return None


def _load_program(path, from_tty=False):
    """Adds a user program's symbols once; returns its objfile."""
    objfile = _loaded_objfile(path)
    if objfile is not None:
        return objfile
    # add-symbol-file asks "(y or n)"; the question adds nothing here.
    confirm = gdb.parameter("confirm")
    gdb.execute("set confirm off")
    try:
        gdb.execute("add-symbol-file %s" % path, from_tty, to_string=not from_tty)
    finally:
        gdb.execute("set confirm %s" % ("on" if confirm else "off"))
    return _loaded_objfile(path)


# ----- which process runs on a hart --------------------------------------------
#
# In the kernel (S-mode) tp points at the hart's struct cpu, and cpus[] is
# found by hart id anyway. In a user program (U-mode) sscratch holds the
# running thread (trap.S finds its trapframe there), but the hart cannot
# read kernel memory then: QEMU's stub reads through the hart's own MMU, and
# kernel pages are not user pages. So kernel structures are read by their
# physical address (QEMU's Qqemu.PhyMemMode), which is the kernel virtual
# address less KERNEL_OFFSET (kernel/arch/riscv64/kernel.ld).

PRIV_U, PRIV_S = 0, 1
DEFAULT_KERNEL_OFFSET = 0xFFFFFFC000000000


def _kernel_offset():
    try:
        return int(gdb.parse_and_eval("(unsigned long)&KERNEL_OFFSET"))
    except gdb.error:
        return DEFAULT_KERNEL_OFFSET


class _PhysicalMemory:
    """with _PhysicalMemory(): reads go to physical addresses (QEMU stub)."""

    def __enter__(self):
        gdb.execute("maint packet Qqemu.PhyMemMode:1", to_string=True)
        return self

    def __exit__(self, *exc):
        gdb.execute("maint packet Qqemu.PhyMemMode:0", to_string=True)


U64 = 0xFFFFFFFFFFFFFFFF


def _read_struct(kva, type_name, physical):
    """The struct at kernel address kva as a gdb.Value (a copy)."""
    kind = gdb.lookup_type(type_name)
    kva &= U64
    addr = (kva - _kernel_offset()) & U64 if physical else kva
    data = gdb.selected_inferior().read_memory(addr, kind.sizeof)
    return gdb.Value(bytes(data), kind)


def _hart_of(thread):
    """QEMU's thread ids are cpu index + 1; on virt the cpu index is the hart id."""
    lwp = thread.ptid[1]
    return (lwp or thread.num) - 1


def _current_thread_kva(hart, priv, physical):
    """Address of the struct thread running on `hart`, or 0 (idle)."""
    if priv == PRIV_U:
        return (_read("$sscratch") or 0) & U64
    ncpus = int(_read_struct(int(gdb.parse_and_eval("(unsigned long)&ncpus")),
                             "uint32_t", physical))
    base = int(gdb.parse_and_eval("(unsigned long)&cpus"))
    size = gdb.lookup_type("struct cpu").sizeof
    for i in range(ncpus):
        cpu = _read_struct(base + i * size, "struct cpu", physical)
        if int(cpu["hartid"]) == hart:
            return int(cpu["current"])
    return 0


def current_process():
    """(pid, process name, thread name, priv) on the selected hart; pid is
    None for a kernel thread, and everything None when the hart idles."""
    thread = gdb.selected_thread()
    if thread is None:
        raise gdb.GdbError("not connected (target remote ...)")
    priv = _read("$priv")
    physical = priv == PRIV_U
    with _PhysicalMemory() if physical else contextlib.nullcontext():
        kva = _current_thread_kva(_hart_of(thread), priv, physical) & U64
        if not kva:
            return None, None, None, priv
        t = _read_struct(kva, "struct thread", physical)
        tname = t["name"].string()
        proc = int(t["proc"]) & U64
        if not proc:
            return None, None, tname, priv
        p = _read_struct(proc, "struct proc", physical)
        return int(p["pid"]), p["name"].string(), tname, priv


class FlCurrent(gdb.Command):
    """Show the process and thread running on the selected hart."""

    def __init__(self):
        super().__init__("fl-current", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        thread = gdb.selected_thread()
        if thread is None:
            raise gdb.GdbError("fl-current: not connected (target remote ...)")
        pid, name, tname, priv = current_process()
        mode = PRIV_NAMES.get(priv, "?")
        hart = _hart_of(thread)
        if tname is None:
            print("hart %d: idle (no thread), %s-mode" % (hart, mode))
        elif pid is None:
            print("hart %d: kernel thread %s, %s-mode" % (hart, tname, mode))
        else:
            print("hart %d: pid %d %s (thread %s), %s-mode" % (hart, pid, name, tname, mode))


class UserBreakpoint(gdb.Breakpoint):
    """A breakpoint at a user address that stops only in one program."""

    def __init__(self, spec, program, where):
        super().__init__(spec, internal=False)
        self.program = program
        self.where = where
        self.passed = {}            # process name -> hits not stopped at

    def stop(self):
        try:
            _pid, name, _tname, _priv = current_process()
        except (gdb.error, gdb.MemoryError):
            return True             # cannot tell: stopping is the safe side
        if name == self.program:
            return True
        key = name or "(kernel)"
        self.passed[key] = self.passed.get(key, 0) + 1
        return False


class FlBreakUser(gdb.Command):
    """Break at a function of a user program, in that program only:
fl-break-user PROGRAM FUNCTION   (e.g. fl-break-user echo main)
Loads PROGRAM's symbols if needed. Every user program is linked at 0x10000,
so the address is also code of other programs; this breakpoint looks at the
name of the process that hit it and stops only if it is PROGRAM."""

    def __init__(self):
        super().__init__("fl-break-user", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        words = gdb.string_to_argv(arg)
        if len(words) != 2:
            raise gdb.GdbError("usage: fl-break-user PROGRAM FUNCTION (e.g. fl-break-user echo main)")
        name, function = words
        path = _find_program(name)
        if path is None:
            raise gdb.GdbError("fl-break-user: no program %r in %s" % (name, _user_dir()))
        objfile = _load_program(path)
        if objfile is None:
            raise gdb.GdbError("fl-break-user: could not load the symbols of %s" % path)
        symbol = objfile.lookup_global_symbol(function) or \
            objfile.lookup_static_symbol(function)
        if symbol is None or symbol.type is None or symbol.type.code != gdb.TYPE_CODE_FUNC:
            raise gdb.GdbError("fl-break-user: %s has no function %r" % (name, function))
        addr = int(symbol.value().address)
        program = os.path.basename(path)
        bp = UserBreakpoint("*0x%x" % addr, program, "%s in %s" % (function, program))
        print("Breakpoint %d stops only in processes named %s" % (bp.number, program))


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


_connected_setup_done = False


def _connected_setup(*_event):
    """What needs a live target (GDB refuses it before `target remote`):
    scheduler-locking, see the top of this file. Runs once, at the first
    thread GDB learns of or the first prompt after connecting."""
    global _connected_setup_done
    if _connected_setup_done or gdb.selected_inferior().pid == 0:
        return
    try:
        gdb.execute("set scheduler-locking step")
        _connected_setup_done = True
    except gdb.error:
        pass


def _defaults():
    gdb.execute("set pagination off")
    gdb.execute("set architecture riscv:rv64")
    gdb.execute("set print pretty on")
    gdb.events.new_thread.connect(_connected_setup)
    gdb.events.before_prompt.connect(_connected_setup)


FlUser()
FlBreakUser()
FlCurrent()
FlHarts()
_defaults()
