"""QEMU integration tests of debugging the kernel with gdb-multiarch through
QEMU's GDB stub:

  - README.md's GDB walkthrough, read from README.md itself and typed into
    `make qemu-gdb` and `make gdb` (the commands make runs, on terminals),
    stops and prints what the README says;
  - fl-break-user stops in its program only, not in another one that runs
    code at the same address first;
  - `next` from the idle loop of a DEBUG=1 kernel stays in the kernel;
  - `make gdb` refuses a kernel rebuilt under the running QEMU and a second
    GDB, and `make qemu`/`make qemu-gdb` refuse a disk or stub in use;
  - a breakpoint on the getpid system call (lightsys=off), hit by a user
    program, shows the whole trap path in the backtrace;
  - with gdb_wait the harts stay stopped until GDB continues them, and the
    project's GDB extensions (fl-harts) work on a live target.

Batch-mode GDBs run in their own process group, and the test talks to the
guest console while GDB waits in `continue`.
"""

import ast
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from faultline import GDB, Machine, gdb_command
from qemu_helpers import timeout_scale
from make_runner import make_runner_argv
from terminal import Terminal

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GDB_PROMPT = r"\(gdb\) $"
SHELL_PROMPT = r"(^|\n)\$ $"

BOOT_TIMEOUT = 120.0
GDB_TIMEOUT = 90.0

pytestmark = pytest.mark.skipif(shutil.which(GDB) is None, reason=f"{GDB} is not installed")


class GdbBatch:
    """gdb-multiarch -batch running `commands` against a QEMU stub, its
    output collected by a thread so the test can wait for a line while GDB
    is still running."""

    def __init__(self, kernel, socket, commands, script=None, cwd=None):
        self.command = gdb_command(kernel, str(socket), script, commands)
        self.proc = subprocess.Popen(
            self.command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, cwd=cwd,
            start_new_session=True)        # its own group: we stop only what we started
        self._text = ""
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for chunk in iter(lambda: self.proc.stdout.readline(), ""):
            with self._cond:
                self._text += chunk
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    @property
    def output(self):
        with self._cond:
            return self._text

    def wait_for(self, pattern, timeout=GDB_TIMEOUT):
        regex = re.compile(pattern, re.MULTILINE)
        deadline = time.monotonic() + timeout * timeout_scale()
        with self._cond:
            while True:
                found = regex.search(self._text)
                if found:
                    return found
                if self.proc.poll() is not None and not self._reader.is_alive():
                    pytest.fail(f"GDB exited before {pattern!r}:\n{self._text}")
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(f"GDB printed no {pattern!r} in {timeout}s:\n{self._text}")
                self._cond.wait(min(left, 0.5))

    def finish(self, timeout=GDB_TIMEOUT):
        """Waits for GDB to run its last command and exit; returns its output."""
        try:
            self.proc.wait(timeout=timeout * timeout_scale())
        except subprocess.TimeoutExpired:
            self.close()
            pytest.fail(f"GDB did not finish in {timeout}s:\n{self.output}")
        self._reader.join(timeout=5)
        return self.output

    def close(self):
        if self.proc.poll() is None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(timeout=5)
                    break
                except subprocess.TimeoutExpired:
                    continue
        self._reader.join(timeout=5)


@pytest.fixture
def gdb_batch(tmp_path):
    """Factory of GdbBatch runs; any still running are stopped at teardown."""
    runs = []

    def start(kernel, socket, commands, script=None):
        run = GdbBatch(kernel, socket, commands, script=script, cwd=tmp_path)
        runs.append(run)
        return run

    yield start
    for run in runs:
        run.close()


def backtrace_functions(text):
    """Function names of the first `bt` in GDB output, innermost first."""
    names = []
    for line in text.splitlines():
        found = re.match(r"#(\d+)\s+(?:0x[0-9a-f]+ in )?([A-Za-z_][\w.]*) \(", line)
        if found:
            if int(found.group(1)) == 0 and names:
                break               # the start of a second backtrace
            names.append(found.group(2))
    return names


