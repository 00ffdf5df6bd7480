"""man and nroff inside faultline: the shape of `man man` (titles, pages,
filled and adjusted paragraphs, overstruck fonts), no-fill blocks kept as
typed, diagnostics with file and line, missing pages and exit statuses,
and that every program in the initrd has a page that formats cleanly.

Most tests share one boot (module scope); the pages' sources are read
from user/files/man to know what the formatted text must say."""

import re
import shlex
import time
from pathlib import Path

import pytest

import mkinitrd
from qemu_helpers import BOOT_TIMEOUT, Machine, timeout_scale

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "user" / "files" / "man"
GENERATED = {"notelf", "badelf", "README"}   # mkinitrd's own files, not programs

PAGE_LINES = 66          # nroff -man: 11 inches at 6 lines an inch
LINE_LENGTH = 65         # 6.5 inches at 10 columns an inch
BODY_INDENT = 5          # text under a heading
HEADER_LINE, FOOTER_LINE = 3, 63
TEXT_FIRST, TEXT_END = 7, 60

OVERSTRIKE = re.compile(r".\x08")


def plain(text):
    """The text a terminal shows: each overstruck pair leaves its last character."""
    return OVERSTRIKE.sub("", text)


@pytest.fixture(scope="module")
def sh(kernel_elf, initrd_cpio, tmp_path_factory):
    m = Machine(kernel_elf, initrd_cpio, workdir=tmp_path_factory.mktemp("man"))
    m.start(cpus=1)
    try:
        m.expect_prompt(timeout=BOOT_TIMEOUT)
        yield m
    finally:
        m.close()


def wait_quiet(m, quiet=1.0):
    """Waits until the console has been silent for `quiet` seconds."""
    quiet *= timeout_scale()
    last, since = len(m.log), time.monotonic()
    while time.monotonic() - since < quiet:
        time.sleep(0.05)
        if len(m.log) != last:
            last, since = len(m.log), time.monotonic()


def exit_status(m, cmd, timeout=60.0):
    """The exit status of cmd. The shell tells it only for background jobs,
    in its "[pid] done" line before a later prompt, so cmd runs with `&`;
    what it prints is not kept (run it in the foreground for that): the
    console is left to fall silent before the next command is typed, so
    that the job's output cannot land in the middle of its echo."""
    out = m.run_shell(f"{cmd} &")
    found = re.search(r"^\[(\d+)\]$", out, re.MULTILINE)
    assert found, f"`{cmd} &` printed no [pid]: {out!r}"
    done = re.compile(rf"^\[{found.group(1)}\] done (status|signal) (\d+)$", re.MULTILINE)
    deadline = time.monotonic() + timeout * timeout_scale()
    while not done.search(out):
        assert time.monotonic() < deadline, f"`{cmd}` did not end: {out!r}"
        wait_quiet(m)
        out += m.run_shell("echo")
    kind, value = done.search(out).groups()
    assert kind == "status", f"`{cmd}` was killed by signal {value}: {out!r}"
    return int(value)


def write_file(m, name, lines):
    """Creates a RAM file from lines typed at the console into `cat`."""
    m.send(f"cat > {name}")
    for line in lines:
        m.send(line)
    m.send_raw("\x04")
    m.expect_prompt(timeout=60)


def pages_of(text):
    """The output cut into its 66-line pages (checks the total first)."""
    lines = text.split("\n")
    assert lines[-1] == "", "output does not end with a newline"
    lines = lines[:-1]
    assert lines and len(lines) % PAGE_LINES == 0, f"{len(lines)} lines: not whole pages"
    return [lines[i:i + PAGE_LINES] for i in range(0, len(lines), PAGE_LINES)]


def body_of(pages):
    """The text lines of all pages, titles and margins removed."""
    return [line for page in pages for line in page[TEXT_FIRST:TEXT_END]]


def section(body, heading):
    """The lines under a heading, up to the next heading."""
    start = body.index(heading) + 1
    end = next((i for i in range(start, len(body)) if body[i] and not body[i].startswith(" ")),
               len(body))
    return body[start:end]


