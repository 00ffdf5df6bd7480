"""Host tests of the tools themselves: mkinitrd's archive format, the QEMU
command line, run.py's CLI and the Machine class (driven by a stand-in
console program instead of QEMU, so no kernel is needed)."""

import os
import shutil
import signal
import stat
import struct
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import faultline as fq
import mkinitrd

pytestmark = pytest.mark.host

ROOT = Path(__file__).resolve().parent.parent
RUN_PY = ROOT / "tools" / "run.py"


# ----- a newc reader written independently of the writer ---------------------

FIELDS = ("ino", "mode", "uid", "gid", "nlink", "mtime", "filesize",
          "devmajor", "devminor", "rdevmajor", "rdevminor", "namesize", "check")


def read_newc(data: bytes):
    """Parses a newc archive strictly; returns [(name, header_dict, data)]
    including the trailer, and checks every padding rule on the way."""
    entries, pos = [], 0
    while True:
        assert pos % 4 == 0, "entry not 4-aligned"
        header = data[pos:pos + 110]
        assert len(header) == 110, "truncated header"
        assert header[:6] == b"070701"
        fields = {}
        for i, key in enumerate(FIELDS):
            raw = header[6 + 8 * i: 14 + 8 * i]
            assert all(c in b"0123456789ABCDEFabcdef" for c in raw), raw
            fields[key] = int(raw, 16)
        name_end = pos + 110 + fields["namesize"]
        name = data[pos + 110:name_end]
        assert name.endswith(b"\0") and b"\0" not in name[:-1]
        data_start = (name_end + 3) & ~3
        assert data[name_end:data_start] == b"\0" * (data_start - name_end)
        data_end = data_start + fields["filesize"]
        payload = data[data_start:data_end]
        assert len(payload) == fields["filesize"], "truncated data"
        next_pos = (data_end + 3) & ~3
        assert data[data_end:next_pos] == b"\0" * (next_pos - data_end)
        entries.append((name[:-1].decode(), fields, payload))
        pos = next_pos
        if name == b"TRAILER!!!\0":
            assert pos == len(data), "bytes after the trailer"
            return entries


def fake_elf(size: int) -> bytes:
    """An ELF64 RISC-V header (program headers at 64, past byte 100) plus filler."""
    head = mkinitrd.synthetic_elf_header()
    return head + bytes(i % 251 for i in range(max(0, size - len(head))))


@pytest.fixture
def initrd_inputs(tmp_path):
    src = tmp_path / "src"
    (src / "a").mkdir(parents=True)
    files = {
        src / "a" / "init": fake_elf(4097),      # odd sizes exercise the padding
        src / "sh": fake_elf(1234),
        src / "data.txt": b"x",
        src / "script": b"#!/bin/sh\necho hi\n",
        src / "empty": b"",
    }
    for path, content in files.items():
        path.write_bytes(content)
        path.chmod(0o644)
    (src / "script").chmod(0o755)
    return [src / "a" / "init", src / "sh", src / "data.txt", src / "script", src / "empty"]