def test_breakpoint_on_getpid_shows_trap_path(machine, gdb_batch, kernel_elf):
    # getpid is normally answered in the trap vector itself (a light system
    # call); lightsys=off sends it through dispatch to sys_getpid.
    m = machine(cpus=1, gdb=True, append="lightsys=off")
    m.expect_prompt(timeout=BOOT_TIMEOUT)

    gdb = gdb_batch(kernel_elf, m.gdb_socket, [
        "set pagination off",
        "set confirm off",
        "break sys_getpid",
        "continue",
        "bt",
        # tp holds the hart's struct cpu * in the kernel: who made the call?
        "print ((struct cpu *)$tp)->current->name",
        "delete",
        "detach",
    ])
    # Attaching stops the guest; the breakpoint is set before `continue`
    # resumes it, so a command typed from now on cannot slip past it (the
    # console input waits in the pipe while the guest is stopped).
    gdb.wait_for(r"^Breakpoint 1 at 0x[0-9a-f]+")
    m.send("getpidbench")
    out = gdb.finish()

    assert re.search(r"^(Thread \d+ hit )?Breakpoint 1, (0x[0-9a-f]+ in )?sys_getpid \(", out, re.MULTILINE), out
    frames = backtrace_functions(out)
    assert frames and frames[0] == "sys_getpid", f"backtrace:\n{out}"
    # The trap path: vector -> user_trap -> syscall_dispatch -> (do_sys_getpid,
    # which -O2 may inline or turn into a tail call) -> sys_getpid.
    for caller in ("syscall_dispatch", "user_trap"):
        assert caller in frames, f"{caller} missing from the backtrace {frames}:\n{out}"
    assert frames.index("syscall_dispatch") < frames.index("user_trap"), frames
    assert frames[-1] == "trap_vector", f"the outermost frame is not the trap vector: {frames}"
    assert re.search(r'^\$1 = "getpidbench', out, re.MULTILINE), \
        f"the breakpoint was not hit by getpidbench:\n{out}"
    assert "[Inferior 1 (process 1) detached]" in out

    # Detached, the guest runs on: the benchmark finishes and the shell works.
    result = m.expect_json(timeout=60)
    assert result["bench"] == "getpid"
    m.expect_prompt(timeout=60)
    assert m.run_shell("echo after gdb") == "after gdb\n"


def test_gdb_wait_holds_harts_until_continue(machine, gdb_batch, kernel_elf, gdb_script):
    m = machine(cpus=2, gdb_wait=True)
    # -S: nothing runs, not even the firmware, until GDB says so.
    time.sleep(0.5)
    assert m.running
    assert m.log == "", f"the guest ran before GDB continued it:\n{m.log}"

    gdb = gdb_batch(kernel_elf, m.gdb_socket, [
        "set pagination off",
        "set confirm off",
        "break kmain",
        "continue",
        "bt",
        "fl-harts",
        "delete",
        "detach",
    ], script=gdb_script)
    out = gdb.finish()

    assert re.search(r"^(Thread \d+ hit )?Breakpoint 1, (0x[0-9a-f]+ in )?kmain \(", out, re.MULTILINE), out
    assert backtrace_functions(out)[:1] == ["kmain"], out
    harts = re.findall(r"^[ *] (\d+)\s+(running|halted)\s+(\S+)\s+0x[0-9a-f]+", out, re.MULTILINE)
    assert sorted(int(h[0]) for h in harts) == [0, 1], f"fl-harts output:\n{out}"
    current = [line for line in out.splitlines() if line.startswith("* ")]
    assert len(current) == 1 and current[0].split()[3] == "S" and "kmain" in current[0], \
        f"the hart at the breakpoint should be in S-mode in kmain:\n{out}"

    m.expect_prompt(timeout=BOOT_TIMEOUT)
    assert re.search(r"^faultline: harts: 2 ", m.log, re.MULTILINE)
    # The secondary hart may report in after the prompt; let it, so that its
    # line does not land in the middle of the next command.
    deadline = time.monotonic() + 60 * timeout_scale()
    while not re.search(r"faultline: hart \d+ online", m.log):
        assert time.monotonic() < deadline, f"the second hart never came online:\n{m.tail()}"
        time.sleep(0.05)
    assert m.run_shell("echo booted") == "booted\n"


# ----- the README's walkthrough, as a person types it ---------------------------

def readme_gdb_section():
    text = README.read_text()
    assert "## Debugging with GDB" in text, "README.md lost its GDB section"
    return text.split("## Debugging with GDB", 1)[1].split("\n## ", 1)[0]


def readme_pattern(line):
    """A README answer line as a regex: literal text, `…` matches anything."""
    return re.compile(".*?".join(re.escape(part) for part in line.split("…")))


