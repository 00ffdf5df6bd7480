"""QEMU integration tests of booting: the banner on 1, 2 and 4 harts, boot
under -icount, boot parameters (accepted, echoed, rejected as boot errors
with exit 2, never a panic: docs/protocol.md, "Boot errors"), `quiet`,
machines too small or too big for what QEMU loads, and halting.

The banner lines are the ones docs/protocol.md lists:
    faultline <version> (riscv64) booting on hart <id>
    faultline: harts: <n> (boot hart <id>)
    faultline: bootargs: "<append>"
    faultline: params: <key=value ...>
    faultline: memory: <M> MiB at 0x<base>, managing <N> MiB (<F> frames free)
    faultline: ipi: ACLINT SSWI | SBI
    faultline: hart <n> online            (one per secondary hart)
"""

import os
import re
import subprocess
import sys
import time

import pytest

from qemu_helpers import BOOT_TIMEOUT, boot_hart, boot_to_shell, wait_for_log, wait_harts_online, EXIT_BAD_PARAM, EXIT_CLEAN, EXIT_PANIC, halt, timeout_scale

PAGE_SIZE = 4096
MIB = 1024 * 1024


# ----- helpers ---------------------------------------------------------------









def banner_line(m, key):
    """The text after "faultline: <key>: " on its banner line."""
    return wait_for_log(m, rf"^faultline: {key}: (.*)$").group(1)


def memory_line(m):
    text = banner_line(m, "memory")
    found = re.fullmatch(r"(\d+) MiB at 0x([0-9a-f]+), managing (\d+) MiB \((\d+) frames free\)",
                         text)
    assert found, f"memory banner line has an unexpected shape: {text!r}"
    total, base, managed, free = found.groups()
    return int(total), int(base, 16), int(managed), int(free)


def params_of(m):
    """The params banner line as a dict (a bare word such as `quiet` maps to True)."""
    out = {}
    for word in banner_line(m, "params").split():
        key, sep, value = word.partition("=")
        out[key] = value if sep else True
    return out


def assert_shell_works(m):
    assert m.run_shell("echo boot-check ok").strip() == "boot-check ok"


# ----- booting on 1, 2 and 4 harts ---------------------------------------------

@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_boot_banner_on_smp(machine, cpus):
    append = "mm=paging pc=inline"
    m = boot_to_shell(machine, cpus=cpus, append=append)

    first = boot_hart(m)
    assert 0 <= first < cpus
    entries = re.findall(r"^faultline \S+ \(riscv64\) booting on hart (\d+)$", m.log, re.MULTILINE)
    assert entries == [str(first)], f"the kernel was entered {len(entries)} times: harts {entries}"
    harts = banner_line(m, "harts")
    assert re.fullmatch(rf"{cpus} \(boot hart {first}\)", harts), \
        f"wrong hart count for -smp {cpus}: {harts!r}"
    assert banner_line(m, "bootargs") == f'"{append}"'

    total, base, managed, free = memory_line(m)
    assert total == 128, f"QEMU gave 128 MiB, banner says {total} MiB"
    assert base == 0x80000000
    assert managed == 128
    # The kernel image, initrd and core map use some frames; most are free.
    assert 0.9 * 128 * MIB // PAGE_SIZE < free < 128 * MIB // PAGE_SIZE, free

    online = sorted(int(h) for h in re.findall(r"faultline: hart (\d+) online", m.log))
    assert online == [h for h in range(cpus) if h != first], \
        f"secondary harts reported online: {online}"
    assert "FL-PANIC" not in m.log
    assert_shell_works(m)


@pytest.mark.parametrize("cpus", [2, 4])
def test_repeated_smp_boots_enter_kernel_once(machine, cpus):
    # Only the boot hart may enter the kernel at _start; the others must come
    # in through the SBI HSM hart_start entry, once each. Races between the
    # kernel starting a hart and that hart still being in the firmware show
    # up only now and then, so boot many times (each boot is ~0.2 s).
    boots = 25
    for i in range(boots):
        m = machine(cpus=cpus, name=f"boot{i}")
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        wait_harts_online(m, cpus, timeout=30)
        entries = re.findall(r"^faultline \S+ \(riscv64\) booting on hart (\d+)$",
                             m.log, re.MULTILINE)
        assert len(entries) == 1, \
            f"boot {i + 1} of {boots}: the kernel was entered at _start by harts {entries}"
        assert "did not start" not in m.log, f"boot {i + 1} of {boots}:\n{m.tail(12)}"
        m.close()


# ----- -icount: harts round-robin on one virtual clock ---------------------------

def parse_time(output):
    found = re.search(r"real (\d+\.\d{3})s user (\d+\.\d{3})s sys (\d+\.\d{3})s", output)
    assert found, f"no `time` report in {output!r}"
    return tuple(float(x) for x in found.groups())