def test_tools_mkinitrd_round_trip(tmp_path, initrd_inputs):
    out = tmp_path / "initrd.cpio"
    assert mkinitrd.main(["-o", str(out)] + [str(p) for p in initrd_inputs]) == 0
    entries = read_newc(out.read_bytes())

    names = [e[0] for e in entries]
    assert names[-1] == "TRAILER!!!"
    expected = sorted([p.name for p in initrd_inputs] + ["notelf", "badelf", "README"])
    assert names[:-1] == expected

    by_name = {name: (fields, payload) for name, fields, payload in entries}
    for path in initrd_inputs:
        fields, payload = by_name[path.name]
        assert payload == path.read_bytes()
        assert fields["filesize"] == len(payload)
    modes = {name: f["mode"] for name, (f, _) in by_name.items()}
    assert modes["init"] == modes["sh"] == modes["script"] == 0o100755
    assert modes["data.txt"] == modes["empty"] == modes["README"] == 0o100644
    assert modes["notelf"] == modes["badelf"] == 0o100755

    inodes = [f["ino"] for _, f, _ in entries[:-1]]
    assert inodes == list(range(1, len(inodes) + 1))
    for _, f, _ in entries:
        assert f["mtime"] == f["uid"] == f["gid"] == f["check"] == 0

    # badelf: the first ELF given (init), cut to 100 bytes, program headers
    # pointing past its end.
    badelf = by_name["badelf"][1]
    assert badelf == initrd_inputs[0].read_bytes()[:100]
    phoff, = struct.unpack_from("<Q", badelf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", badelf, 0x36)
    assert phoff + phentsize * phnum > len(badelf)
    assert not by_name["notelf"][1].startswith(b"\x7fELF")
    assert b"initrd" in by_name["README"][1]


def test_tools_mkinitrd_is_reproducible(tmp_path, initrd_inputs):
    first, second = tmp_path / "1.cpio", tmp_path / "2.cpio"
    mkinitrd.main(["-o", str(first)] + [str(p) for p in initrd_inputs])
    for p in initrd_inputs:
        os.utime(p, (12345, 67890))          # times must not leak into the archive
    mkinitrd.main(["-o", str(second)] + [str(p) for p in initrd_inputs])
    assert first.read_bytes() == second.read_bytes()


def test_tools_mkinitrd_without_elf_input(tmp_path):
    text = tmp_path / "hello.txt"
    text.write_text("hello\n")
    out = tmp_path / "i.cpio"
    assert mkinitrd.main(["-o", str(out), str(text)]) == 0
    badelf = {n: d for n, _, d in read_newc(out.read_bytes())}["badelf"]
    assert badelf[:4] == b"\x7fELF" and len(badelf) == 100


@pytest.mark.parametrize("clash", ["dup", "generated"])
def test_tools_mkinitrd_rejects_name_clashes(tmp_path, clash, capsys):
    a = tmp_path / "x" / ("sh" if clash == "dup" else "README")
    b = tmp_path / "y" / "sh"
    for p in (a, b):
        p.parent.mkdir()
        p.write_bytes(fake_elf(200))
    out = tmp_path / "i.cpio"
    assert mkinitrd.main(["-o", str(out), str(a), str(b)]) == 1
    assert not out.exists()
    assert "mkinitrd:" in capsys.readouterr().err


@pytest.mark.skipif(not shutil.which("cpio"), reason="GNU cpio not installed")
def test_tools_mkinitrd_readable_by_gnu_cpio(tmp_path, initrd_inputs):
    out = tmp_path / "i.cpio"
    mkinitrd.main(["-o", str(out)] + [str(p) for p in initrd_inputs])
    dest = tmp_path / "extract"
    dest.mkdir()
    with open(out, "rb") as f:
        subprocess.run(["cpio", "-id", "--quiet"], stdin=f, cwd=dest, check=True)
    assert (dest / "sh").read_bytes() == initrd_inputs[1].read_bytes()
    assert (dest / "script").stat().st_mode & stat.S_IXUSR


def make_tree(root: Path, files: dict) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        path.chmod(0o644)
    return root


def test_tools_mkinitrd_tree_keeps_paths(tmp_path, initrd_inputs):
    tree = make_tree(tmp_path / "files", {
        "man/man1/ls.1": b".TH LS 1\n",
        "man/man8/init.8": b".TH INIT 8\n",
        "src/hello.c": b"int main(void) { return 0; }\n",
        "top.txt": b"top\n",
        ".hidden": b"skipped",
        "man/.swap.1": b"skipped",
        ".git/config": b"skipped",
    })
    out = tmp_path / "t.cpio"
    args = ["-o", str(out), "--tree", str(tree)] + [str(p) for p in initrd_inputs]
    assert mkinitrd.main(args) == 0
    entries = read_newc(out.read_bytes())
    by_name = {name: (fields, payload) for name, fields, payload in entries}
    for rel in ("man/man1/ls.1", "man/man8/init.8", "src/hello.c", "top.txt"):
        assert by_name[rel][1] == (tree / rel).read_bytes(), rel
        assert by_name[rel][0]["mode"] == 0o100644
    assert not [n for n in by_name if n.startswith(".") or "/." in n]
    assert "sh" in by_name and "README" in by_name       # programs still at the top
    # Files only: the kernel's flat root finds "man/man1/ls.1" by its name.
    assert not [n for n, (f, _) in by_name.items() if f["mode"] & 0o170000 == 0o040000]
    # read_archive, the reader other tools use, agrees with the strict one.
    assert [(n, m, d) for n, m, d in mkinitrd.read_archive(out.read_bytes())] == \
        [(n, f["mode"], d) for n, f, d in entries[:-1]]


@pytest.mark.parametrize("rel, why", [
    ("sh", "both named 'sh'"),                      # a program's name
    ("README", "clashes"),                          # a generated file's
    ("x/" + "n" * 130, "at most"),                  # too long for FL_PATH_MAX
])
def test_tools_mkinitrd_tree_rejects_bad_names(tmp_path, initrd_inputs, rel, why, capsys):
    tree = make_tree(tmp_path / "files", {rel: b"data"})
    out = tmp_path / "t.cpio"
    args = ["-o", str(out), "--tree", str(tree)] + [str(p) for p in initrd_inputs]
    assert mkinitrd.main(args) == 1
    assert not out.exists()
    err = capsys.readouterr().err
    assert "mkinitrd:" in err and why in err, err


def test_tools_mkinitrd_tree_must_be_a_directory(tmp_path, capsys):
    assert mkinitrd.main(["-o", str(tmp_path / "t.cpio"), "--tree", str(tmp_path / "none")]) == 1
    assert "not a directory" in capsys.readouterr().err


# ----- the QEMU command line -------------------------------------------------

def flag_value(cmd, flag):
    return cmd[cmd.index(flag) + 1]


def test_tools_qemu_command_basics():
    cmd = fq.qemu_command("k.elf", "i.cpio", cpus=3, mem="256M")
    assert cmd[0] == "qemu-system-riscv64"
    # ACLINT on by default: the kernel's IPIs skip the firmware
    assert flag_value(cmd, "-machine") == "virt,aclint=on"
    assert flag_value(fq.qemu_command("k.elf", aclint=False), "-machine") == "virt"
    assert flag_value(cmd, "-cpu") == "rv64"
    assert flag_value(cmd, "-smp") == "3"
    assert flag_value(cmd, "-m") == "256M"
    assert flag_value(cmd, "-bios") == "default"
    assert flag_value(cmd, "-kernel") == "k.elf"
    assert flag_value(cmd, "-initrd") == "i.cpio"
    assert "-append" not in cmd and "-icount" not in cmd
    assert "-S" not in cmd and "-gdb" not in cmd
    # batch console: serial on stdio, no monitor that could eat input
    assert flag_value(cmd, "-serial") == "stdio"
    assert flag_value(cmd, "-monitor") == "none"
    assert flag_value(cmd, "-display") == "none"
    assert "-nographic" not in cmd and "-no-reboot" in cmd


def test_tools_qemu_command_append_and_icount():
    cmd = fq.qemu_command("k", "i", append="mm=swap pc=daemon mem=4M", icount=True)
    assert flag_value(cmd, "-append") == "mm=swap pc=daemon mem=4M"
    assert flag_value(cmd, "-icount") == "shift=0,sleep=off"


def test_tools_qemu_command_gdb_and_terminal():
    cmd = fq.qemu_command("k", "i", console="terminal", gdb_socket="/b/gdb-1000.sock",
                          gdb_wait=True)
    assert "-nographic" in cmd and "-serial" not in cmd
    assert flag_value(cmd, "-chardev") == \
        "socket,id=gdb0,path=/b/gdb-1000.sock,server=on,wait=off"
    assert flag_value(cmd, "-gdb") == "chardev:gdb0"
    assert "-S" in cmd
    # under GDB every hart runs on one host thread (README, "Debugging with GDB")
    assert flag_value(cmd, "-accel") == "tcg,thread=single"
    assert "-accel" not in fq.qemu_command("k", "i", cpus=2)
    # a stub that does not wait, and no stub at all
    assert "-S" not in fq.qemu_command("k", "i", gdb_socket="/s")
    with pytest.raises(ValueError):
        fq.qemu_command("k", "i", gdb_wait=True)


def test_tools_qemu_command_disk_and_extra():
    cmd = fq.qemu_command("k", "i", disk="/tmp/a,b.img", extra_args=["-d", "int"])
    assert flag_value(cmd, "-drive") == "file=/tmp/a,,b.img,if=none,format=raw,id=disk0"
    assert flag_value(cmd, "-device") == "virtio-blk-device,drive=disk0"
    assert "virtio-mmio.force-legacy=false" in cmd
    assert cmd[-2:] == ["-d", "int"]


def test_tools_blkdebug_config_renders_rules():
    text = fq.blkdebug_config([
        {"event": "read_aio", "sector": 65528, "once": False},
        {"event": "write_aio", "errno": 28, "once": True, "iotype": "flush"},
        {"event": "flush_to_disk", "immediately": True},
    ])
    sections = [s.strip().splitlines() for s in text.split("[inject-error]")[1:]]
    assert len(sections) == 3 and text.count("[inject-error]") == 3
    assert sections[0] == ['event = "read_aio"', 'errno = "5"', 'sector = "65528"',
                           'once = "off"', 'iotype = "read"']   # EIO and iotype defaults
    assert 'errno = "28"' in sections[1] and 'once = "on"' in sections[1]
    assert 'iotype = "flush"' in sections[1]                    # an explicit iotype wins
    assert 'iotype' not in text.split("[inject-error]")[3]      # no default for other events
    assert 'immediately = "on"' in sections[2]


@pytest.mark.parametrize("rules, message", [
    ([], "at least one rule"),
    ([{"errno": 5}], "no event"),
    ([{"event": "read_aio", "sectr": 1}], "unknown blkdebug rule keys"),
    ([{"event": 'read_aio"'}], "quotes"),
])
def test_tools_blkdebug_config_rejects_bad_rules(rules, message):
    with pytest.raises(ValueError, match=message):
        fq.blkdebug_config(rules)


def test_tools_qemu_command_blkdebug_drive():
    cmd = fq.qemu_command("k", "i", disk="/tmp/a,b.img", blkdebug_config_path="/w/x,y.conf")
    assert flag_value(cmd, "-drive") == (
        "file.driver=blkdebug,file.config=/w/x,,y.conf,file.image.filename=/tmp/a,,b.img,"
        "if=none,format=raw,id=disk0")
    assert flag_value(cmd, "-device") == "virtio-blk-device,drive=disk0"
    assert "virtio-mmio.force-legacy=false" in cmd
    with pytest.raises(ValueError, match="need a disk"):
        fq.qemu_command("k", "i", blkdebug_config_path="/w/x.conf")


def test_tools_qemu_command_readonly_disk():
    cmd = fq.qemu_command("k", "i", disk="/d.img", disk_readonly=True)
    assert flag_value(cmd, "-drive") == "file=/d.img,if=none,format=raw,id=disk0,readonly=on"
    with pytest.raises(ValueError, match="need a disk"):
        fq.qemu_command("k", "i", disk_readonly=True)


def test_tools_machine_writes_blkdebug_config(fake_machine):
    rules = [{"event": "write_aio", "sector": 0}]
    m = fake_machine.start(disk_size="1M", blkdebug=rules)
    conf = m.workdir / f"{m.name}-blkdebug.conf"
    assert conf.read_text() == fq.blkdebug_config(rules)
    assert f"file.config={conf}" in flag_value(m.command, "-drive")
    assert f"file.image.filename={m.disk}" in flag_value(m.command, "-drive")


def test_tools_machine_blkdebug_needs_a_disk(fake_machine):
    with pytest.raises(fq.MachineError, match="need a disk"):
        fake_machine.start(blkdebug=[{"event": "read_aio"}])


def test_tools_gdb_command():
    cmd = fq.gdb_command("build/kernel.elf", "/b/gdb.sock", script="tools/gdb/x.py")
    assert cmd[0] == "gdb-multiarch" and "build/kernel.elf" in cmd
    assert cmd[cmd.index("-x") + 1] == "tools/gdb/x.py"
    assert "target remote /b/gdb.sock" in cmd
    assert cmd.index("-x") < cmd.index("target remote /b/gdb.sock")   # script first
    assert "-batch" in fq.gdb_command("k", "t", batch_commands=["fl-harts"])


def test_tools_helpers():
    assert fq.parse_size("64M") == 64 << 20
    assert fq.parse_size("512k") == 512 << 10
    assert fq.parse_size("4096") == 4096
    with pytest.raises(ValueError):
        fq.parse_size("lots")
    assert fq.find_prompt("$ ") == 0
    assert fq.find_prompt("out\n$ ") == 4
    assert fq.find_prompt("a$ b\n") == -1
    assert fq.parse_json_lines('x\nFL-JSON {"a": 1}\nFL-JSON {"b": [2]}\n') == \
        [{"a": 1}, {"b": [2]}]
    # a record printed after the prompt moves to the start of its line
    assert fq.json_lines_apart('$ FL-JSON {"a": 1}\nx FL-JSON y\n') == \
        'FL-JSON {"a": 1}\nx FL-JSON y\n'
    assert fq.describe_exit(3) == "kernel panic"
    long_dir = Path("/tmp") / ("d" * 120)
    short = fq.short_socket_path(long_dir / "gdb.sock")
    assert len(str(short)) <= fq.UNIX_PATH_MAX
    shutil.rmtree(short.parent)


def test_tools_ensure_disk(tmp_path):
    disk = fq.ensure_disk(tmp_path / "d" / "disk.img", "1M")
    assert disk.stat().st_size == 1 << 20
    fq.ensure_disk(disk, "2M")
    assert disk.stat().st_size == 2 << 20


# ----- run.py's command line -------------------------------------------------

def run_py(*args, cwd=None):
    return subprocess.run([sys.executable, str(RUN_PY), *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=60)


def test_tools_run_py_dry_run(tmp_path):
    kernel = tmp_path / "build" / "kernel.elf"
    res = run_py("--kernel", str(kernel), "--initrd", "i.cpio", "--cpus", "2",
                 "--append", "mm=paging pc=inline", "--icount", "--dry-run")
    assert res.returncode == 0, res.stderr
    assert "-smp 2" in res.stdout and "-icount shift=0,sleep=off" in res.stdout
    assert "-append 'mm=paging pc=inline'" in res.stdout
    assert "-serial stdio" in res.stdout

    res = run_py("--kernel", str(kernel), "--initrd", "i.cpio", "--interactive", "--gdb",
                 "--dry-run")
    assert res.returncode == 0, res.stderr
    sock = kernel.parent / f"gdb-{os.getuid()}.sock"
    assert f"path={sock}," in res.stdout or len(str(sock)) > fq.UNIX_PATH_MAX
    assert "-nographic" in res.stdout and " -S" in res.stdout


def test_tools_run_py_usage_errors(tmp_path):
    assert run_py("--kernel", "k", "--initrd", "i", "--gdb").returncode == 2
    assert run_py("--kernel", "k").returncode == 2                  # no initrd to boot
    res = run_py("--kernel", str(tmp_path / "kernel.elf"), "--attach-gdb")
    assert res.returncode == 1 and "make qemu-gdb" in res.stderr   # no stub running


# ----- Machine, driven by a stand-in for QEMU ------------------------------------

# Takes QEMU's arguments, ignores them, and acts like a tiny console: echoes
# what it reads, prints "$ " prompts, and understands a few commands.
FAKE_QEMU = textwrap.dedent(r'''
    import os, subprocess, sys, time
    out = sys.stdout.buffer
    def say(s):
        out.write(s.encode().replace(b"\n", b"\r\n")); out.flush()
    say("faultline 0.0 (riscv64) booting on hart 0\nFL-JSON {\"boot\": 1}\n$ ")
    line = b""
    while True:
        c = os.read(0, 1)
        if not c:
            sys.exit(9)
        if c not in b"\r\n":
            line += c; out.write(c); out.flush(); continue
        say("\n")
        cmd, line = line.decode(), b""
        if cmd.startswith("echo "):
            say(cmd[5:] + "\n")
        elif cmd.startswith("halt"):
            say("faultline: halting\n"); sys.exit(int(cmd[4:] or 0))
        elif cmd == "hang":
            time.sleep(3600)
        elif cmd == "child":
            p = subprocess.Popen(["sleep", "3600"]); say(f"child {p.pid}\n")
        elif cmd:
            say(f"sh: {cmd}: not found\n")
        say("$ ")
''')


@pytest.fixture
def fake_machine(tmp_path):
    fake = tmp_path / "fake-qemu"
    fake.write_text(f"#!{sys.executable}\n" + FAKE_QEMU)
    fake.chmod(0o755)
    kernel = tmp_path / "kernel.elf"
    kernel.write_bytes(b"\x7fELF")
    m = fq.Machine(kernel, workdir=tmp_path / "run", qemu=str(fake))
    yield m
    m.close()


def test_tools_machine_shell_session(fake_machine):
    m = fake_machine.start(cpus=2, append="mm=swap")
    assert "-append" in m.command and "mm=swap" in m.command
    assert "booting on hart 0" in m.expect_prompt(timeout=20)
    assert m.run_shell("echo hello world") == "hello world\n"
    assert m.run_shell("") == ""
    assert m.run_shell("nosuch") == "sh: nosuch: not found\n"
    assert fq.parse_json_lines(m.log) == [{"boot": 1}]
    m.send("halt 3")
    assert m.expect_line(r"halting").group(0) == "halting"
    assert m.wait_exit(timeout=20) == 3
    assert "\r" not in m.log
    assert b"\r\n" in m.log_path.read_bytes()        # the log keeps raw bytes


def test_tools_machine_expect_json_and_exit(fake_machine):
    m = fake_machine.start()
    assert m.expect_json(timeout=20) == {"boot": 1}
    m.expect_prompt()
    m.send("halt")
    with pytest.raises(fq.MachineExited) as info:
        m.expect("never printed", timeout=20)
    assert str(m.log_path) in str(info.value)
    assert m.wait_exit(5) == 0


def test_tools_machine_timeouts(fake_machine):
    m = fake_machine.start()
    m.expect_prompt(timeout=20)
    with pytest.raises(fq.MachineTimeout) as info:
        m.expect("never printed", timeout=0.5)
    assert not info.value.idle and "console log" in str(info.value)
    m.send("hang")
    with pytest.raises(fq.MachineTimeout) as info:
        m.wait_exit(timeout=30, idle_timeout=1)
    assert info.value.idle
    assert m.running


def test_tools_machine_close_kills_its_process_group(fake_machine):
    m = fake_machine.start()
    m.expect_prompt(timeout=20)
    m.send("child")
    child = int(m.expect(r"child (\d+)", timeout=20).group(1))
    assert os.getpgid(child) == m.pid          # QEMU leads its own group
    m.close()
    assert m.killed and not m.running
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        # a zombie (reparented, not yet reaped) counts as gone
        if Path(f"/proc/{child}/stat").read_text().split(")")[1].split()[0] == "Z":
            break
        time.sleep(0.05)
    else:
        os.kill(child, signal.SIGKILL)
        pytest.fail("close() left a process of QEMU's group running")
    m.close()                                  # twice is fine


def test_tools_machine_reports_missing_files(tmp_path):
    with pytest.raises(fq.MachineError, match="kernel not found"):
        fq.Machine(tmp_path / "nope.elf", workdir=tmp_path).start()


# ----- setup.py --------------------------------------------------------------

def test_tools_setup_version_parsing():
    import setup
    assert setup.parse_version("QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7)") == (7, 2, 22)
    assert setup.parse_version("GNU gdb (Debian 13.1-3) 13.1") == (13, 1, 0)
    assert setup.parse_version("nothing here") is None
