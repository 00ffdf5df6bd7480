"""QEMU integration tests of the shell and the small programs it runs:
echo, ls, cat, redirections, ';', background jobs, ps, kill, time,
threads, and what happens with commands that cannot run."""

import re
import time

import pytest

import mkinitrd
from qemu_helpers import boot_to_shell, timeout_scale

# The programs every initrd has (user/*.c); ls must show each with its size.
PROGRAMS = ("sh", "init", "ls", "ps", "cat", "echo", "kill", "time", "halt", "spin",
            "threads", "faultnull", "illegal", "getpidbench", "sleep", "uptime", "hog", "vmstat")
README = mkinitrd.README_TEXT.decode()


# ----- helpers ---------------------------------------------------------------





def lines(output):
    return [line for line in output.splitlines() if line.strip()]


def ls_entries(output):
    """{name: (type, size, readonly)} from ls output."""
    entries = {}
    for line in lines(output):
        found = re.fullmatch(r"(\S+)\s+(file|dev|dir|\?)\s+(\d+)( ro)?\s*", line)
        assert found, f"unexpected ls line: {line!r}"
        entries[found.group(1)] = (found.group(2), int(found.group(3)), bool(found.group(4)))
    return entries


def ps_rows(output):
    """(header, [{"pid":.., "ppid":.., "state":.., "name":..}, ...]) from ps."""
    out = lines(output)
    assert out, "ps printed nothing"
    header = out[0].split()
    rows = []
    for line in out[1:]:
        if re.fullmatch(r"\[\d+\] done .*", line):
            continue        # a background job's end, reported by the shell
        f = line.split()
        assert len(f) == len(header), f"ps row does not fit the header {header}: {line!r}"
        rows.append(dict(zip((h.lower() for h in header), f)))
    for r in rows:
        r["pid"], r["ppid"] = int(r["pid"]), int(r["ppid"])
    return header, rows


def background(m, cmd):
    """Runs `cmd &` and returns the pid the shell announces."""
    out = m.run_shell(f"{cmd} &")
    found = re.search(r"^\[(\d+)\]$", out, re.MULTILINE)
    assert found, f"`{cmd} &` printed no [pid] line: {out!r}"
    return int(found.group(1))


def ps_job(m, pid, name, timeout=10.0):
    """The ps row of job `pid` once it runs `name`. Right after `cmd &` the
    child may not have reached exec yet (on another hart, or not scheduled
    yet) and is still listed as a copy of sh, so look again until it is."""
    deadline = time.monotonic() + timeout * timeout_scale()
    while True:
        _, rows = ps_rows(m.run_shell("ps"))
        mine = [r for r in rows if r["pid"] == pid]
        assert mine, f"job {pid} is not in ps: {rows}"
        if mine[0]["name"] == name:
            return mine[0]
        assert mine[0]["name"] == "sh" and time.monotonic() < deadline, \
            f"job {pid} never showed up as {name}: {rows}"
        time.sleep(0.05)


def wait_job_done(m, pid, timeout=30.0):
    """Runs empty commands until the shell reports job `pid` done; returns
    the rest of that line ("status 0", "signal 15")."""
    regex = re.compile(rf"^\[{pid}\] done (.*)$", re.MULTILINE)
    deadline = time.monotonic() + timeout * timeout_scale()
    while True:
        found = regex.search(m.log)
        if found:
            return found.group(1)
        assert time.monotonic() < deadline, f"job [{pid}] never reported done:\n{m.tail()}"
        m.run_shell("echo")
        time.sleep(0.1)


def parse_time(output):
    found = re.search(r"^real (\d+\.\d{3})s user (\d+\.\d{3})s sys (\d+\.\d{3})s$",
                      output, re.MULTILINE)
    assert found, f"no `time` report in {output!r}"
    return tuple(float(x) for x in found.groups())


# ----- echo, ls, cat, files ---------------------------------------------------------