def readme_walkthrough():
    """(make commands, steps) from README.md: the make commands of the sh
    blocks, and for each `(gdb) ` line of the transcript block: the command,
    what its comment says to type at the shell, and the answer lines below
    it as regexes."""
    blocks = re.findall(r"```(\w*)\n(.*?)```", readme_gdb_section(), re.DOTALL)
    make_lines = [line.split("#")[0].split() for kind, body in blocks if kind == "sh"
                  for line in body.splitlines() if line.strip()]
    transcripts = [body for kind, body in blocks if "(gdb) " in body]
    assert len(transcripts) == 1, "README's GDB section should have one (gdb) transcript"
    steps = []
    for line in transcripts[0].splitlines():
        if line.startswith("(gdb) "):
            command, _, comment = line[len("(gdb) "):].partition("#")
            steps.append({"command": command.strip(),
                          "type": re.findall(r"`([^`]+)`", comment) if "type" in comment else [],
                          "expect": []})
        elif line.strip():
            assert steps, f"README transcript starts with an answer: {line!r}"
            steps[-1]["expect"].append(line)
    return make_lines, steps


def match_answer(expected, output, command):
    """Each expected line, in order, matches a line of output."""
    lines = output.splitlines()
    pos = 0
    for want in expected:
        regex = readme_pattern(want)
        while pos < len(lines) and not regex.search(lines[pos]):
            pos += 1
        assert pos < len(lines), (f"README says `{command}` answers a line like {want!r}; "
                                  f"GDB answered:\n{output}")
        pos += 1


@pytest.fixture
def terminals():
    """Factory of Terminals, all closed (their own pids only) at teardown."""
    made = []

    def spawn(argv, name):
        t = Terminal(argv, cwd=ROOT, name=name)
        made.append(t)
        return t

    yield spawn
    for t in reversed(made):
        t.close()


def start_qemu_gdb(terminals, build_dir, tmp_path, **knobs):
    qemu = terminals(make_runner_argv("qemu-gdb", build_dir, tmp_path, **knobs), "make qemu-gdb")
    qemu.wait_for(r"GDB stub on ", timeout=60)
    return qemu


def start_gdb(terminals, build_dir, tmp_path, name="make gdb"):
    gdb = terminals(make_runner_argv("gdb", build_dir, tmp_path), name)
    gdb.wait_for(GDB_PROMPT, timeout=GDB_TIMEOUT)
    return gdb


def gdb_do(gdb, command, timeout=GDB_TIMEOUT):
    """Types one command and returns its answer (up to the next prompt)."""
    gdb.send(command + "\r")
    return gdb.wait_for(GDB_PROMPT, timeout=timeout)


@pytest.mark.timeout(600)
def test_readme_gdb_walkthrough(build_dir, kernel_elf, initrd_cpio, terminals, tmp_path):
    make_lines, steps = readme_walkthrough()
    assert ["make", "qemu-gdb"] in make_lines and ["make", "gdb"] in make_lines, make_lines
    assert len(steps) >= 5, steps

    qemu = start_qemu_gdb(terminals, build_dir, tmp_path)
    time.sleep(0.5)
    assert "booting on hart" not in qemu.unread, "the guest ran before GDB continued it"
    gdb = start_gdb(terminals, build_dir, tmp_path)

    for step in steps:
        command = step["command"]
        gdb.send(command + "\r")
        if step["type"]:
            # The guest runs: type at the shell, each line at a fresh prompt.
            for line in step["type"]:
                qemu.wait_for(SHELL_PROMPT, timeout=BOOT_TIMEOUT)
                qemu.send(line + "\r")
        timeout = BOOT_TIMEOUT if command == "continue" else GDB_TIMEOUT
        answer = gdb.wait_for(GDB_PROMPT, timeout=timeout)
        match_answer(step["expect"], answer, command)

    # Detached, the guest runs on: the echo finishes and the shell is back.
    assert steps[-1]["command"] == "detach"
    typed = [line for step in steps for line in step["type"]]
    echo = next(line for line in typed if line.startswith("echo "))
    qemu.wait_for(r"^" + re.escape(echo.split(" ", 1)[1]) + r"\n", timeout=60)
    qemu.wait_for(SHELL_PROMPT, timeout=60)
    qemu.send("halt\r")
    assert qemu.wait_exit(timeout=60) == 0