@pytest.mark.parametrize("cpus", [1, 2])
def test_icount_boot_runs_background_spinners(machine, cpus):
    # Under -icount the harts share one host thread and one virtual clock: a
    # kernel that spins waiting for another hart, or takes timer interrupts
    # faster than it can handle them, livelocks here. Two CPU-bound
    # background jobs plus a timed foreground one exercise the tick,
    # preemption and wakeups of idle harts.
    m = boot_to_shell(machine, cpus=cpus, icount=True)
    pids = []
    for _ in range(2):
        out = m.run_shell("spin 100 &", timeout=60)
        found = re.search(r"^\[(\d+)\]$", out, re.MULTILINE)
        assert found, f"no [pid] line for a background job: {out!r}"
        pids.append(int(found.group(1)))
    assert pids[0] != pids[1]

    ps = m.run_shell("ps", timeout=60)
    listed = {int(row.split()[0]) for row in ps.splitlines()
              if row.split() and row.split()[-1] == "spin"}
    # A spinner may already have ended (and been reaped) by now, but not both
    # before ps was even forked: they run for 100 ms of virtual time.
    assert listed & set(pids), f"no background spin in ps:\n{ps}"

    real, user, sys_ = parse_time(m.run_shell("time spin 50", timeout=120))
    assert real >= 0.050, f"spin 50 took only {real}s of virtual time"
    assert user + sys_ <= real + 0.005

    # Both background jobs are reaped and reported by the shell.
    deadline = time.monotonic() + 120 * timeout_scale()
    while not all(re.search(rf"^\[{pid}\] done status 0$", m.log, re.MULTILINE) for pid in pids):
        assert time.monotonic() < deadline, f"background jobs never reported done:\n{m.tail()}"
        m.run_shell("echo", timeout=60)
    assert "FL-PANIC" not in m.log
    assert_shell_works(m)


# ----- boot parameters ---------------------------------------------------------

@pytest.mark.parametrize("append, key, value", [
    ("mm=swap", "mm", "swap"),
    ("mm=paging", "mm", "paging"),
    ("pc=inline", "pc", "inline"),
    ("refbits=sw", "refbits", "sw"),
])
def test_boot_parameter_accepted_and_echoed(machine, append, key, value):
    m = boot_to_shell(machine, append=append)
    assert banner_line(m, "bootargs") == f'"{append}"'
    assert params_of(m).get(key) == value, banner_line(m, "params")
    assert_shell_works(m)


def test_default_parameters(machine):
    m = boot_to_shell(machine)
    params = params_of(m)
    assert params.get("mm") in ("swap", "paging"), params
    assert params.get("pc") == "inline", params
    assert "mem" not in params, "no mem= given, yet the kernel reports a cap"


def test_mem_cap_8M(machine):
    m = boot_to_shell(machine, append="mem=8M")
    assert params_of(m).get("mem") == "8M"
    total, _, managed, free = memory_line(m)
    assert total == 128, "mem= caps what is managed, not what the board has"
    assert managed == 8
    assert 0 < free < 8 * MIB // PAGE_SIZE, free
    # The machine still works within 8 MiB.
    out = m.run_shell("ls")
    assert re.search(r"^sh\s+file\s+\d+", out, re.MULTILINE), out
    assert_shell_works(m)


def stopped_boot(machine, append):
    m = machine(append=append)
    code = m.wait_exit(timeout=60)
    return code, m.log


@pytest.mark.parametrize("append", ["foo=1", "mm=swap foo=1"])
def test_unknown_key_stops_boot(machine, append):
    code, log = stopped_boot(machine, append)
    assert code == EXIT_BAD_PARAM, f"QEMU exit code {code}, expected {EXIT_BAD_PARAM}"
    found = re.search(r"^faultline: bad boot parameter: (.*)$", log, re.MULTILINE)
    assert found, f"no bad-parameter message:\n{log[-2000:]}"
    message = found.group(1)
    assert "foo" in message, message
    keys = re.search(r"valid keys: (.*)$", message)
    assert keys, f"the message does not list the valid keys: {message!r}"
    listed = {k.strip() for k in keys.group(1).split(",")}
    assert {"mm", "pc", "mem"} <= listed, listed
    assert "init: starting sh" not in log


@pytest.mark.parametrize("append, choices", [
    ("mm=bogus", "swap, paging"),
    ("pc=bogus", "inline, daemon"),
    ("refbits=bogus", "hw, sw"),
])
def test_bad_value_stops_boot(machine, append, choices):
    code, log = stopped_boot(machine, append)
    assert code == EXIT_BAD_PARAM, f"QEMU exit code {code}, expected {EXIT_BAD_PARAM}"
    found = re.search(r"^faultline: bad boot parameter: (.*)$", log, re.MULTILINE)
    assert found, f"no bad-parameter message:\n{log[-2000:]}"
    assert append.split("=")[1] in found.group(1)
    assert choices in found.group(1), f"valid choices not named: {found.group(1)!r}"
    assert "init: starting sh" not in log