def test_echo_words_and_quotes(shell):
    assert shell.run_shell("echo hello world") == "hello world\n"
    assert shell.run_shell("echo   spaced    out  ") == "spaced out\n"
    assert shell.run_shell('echo "a  b" c') == "a  b c\n"
    # Quotes protect operators and the comment character.
    assert shell.run_shell('echo "x;y" "<in>" "a&b" "#no"') == "x;y <in> a&b #no\n"
    assert shell.run_shell('echo ab"cd ef"gh') == "abcd efgh\n"
    assert shell.run_shell("echo") == "\n"
    assert shell.run_shell("echo visible # hidden") == "visible\n"


def test_ls_lists_programs_files_and_devices(shell, user_dir):
    entries = ls_entries(shell.run_shell("ls"))
    for name in PROGRAMS:
        assert name in entries, f"{name} missing from ls: {sorted(entries)}"
        kind, size, ro = entries[name]
        assert kind == "file" and ro, (name, entries[name])
        built = user_dir / name
        if built.exists():
            assert size == built.stat().st_size, f"ls size of {name} is {size}, " \
                f"the built file has {built.stat().st_size} bytes"
    assert entries["README"] == ("file", len(mkinitrd.README_TEXT), True)
    assert entries["notelf"][1] == len(mkinitrd.NOTELF_TEXT)
    assert entries["badelf"][1] == mkinitrd.BADELF_SIZE
    assert entries["dev/null"][0] == "dev"
    assert entries["dev/console"][0] == "dev"

    # Named files only; a missing name is an error on stderr.
    out = shell.run_shell("ls sh /README nosuchfile")
    named = [line.split()[0] for line in lines(out) if not line.startswith("ls:")]
    assert sorted(named) == ["README", "sh"], out
    assert re.search(r"^ls: nosuchfile: ", out, re.MULTILINE), out


def test_cat_readme(shell):
    assert shell.run_shell("cat README") == README
    assert shell.run_shell("cat /README") == README
    out = shell.run_shell("cat nosuchfile")
    assert re.fullmatch(r"cat: nosuchfile: .*\n", out), out


def test_ram_file_write_read_truncate(shell):
    assert shell.run_shell("echo hi > f; cat f") == "hi\n"
    assert ls_entries(shell.run_shell("ls f")) == {"f": ("file", 3, False)}
    # > truncates: the shorter text leaves nothing of the longer one behind.
    shell.run_shell("echo hello ram file > f")
    assert shell.run_shell("cat f") == "hello ram file\n"
    shell.run_shell("echo x > f")
    assert shell.run_shell("cat f") == "x\n"
    assert ls_entries(shell.run_shell("ls f"))["f"][1] == 2
    # A second ram file is independent, and cat copies a ram file to another.
    shell.run_shell("echo other > g; cat f > h")
    assert shell.run_shell("cat g h f") == "other\nx\nx\n"


def test_input_redirection(shell):
    assert shell.run_shell("cat < README") == README
    shell.run_shell("echo from a ram file > r")
    assert shell.run_shell("cat < r") == "from a ram file\n"
    out = shell.run_shell("cat < nosuchfile")
    assert re.fullmatch(r"sh: nosuchfile: .*\n", out), out


def test_dev_null(shell):
    assert shell.run_shell("echo x > /dev/null") == ""
    assert shell.run_shell("cat README > /dev/null") == ""
    assert shell.run_shell("cat /dev/null") == ""
    assert shell.run_shell("cat < /dev/null") == ""


def test_initrd_files_are_read_only(shell):
    out = shell.run_shell("echo overwrite > README")
    assert re.fullmatch(r"sh: README: .*\n", out), out
    assert shell.run_shell("cat README") == README


def test_semicolon_sequencing(shell):
    assert shell.run_shell("echo a; echo b ;echo c") == "a\nb\nc\n"
    assert shell.run_shell("echo one > s; cat s; echo two > s; cat s") == "one\ntwo\n"


def test_syntax_errors_are_reported(shell):
    assert shell.run_shell("echo > ").startswith("sh: ")
    assert shell.run_shell('echo "unterminated').startswith("sh: unterminated quote")
    assert shell.run_shell("echo still fine") == "still fine\n"


# ----- processes: background jobs, ps, kill, time -----------------------------------