def paragraphs(lines):
    paras, cur = [], []
    for line in lines + [""]:
        if line:
            cur.append(line)
        elif cur:
            paras.append(cur)
            cur = []
    return paras


def unescape(text):
    text = re.sub(r"\\f(\(..|.)", "", text)
    return text.replace("\\-", "-").replace("\\e", "\\").replace("\\&", "").replace("\\(dq", '"')


def source_paragraphs(page, heading):
    """Words of each paragraph under .SH heading in a page's source: text
    lines as they are, .B/.I arguments with spaces, .BR-style ones joined."""
    src = (PAGES / page).read_text().split("\n")
    start = src.index(f".SH {heading}") + 1
    paras, words = [], []
    for line in src[start:]:
        if line.startswith(".SH"):
            break
        if line in (".PP", ".LP", ".P"):
            paras.append(words)
            words = []
            continue
        if line.startswith("."):
            name, _, rest = line[1:].partition(" ")
            args = shlex.split(rest)
            if name in ("B", "I"):
                line = " ".join(args)
            elif name in ("BR", "RB", "IR", "RI", "BI", "IB"):
                line = "".join(args)
            else:
                continue
        words += unescape(line).split()
    return [p for p in paras + [words] if p]


# ----- man man ------------------------------------------------------------------

@pytest.fixture(scope="module")
def man_man(sh):
    return sh.run_shell("man man", timeout=120)


def test_man_man_pages_and_titles(man_man):
    assert "N\bNA\bAM\bME\bE" in man_man, "headings are not overstruck in bold"
    assert "_\bs_\be_\bc_\bt_\bi_\bo_\bn" in man_man, "italic is not underlined"
    pages = pages_of(plain(man_man))
    assert len(pages) >= 3, "man(1) should be a few pages, a realistic workload"
    for number, page in enumerate(pages, 1):
        assert page[:HEADER_LINE] == [""] * HEADER_LINE
        assert re.fullmatch(r"MAN\(1\) +faultline Programmer's Manual +MAN\(1\)", page[HEADER_LINE])
        assert page[HEADER_LINE + 1:TEXT_FIRST] == [""] * 3
        assert page[TEXT_END:FOOTER_LINE] == [""] * 3
        assert re.fullmatch(rf"faultline +November 2026 +{number}", page[FOOTER_LINE]), \
            page[FOOTER_LINE]
        assert page[FOOTER_LINE + 1:] == ["", ""]
        for line in (page[HEADER_LINE], page[FOOTER_LINE]):
            assert len(line) == LINE_LENGTH
    for line in body_of(pages):
        assert len(line) <= LINE_LENGTH, line


def test_man_man_sections(man_man):
    body = body_of(pages_of(plain(man_man)))
    headings = [line for line in body if line and not line.startswith(" ")]
    assert headings[:3] == ["NAME", "SYNOPSIS", "DESCRIPTION"]
    for want in ("OPTIONS", "FILES", "EXAMPLES", "EXIT STATUS", "SEE ALSO"):
        assert want in headings, headings
    assert headings[-1] == "SEE ALSO"
    assert section(body, "NAME")[0] == "     man - find manual pages and format them"
    for line in body:
        if line and line not in headings:
            assert line.startswith(" " * BODY_INDENT), line