# Values that only mm=paging gives a meaning are refused with mm=swap,
# in either order, naming why and what is valid instead.
@pytest.mark.parametrize("append", ["mm=swap refbits=sw", "refbits=sw mm=swap"])
def test_paging_only_values_refused_with_swap(machine, append):
    code, log = stopped_boot(machine, append)
    assert code == EXIT_BAD_PARAM, f"QEMU exit code {code}, expected {EXIT_BAD_PARAM}"
    found = re.search(r"^faultline: bad boot parameter: (.*)$", log, re.MULTILINE)
    assert found, f"no bad-parameter message:\n{log[-2000:]}"
    message = found.group(1)
    assert "refbits=sw needs mm=paging" in message, message
    assert "valid with mm=swap: refbits=hw" in message, message
    assert "init: starting sh" not in log


@pytest.mark.parametrize("append", ["mem=1M", "mem=abc"])
def test_bad_mem_rejected(machine, append):
    code, log = stopped_boot(machine, append)
    assert code == EXIT_BAD_PARAM, f"QEMU exit code {code}, expected {EXIT_BAD_PARAM}"
    assert re.search(r"^faultline: bad boot parameter: .*\bmem\b", log, re.MULTILINE), log[-2000:]
    assert "init: starting sh" not in log


def bad_parameter_line(code, log):
    """The one `bad boot parameter` line of a boot that stopped with exit 2
    (docs/protocol.md), and no panic or shell before it."""
    assert code == EXIT_BAD_PARAM, f"QEMU exit code {code}, expected {EXIT_BAD_PARAM}:\n{log[-2000:]}"
    lines = re.findall(r"^faultline: bad boot parameter: (.*)$", log, re.MULTILINE)
    assert len(lines) == 1, f"expected one bad-parameter line:\n{log[-2000:]}"
    assert "FL-PANIC" not in log and "init: starting sh" not in log, log[-2000:]
    return lines[0]


def test_mem_without_unit_says_the_unit_is_missing(machine):
    line = bad_parameter_line(*stopped_boot(machine, "mem=8"))
    assert line.startswith("bad value '8' for mem: the unit is missing; valid: "), line
    assert "e.g. 8M" in line, line


@pytest.mark.parametrize("path", ["/nosuch", "/"])
def test_init_that_does_not_exist_is_a_boot_error(machine, path):
    # It used to panic (exit 3) when the first process could not exec it.
    line = bad_parameter_line(*stopped_boot(machine, f"init={path}"))
    assert line.startswith(f"init={path}: no such file in the initrd; valid: "), line
    assert "init=/sh" in line, line


def test_init_that_is_not_a_program_is_a_boot_error(machine, tmp_path, user_dir, repo_root):
    notes = tmp_path / "notes"
    notes.write_text("not an ELF executable\n")
    initrd = tmp_path / "initrd.cpio"
    programs = sorted(str(p) for p in user_dir.iterdir() if p.is_file() and os.access(p, os.X_OK))
    subprocess.run([sys.executable, str(repo_root / "tools" / "mkinitrd.py"), "-o", str(initrd),
                    *programs, str(notes)], check=True, timeout=60)
    m = machine(append="init=/notes", initrd=initrd)
    line = bad_parameter_line(m.wait_exit(timeout=60), m.log)
    assert line.startswith("init=/notes: not a program this kernel can run"), line


def test_init_of_another_program_boots(machine):
    m = machine(append="init=/sh")
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    assert "init: starting sh" not in m.log          # sh ran as the first process
    assert_shell_works(m)


def test_command_line_too_long_is_a_boot_error(machine):
    # The kernel keeps BOOTARGS_MAX - 1 characters; a longer line used to be
    # reported as a damaged device tree.
    line = bad_parameter_line(*stopped_boot(machine, "mm=swap " + "x" * 300))
    assert line.startswith("the command line is longer than 255 characters"), line


def test_initrd_past_the_end_of_ram_is_a_boot_error(machine):
    # With 6 MiB QEMU puts the initrd half way up RAM and its tail in the
    # hole after RAM, without complaint; the kernel used to fault reading it.
    m = machine(mem="6M", disk_size=None)
    line = bad_parameter_line(m.wait_exit(timeout=60), m.log)
    assert re.fullmatch(r"the initrd \(0x[0-9a-f]+-0x[0-9a-f]+\) does not fit in RAM "
                        r"\(0x80000000-0x80600000\); give the machine more memory .*", line), line