def test_ps_columns_and_states(shell):
    # The shell sleeps in wait while ps runs, unless a tick preempted it
    # between fork and wait (host time, so more likely on a loaded host):
    # then it is still runnable. A few tries find the usual snapshot.
    for _ in range(5):
        header, rows = ps_rows(shell.run_shell("ps"))
        by_name = {r["name"]: r for r in rows}
        if by_name.get("sh", {}).get("state") == "sleeping":
            break
    assert header[:3] == ["PID", "PPID", "STATE"] and header[-1] == "NAME", header
    assert by_name["init"]["pid"] == 1
    assert by_name["init"]["state"] == "sleeping"
    assert by_name["sh"]["state"] == "sleeping"
    assert by_name["sh"]["ppid"] == 1
    assert by_name["ps"]["state"] == "running", "ps must see itself running"
    assert by_name["ps"]["ppid"] == by_name["sh"]["pid"]


def test_background_job_reports_pid_and_done(shell):
    # Long enough that ps finds it alive on a loaded host and in the
    # slower debug build (300 ms was not, once).
    pid = background(shell, "spin 2000")
    spin = ps_job(shell, pid, "spin")
    assert spin["state"] in ("running", "runnable")
    # The prompt comes back at once: the shell did not wait for the job.
    assert shell.run_shell("echo not blocked") == "not blocked\n"
    assert wait_job_done(shell, pid) == "status 0"
    _, rows = ps_rows(shell.run_shell("ps"))
    assert pid not in [r["pid"] for r in rows], "a reaped job is still listed"


def test_background_then_foreground_on_one_line(shell):
    out = shell.run_shell("spin 200 & echo foreground")
    found = re.search(r"^\[(\d+)\]$", out, re.MULTILINE)
    assert found and "foreground\n" in out, out
    assert wait_job_done(shell, int(found.group(1))) == "status 0"


@pytest.mark.parametrize("cpus", [1, 2])
def test_kill_background_job(machine, cpus):
    # On two harts the job runs on the other hart while kill runs: the
    # kernel has to interrupt it there.
    shell = boot_to_shell(machine, cpus=cpus)
    pid = background(shell, "spin 5000")
    ps_job(shell, pid, "spin")
    start = time.monotonic()
    shell.run_shell(f"kill {pid}")
    assert wait_job_done(shell, pid, timeout=10) == "signal 15"   # SIGTERM
    assert time.monotonic() - start < 4.5 * timeout_scale(), "kill did not cut spin 5000 short"
    _, rows = ps_rows(shell.run_shell("ps"))
    assert pid not in [r["pid"] for r in rows]

    pid = background(shell, "spin")
    shell.run_shell(f"kill -KILL {pid}")
    assert wait_job_done(shell, pid, timeout=10) == "signal 9"

    out = shell.run_shell(f"kill {pid}")
    assert re.fullmatch(rf"kill: {pid}: .*\n", out), f"kill of a gone pid: {out!r}"
    out = shell.run_shell("kill 1")
    assert re.fullmatch(r"kill: 1: .*\n", out), f"init must not be killable: {out!r}"


def test_time_accounts_user_cpu(shell):
    # spin burns CPU in user mode until 300 ms of wall time have passed, on
    # an otherwise idle one-hart machine: nearly all of it is user time.
    real, user, sys_ = parse_time(shell.run_shell("time spin 300"))
    assert real >= 0.300, f"spin 300 finished after {real}s"
    assert 0.2 <= user <= 0.6, f"user time {user}s for spin 300 (real {real}s, sys {sys_}s)"
    assert sys_ < 0.1, f"sys time {sys_}s for a user-mode loop"
    assert user + sys_ <= real + 0.01, (real, user, sys_)


@pytest.mark.machine(icount=True)
def test_time_accounts_user_cpu_under_icount(shell):
    # Under -icount time is virtual and deterministic: the bounds can be tight.
    real, user, sys_ = parse_time(shell.run_shell("time spin 100", timeout=120))
    assert 0.100 <= real <= 0.105, real
    assert 0.095 <= user <= 0.101, f"user {user}s for spin 100 under icount"
    assert sys_ <= 0.005, sys_