@pytest.mark.parametrize("heading", ["FORMATTED PAGES", "HISTORY", "BUGS"])
def test_man_man_paragraphs_filled_and_adjusted(man_man, heading):
    body = body_of(pages_of(plain(man_man)))
    formatted = paragraphs(section(body, heading))
    source = source_paragraphs("man1/man.1", heading)
    assert len(formatted) == len(source)
    for lines, words in zip(formatted, source):
        # Filling keeps every word, in order, and breaks only between words.
        assert " ".join(lines).split() == words
        for line in lines[:-1]:
            # Adjusted to exactly the line length, from the indent on...
            assert len(line) == LINE_LENGTH, line
            assert line[BODY_INDENT] != " ", line
            # ...with the spaces spread evenly: gaps differ by one at most,
            # plus the one after a sentence.
            gaps = [len(g) for g in re.findall(r"(?<=\S) +(?=\S)", line)]
            assert max(gaps) - min(gaps) <= 2, line
        # The last line is not spread: one space between words, two
        # after a sentence.
        assert len(lines[-1]) <= LINE_LENGTH
        for before, gap in re.findall(r"(\S)( +)(?=\S)", lines[-1]):
            assert len(gap) == 1 or (len(gap) == 2 and before in ".?!)"), lines[-1]


def test_man_to_dev_null(sh):
    assert sh.run_shell("man man > /dev/null") == ""
    assert exit_status(sh, "man man > /dev/null") == 0
    out = sh.run_shell("time man man > /dev/null")
    assert re.fullmatch(r"real \d+\.\d{3}s user \d+\.\d{3}s sys \d+\.\d{3}s\n", out), out


def test_man_sections_and_where(sh):
    out = plain(sh.run_shell("man 7 man"))
    assert re.search(r"^MAN\(7\) +faultline Programmer's Manual +MAN\(7\)$", out, re.MULTILINE)
    out = plain(sh.run_shell("man halt"))
    assert re.search(r"^HALT\(8\) ", out, re.MULTILINE), "section 8 is searched"
    assert sh.run_shell("man -w ls") == "/man/man1/ls.1\n"
    assert sh.run_shell("man -w 7 man") == "/man/man7/man.7\n"
    assert sh.run_shell("man -w man") == "/man/man1/man.1\n"
    out = sh.run_shell("man -p ls")
    assert "\b" not in out and "LS(1)" in out


def test_man_missing_pages(sh):
    assert sh.run_shell("man nosuch") == "No manual entry for nosuch\n"
    assert exit_status(sh, "man nosuch") == 1
    assert sh.run_shell("man 8 ls") == "No entry for ls in section 8 of the manual\n"
    assert exit_status(sh, "man 8 ls") == 1
    assert sh.run_shell("man /ls") == "No manual entry for /ls\n"
    # The pages that exist are still formatted, in order.
    out = sh.run_shell("man -p echo nosuch cat")
    assert out.index("ECHO(1)") < out.index("No manual entry for nosuch") < out.index("CAT(1)")
    assert exit_status(sh, "man -p echo nosuch cat > /dev/null") == 1
    assert exit_status(sh, "man -p echo cat > /dev/null") == 0
    assert sh.run_shell("man").startswith("usage: man")
    assert exit_status(sh, "man") == 2


def test_man_keyword_search(sh):
    out = sh.run_shell("man -k memory")
    assert "hog(1) - load the memory managers and check they lose nothing\n" in out
    assert "vmstat(1) - report the memory manager's counters\n" in out
    assert "ls(1)" not in out
    assert sh.run_shell("man -k FORMAT").count("(") >= 2       # man(1), nroff(1): any case
    assert sh.run_shell("man -k zyzzyva") == "zyzzyva: nothing appropriate\n"
    assert exit_status(sh, "man -k zyzzyva") == 1
    assert exit_status(sh, "man -k memory") == 0


# ----- nroff on a page typed in --------------------------------------------------

TEST_PAGE = [
    ".TH T 1",
    ".SH EXAMPLE",
    ".nf",
    "a    b      c",
    "  indented",
    "a line that is much longer than the sixty-five columns of the line length",
    ".fi",
    ".XX unknown",
    "filled",
    "text",
]