def test_memory_beyond_what_the_core_map_can_follow_is_refused(machine):
    # 16 GiB needs a 128 MiB core map after the kernel, over the initrd that
    # QEMU puts 128 MiB up: the boot went on with a wiped initrd. mem= says
    # how much does fit, and a boot with that much works.
    m = machine(mem="16G", disk_size=None)
    line = bad_parameter_line(m.wait_exit(timeout=120), m.log)
    fits = re.search(r"valid: at most mem=(\d+)M", line)
    assert fits and "core map" in line, line
    m2 = machine(mem="16G", disk_size=None, append=f"mem={fits.group(1)}M")
    m2.expect_prompt(timeout=BOOT_TIMEOUT)
    assert params_of(m2).get("mem") in (f"{fits.group(1)}M", f"{int(fits.group(1)) // 1024}G")
    assert_shell_works(m2)


def test_smallest_mem_the_runner_allows_boots(machine, repo_root, kernel_elf, initrd_cpio):
    # tools/knobs.py works out from QEMU's virt layout how little memory
    # this build can have; it must be right both ways: its minimum boots to
    # the shell, and one MiB less does not start (QEMU refuses the layout,
    # or the kernel refuses an initrd that runs past the end of RAM).
    res = subprocess.run([sys.executable, str(repo_root / "tools" / "run.py"), "--kernel",
                          str(kernel_elf), "--initrd", str(initrd_cpio), "--mem", "1M", "--check"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    least = re.search(r"Use MEM=(\d+)M or more", res.stdout)
    assert res.returncode == 2 and least, res.stdout
    least = int(least.group(1))
    m = machine(mem=f"{least}M", disk_size=None)
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    assert_shell_works(m)
    below = machine(mem=f"{least - 1}M", disk_size=None, name="below")
    code = below.wait_exit(timeout=60)
    assert code in (1, EXIT_BAD_PARAM), f"{least - 1}M: exit {code}\n{below.tail()}"
    assert "init: starting sh" not in below.log


def test_quiet_gives_a_shorter_banner(machine):
    m = machine(cpus=2, append="quiet")
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    assert_shell_works(m)
    assert re.search(r"^faultline \S+ \(riscv64\) booting on hart \d+$", m.log, re.MULTILINE)
    for left_out in ("harts", "bootargs", "params", "memory", "ipi", "initrd"):
        assert not re.search(rf"^faultline: {left_out}: ", m.log, re.MULTILINE), \
            f"quiet still printed the {left_out} line:\n{m.log[-2000:]}"
    assert "online" not in m.log, m.log[-2000:]
    # What is not routine stays: the disk and memory manager in use.
    assert re.search(r"^faultline: mm: paging", m.log, re.MULTILINE), m.log[-2000:]
    # The same boot without quiet prints them all.
    loud = machine(cpus=2, name="loud")
    loud.expect_prompt(timeout=BOOT_TIMEOUT)
    wait_harts_online(loud, 2)
    for line in ("harts", "bootargs", "params", "memory", "ipi", "initrd"):
        assert re.search(rf"^faultline: {line}: ", loud.log, re.MULTILINE), line


# ----- halting -----------------------------------------------------------------

@pytest.mark.machine(cpus=2)
def test_halt_exits_cleanly(shell):
    code = halt(shell)
    assert code == EXIT_CLEAN, f"`halt` made QEMU exit {code}"
    assert not shell.killed
    assert re.search(r"^faultline: halting", shell.log, re.MULTILINE), shell.tail()


@pytest.mark.parametrize("code", [7, 1])
def test_halt_with_exit_code(shell, code):
    assert halt(shell, code) == code
    assert not shell.killed
    assert "faultline: halting" in shell.log


@pytest.mark.parametrize("code", [255, 0])
def test_halt_takes_codes_up_to_255(shell, code):
    assert halt(shell, code) == code


@pytest.mark.parametrize("args", ["300", "256", "-1", "abc", "1 2"])
def test_halt_refuses_a_code_out_of_range(shell, args):
    # A process exit status has 8 bits: `halt 300` used to exit 44.
    out = shell.run_shell(f"halt {args}")
    assert "usage: halt [exit-code 0..255]" in out, out
    assert "halting" not in shell.log
    assert halt(shell, 9) == 9


def test_harts_without_zbb_are_refused_by_name(machine):
    # The meters take their histogram bucket from Zbb's clz; on harts
    # without it the boot says so and stops, instead of dying of an
    # illegal instruction at the first record.
    m = machine(extra_args=("-cpu", "rv64,zbb=false"))
    code = m.wait_exit(timeout=60)
    assert code == EXIT_PANIC, m.log
    assert "faultline: cannot run on these harts: they lack the Zbb extension" in m.log, m.log
    assert "FL-PANIC" not in m.log