def test_sleep_takes_no_cpu_time(shell):
    # A sleeping process waits without running: real time passes, CPU time
    # does not.
    real, user, sys_ = parse_time(shell.run_shell("time sleep 300"))
    assert real >= 0.300, f"sleep 300 returned after {real}s"
    assert real < 3.0, f"sleep 300 took {real}s"
    assert user + sys_ < 0.05, f"sleep 300 used {user}s user and {sys_}s sys"


def test_uptime_reports_system_state(machine):
    shell = boot_to_shell(machine, cpus=2)
    up = re.compile(r"^up (\d+\.\d{3})s, (\d+) processes, (\d+) of (\d+) frames free, (\d+) harts$")
    first = up.fullmatch(shell.run_shell("uptime").strip())
    assert first, "unexpected uptime output"
    t1, nprocs, free, total, harts = float(first[1]), int(first[2]), int(first[3]), \
        int(first[4]), int(first[5])
    assert nprocs == 3, "init, sh and uptime itself"
    assert harts == 2
    assert 0 < free < total <= 128 * 1024 * 1024 // 4096
    shell.run_shell("sleep 200")
    second = up.fullmatch(shell.run_shell("uptime").strip())
    assert second and float(second[1]) >= t1 + 0.2, (t1, second and second[1])


def test_time_of_failing_command(shell):
    out = shell.run_shell("time nosuch")
    assert "time: nosuch: not found" in out, out
    parse_time(out)


@pytest.mark.parametrize("cpus", [2, 4])
def test_threads_run_on_pinned_harts(machine, cpus):
    m = boot_to_shell(machine, cpus=cpus)
    out = m.run_shell("threads")
    seen = {}
    for found in re.finditer(r"^thread (\d+) \(tid \d+\): pinned to hart (\d+), ran on hart (\d+)$",
                             out, re.MULTILINE):
        index, pinned, ran = map(int, found.groups())
        assert pinned == index % cpus
        assert ran == pinned, f"thread {index} pinned to hart {pinned} ran on hart {ran}"
        seen[index] = ran
    assert sorted(seen) == list(range(cpus)), out
    assert f"threads: {cpus} threads on {cpus} harts: each ran on its hart" in out

    # More threads than harts: two per hart.
    out = m.run_shell(f"threads {2 * cpus}")
    assert f"threads: {2 * cpus} threads on {cpus} harts: each ran on its hart" in out, out


# ----- commands that cannot run -------------------------------------------------

def test_unknown_command(shell):
    assert shell.run_shell("nosuch") == "sh: nosuch: not found\n"
    assert shell.run_shell("nosuch arg; echo next") == "sh: nosuch: not found\nnext\n"


@pytest.mark.parametrize("program", ["notelf", "badelf"])
def test_exec_rejects_non_executable(shell, program):
    out = shell.run_shell(program)
    assert out == f"sh: {program}: not an executable\n", out
    out = shell.run_shell(f"time {program}")
    assert f"time: {program}: not an executable" in out, out
    assert shell.run_shell("echo survived") == "survived\n"
    _, rows = ps_rows(shell.run_shell("ps"))
    assert [r["name"] for r in rows if r["state"] != "running"] == ["init", "sh"], rows


def test_exit_restarts_shell(shell):
    _, rows = ps_rows(shell.run_shell("ps"))
    old_sh = [r["pid"] for r in rows if r["name"] == "sh"]
    out = shell.run_shell("exit")
    assert "init: starting sh" in out
    _, rows = ps_rows(shell.run_shell("ps"))
    new_sh = [r["pid"] for r in rows if r["name"] == "sh"]
    assert len(new_sh) == 1 and new_sh != old_sh, (old_sh, new_sh)


# ----- many processes on several harts -------------------------------------------

@pytest.mark.parametrize("cpus", [1, 2])
def test_many_short_commands(machine, cpus):
    # 200 fork/exec/exit/wait cycles. Every exit and reap on one hart can
    # race with a fork on another, so this runs on two harts as well.
    m = boot_to_shell(machine, cpus=cpus)
    line = ";".join(f"echo {i}" for i in range(10))
    expected = "".join(f"{i}\n" for i in range(10))
    for round_ in range(20):
        out = m.run_shell(line, timeout=30)
        assert out == expected, f"round {round_}: {out!r}"
    assert "FL-PANIC" not in m.log