def test_nroff_nofill_and_diagnostics(sh):
    write_file(sh, "t.1", TEST_PAGE)
    out = sh.run_shell("nroff -man -p t.1")
    # The diagnostic names the file and the line of the unknown request.
    assert "nroff: t.1:8: unknown request '.XX': skipped\n" in out, out
    lines = out.split("\n")
    # No-fill lines are kept as typed, spaces and length included.
    for typed in TEST_PAGE[3:6]:
        assert " " * BODY_INDENT + typed in lines, (typed, lines)
    assert " " * BODY_INDENT + "filled text" in lines
    assert "XX" not in out.replace("'.XX'", "")
    # Only the diagnostic reaches the console when the page goes to /dev/null,
    # and stdin is named "-".
    assert sh.run_shell("nroff -man t.1 > /dev/null") == \
        "nroff: t.1:8: unknown request '.XX': skipped\n"
    assert sh.run_shell("nroff -man < t.1 > /dev/null") == \
        "nroff: -:8: unknown request '.XX': skipped\n"
    assert sh.run_shell("nroff -man nosuchfile") == "nroff: nosuchfile: no such file\n"
    assert exit_status(sh, "nroff -man nosuchfile") == 1
    assert "no such macro package" in sh.run_shell("nroff -mfoo t.1")
    assert exit_status(sh, "nroff -mfoo t.1") == 2
    assert exit_status(sh, "nroff -man t.1 > /dev/null") == 0   # warnings are not failures


def test_nroff_nofill_block_of_a_page(sh):
    """The .nf example in man(7) comes out line for line as its source."""
    src = (PAGES / "man7" / "man.7").read_text().split("\n")
    start = src.index(".SH EXAMPLES")
    block = src[src.index(".nf", start) + 1:src.index(".fi", start)]
    lines = plain(sh.run_shell("man 7 man")).split("\n")
    indent = " " * (BODY_INDENT + 5)          # inside .RS
    at = lines.index(indent + unescape(block[0]))
    # the block may cross a page: titles and margins are not part of it
    got = [line for line in lines[at:] if line.startswith(indent)][:len(block)]
    assert got == [indent + unescape(line) for line in block]


# ----- every page ------------------------------------------------------------------

def initrd_names(initrd_cpio):
    return {name: data for name, _, data in mkinitrd.read_archive(initrd_cpio.read_bytes())}


def test_every_program_has_a_manual_page(initrd_cpio):
    files = initrd_names(initrd_cpio)
    programs = sorted(n for n, data in files.items()
                      if "/" not in n and n not in GENERATED and data[:4] == b"\x7fELF")
    assert {"sh", "man", "nroff", "usertests"} <= set(programs)
    for program in programs:
        pages = [n for n in files if re.fullmatch(rf"man/man(\d)/{re.escape(program)}\.\1", n)]
        assert pages, f"{program} has no manual page: add user/files/man/man1/{program}.1"
        text = files[pages[0]].decode()
        name = re.search(r"^\.SH NAME\n(.*)$", text, re.MULTILINE)
        assert name and name.group(1).startswith(f"{program} \\- "), \
            f"{pages[0]}: the NAME line must be '{program} \\- what it does'"


def test_every_page_formats_without_warnings(sh, initrd_cpio):
    pages = sorted(n for n in initrd_names(initrd_cpio) if n.startswith("man/"))
    assert len(pages) >= 20
    for page in pages:
        assert sh.run_shell(f"nroff -man /{page} > /dev/null") == "", page


def test_man_needs_nroff(machine, user_dir, tmp_path):
    """man runs /nroff as a separate program: without it, man says so."""
    bins = [p for p in sorted(user_dir.iterdir())
            if p.is_file() and p.name != "nroff" and p.read_bytes()[:4] == b"\x7fELF"]
    initrd = tmp_path / "no-nroff.cpio"
    assert mkinitrd.main(["-o", str(initrd), "--tree", str(ROOT / "user" / "files")]
                         + [str(p) for p in bins]) == 0
    m = machine(initrd=initrd)
    m.expect_prompt(timeout=BOOT_TIMEOUT)
    assert m.run_shell("man ls") == "man: cannot run /nroff: no such file\n"
    assert exit_status(m, "man ls") == 1
    assert m.run_shell("man -w ls") == "/man/man1/ls.1\n"