def user_main(user_dir, program):
    out = subprocess.run(["riscv64-unknown-elf-nm", str(user_dir / program)],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    found = re.search(r"^([0-9a-f]+) T main$", out, re.MULTILINE)
    assert found, f"no main in {program}"
    return int(found.group(1), 16)


def test_fl_break_user_stops_only_in_its_program(machine, gdb_batch, kernel_elf, user_dir,
                                                 gdb_script):
    # A program other than echo whose main is at echo's address: a plain
    # breakpoint there would stop in it first. The test means something only
    # with one, so insist on it (several share it in every build so far).
    target = user_main(user_dir, "echo")
    decoys = [p for p in ("ls", "uptime", "init", "cat", "ps", "vmstat")
              if user_main(user_dir, p) == target]
    assert decoys, "no program shares echo's main address; pick another decoy"
    decoy = decoys[0]

    m = machine(cpus=2, gdb=True)
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    gdb = gdb_batch(kernel_elf, m.gdb_socket, [
        "fl-break-user echo main",
        "continue",
        "fl-current",
        "bt 1",
        "python print('passed:', sorted(gdb.breakpoints()[0].passed.items()))",
        "delete",
        "detach",
    ], script=gdb_script)
    gdb.wait_for(r"^Breakpoint 1 stops only in processes named echo$")
    # The decoy runs first, and its main is at the breakpoint's address.
    m.send(decoy)
    m.expect_prompt(timeout=60)
    m.send("echo through the decoy")
    out = gdb.finish()

    assert re.search(r"hit Breakpoint 1, main \(argc=4, ", out), out
    current = re.search(r"^hart \d+: pid (\d+) (\S+) \(thread \S+\), (\S)-mode$", out,
                        re.MULTILINE)
    assert current and current.group(2) == "echo" and current.group(3) == "U", out
    # The decoy passed over once, echo never. (Other programs may pass too:
    # in the -Og build the shell's own code sits at echo's main address.)
    passed = re.search(r"^passed: (\[.*\])$", out, re.MULTILINE)
    assert passed, out
    passed = dict(ast.literal_eval(passed.group(1)))
    assert passed.get(decoy) == 1 and "echo" not in passed, \
        f"the breakpoint should have passed over {decoy} once, echo never:\n{out}"
    m.expect_line(r"^through the decoy$", timeout=60)
    m.expect_prompt(timeout=60)


# ----- stepping in a DEBUG=1 kernel -------------------------------------------

@pytest.mark.timeout(600)
@pytest.mark.parametrize("flavour", ["debug", pytest.param("default", marks=pytest.mark.release_kernel)])
def test_next_from_idle_loop_stays_in_kernel(flavour, request, build_dir, gdb_script, terminals,
                                             tmp_path):
    # Without scheduler-locking, every try with the DEBUG=1 kernel ended in
    # a stray SIGTRAP from the other hart, and about one in three with the
    # -O2 kernel in the trap vector or in OpenSBI.
    built = request.getfixturevalue("debug_build" if flavour == "debug" else "release_build")
    m = Machine(built / "kernel.elf", built / "initrd.cpio", workdir=tmp_path, name="idle")
    try:
        m.start(cpus=2, gdb=True)
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        assert ("faultline: debug build (FL_DEBUG)" in m.log) == (flavour == "debug"), m.tail()
        gdb = terminals(gdb_command(built / "kernel.elf", str(m.gdb_socket),
                                    script=gdb_script), "gdb")
        gdb.wait_for(GDB_PROMPT, timeout=GDB_TIMEOUT)
        assert 'is "step"' in gdb_do(gdb, "show scheduler-locking")
        # Both harts idle at the prompt: run, then interrupt, as a person would.
        gdb.send("continue\r")
        gdb.wait_for(r"Continuing\.", timeout=GDB_TIMEOUT)
        time.sleep(1.0)
        gdb.send("\x03")
        stop = gdb.wait_for(GDB_PROMPT, timeout=GDB_TIMEOUT)
        assert "SIGINT" in stop, stop
        answers = []
        for _ in range(40):
            answer = gdb_do(gdb, "next")
            answers.append(answer)
            # Every `next` ends on a source line of the kernel, on this hart:
            # no stray signal from another hart, no firmware without symbols.
            for bad in ("received signal", "?? ()", "Cannot find bounds", "[Switching to"):
                assert bad not in answer, \
                    f"`next` #{len(answers)} went astray ({bad!r}):\n" + "".join(answers)
        priv = gdb_do(gdb, "info registers priv")
        assert "Supervisor" in priv, priv
        where = gdb_do(gdb, "bt 1")
        assert re.search(r"#0 .* at kernel/proc/sched\.c:\d+", where), where
        lines = re.findall(r"^(\d+)\t", "".join(answers), re.MULTILINE)
        assert len(set(lines)) >= 3, f"`next` did not walk through the loop:\n{''.join(answers)}"
        gdb_do(gdb, "detach")
        assert m.run_shell("echo after stepping") == "after stepping\n"
    finally:
        m.close()


# ----- what make gdb / make qemu refuse ------------------------------------------

def run_refused(argv, timeout=60):
    """Runs a make command (its run.py line) that should stop by itself."""
    res = subprocess.run(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=timeout * timeout_scale())
    return res.returncode, res.stdout


def test_make_gdb_refuses_a_kernel_rebuilt_under_qemu(kernel_elf, initrd_cpio, terminals,
                                                      tmp_path):
    # QEMU boots a kernel in its own build directory, which is then rebuilt
    # (here: changed) while QEMU runs.
    own = tmp_path / "build"
    own.mkdir()
    shutil.copy(kernel_elf, own / "kernel.elf")
    shutil.copy(initrd_cpio, own / "initrd.cpio")
    start_qemu_gdb(terminals, own, tmp_path)
    with open(own / "kernel.elf", "ab") as f:
        f.write(b"rebuilt")
    code, out = run_refused(make_runner_argv("gdb", own, tmp_path))
    assert code == 1, out
    assert "changed after this QEMU" in out and "make qemu-gdb" in out, out


def test_second_gdb_and_second_qemu_are_refused(build_dir, kernel_elf, initrd_cpio,
                                                terminals, tmp_path):
    qemu = start_qemu_gdb(terminals, build_dir, tmp_path)
    gdb = start_gdb(terminals, build_dir, tmp_path)

    # A second `make gdb` would wait forever for the stub, which serves one.
    code, out = run_refused(make_runner_argv("gdb", build_dir, tmp_path))
    assert code == 1 and "already attached" in out, out

    # A second `make qemu-gdb`: the stub is taken.
    code, out = run_refused(make_runner_argv("qemu-gdb", build_dir, tmp_path))
    assert code == 1 and "already runs" in out and "make gdb" in out, out

    # `make qemu` on the same build: the disk image is QEMU's, locked.
    code, out = run_refused(make_runner_argv("qemu", build_dir, tmp_path))
    assert code == 1, out
    assert "disk.img is in use by another QEMU" in out and "a `make qemu-gdb`" in out, out
    assert "DISK_SIZE=" in out, out
    assert "Failed to get" not in out, out          # not QEMU's own lock error

    # The first pair still works.
    assert re.search(r"^\*? +2 +Thread 1\.2", gdb_do(gdb, "info threads"), re.MULTILINE)
    gdb.send("detach\r")
    gdb.wait_for(r"detached", timeout=GDB_TIMEOUT)
    qemu.wait_for(SHELL_PROMPT, timeout=BOOT_TIMEOUT)


def test_make_gdb_points_at_the_build_whose_qemu_runs(kernel_elf, initrd_cpio, terminals,
                                                      tmp_path):
    # `make qemu-gdb DEBUG=1` then a plain `make gdb`: the stub is in the
    # other build directory, and make gdb says which command reaches it.
    debug = tmp_path / "build-debug"
    plain = tmp_path / "build"
    for d in (debug, plain):
        d.mkdir()
        shutil.copy(kernel_elf, d / "kernel.elf")
        shutil.copy(initrd_cpio, d / "initrd.cpio")
    start_qemu_gdb(terminals, debug, debug)
    code, out = run_refused(make_runner_argv("gdb", plain, plain))
    assert code == 1, out
    assert f"no QEMU with a GDB stub runs for {plain}" in out, out
    assert f"(one runs for {debug}: attach with `make gdb DEBUG=1`)" in out, out


def test_getpid_does_not_reach_c_by_default(machine, kernel_elf, gdb_script, terminals):
    # What README says of `break sys_getpid`: with lightsys on (the default)
    # getpid is answered in the trap vector, and the breakpoint never fires
    # (test_breakpoint_on_getpid_shows_trap_path has it fire with lightsys=off).
    m = machine(cpus=1, gdb=True)
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    gdb = terminals(gdb_command(kernel_elf, str(m.gdb_socket), script=gdb_script), "gdb")
    gdb.wait_for(GDB_PROMPT, timeout=GDB_TIMEOUT)
    assert "Breakpoint 1 at" in gdb_do(gdb, "break sys_getpid")
    gdb.send("continue\r")
    gdb.wait_for(r"Continuing\.", timeout=GDB_TIMEOUT)
    m.send("getpidbench")
    assert m.expect_json(timeout=120)["bench"] == "getpid"
    m.expect_prompt(timeout=60)
    gdb.send("\x03")
    stop = gdb.wait_for(GDB_PROMPT, timeout=GDB_TIMEOUT)
    assert "SIGINT" in stop and "hit Breakpoint" not in stop, stop
    info = gdb_do(gdb, "info breakpoints")
    assert "sys_getpid" in info and "already hit" not in info, info
    gdb_do(gdb, "detach")
