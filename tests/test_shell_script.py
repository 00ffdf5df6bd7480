"""QEMU integration tests of the shell's language: scripts run with
`sh FILE ARGS` (the scripts are in the initrd, from user/files/tests/sh/)
and the same constructs typed at the console.

Each script's whole output is compared: variables and quoting, $? after
commands that succeed or fail, if/elif/else, while, until, for, break and
continue in nested loops, $(( )), redirections (>> 2> 2>> 2>&1, and on a
whole loop), `time` appending its report to a log, and syntax errors
that name the script's line and the token."""

import re
import time

import pytest

SCRIPTS = "tests/sh"
TIME_LINE = r"real \d+\.\d{3}s user \d+\.\d{3}s sys \d+\.\d{3}s"


def script(shell, name, args="", timeout=120.0):
    return shell.run_shell(f"sh {SCRIPTS}/{name} {args}".strip(), timeout=timeout)


def test_variables_quotes_and_arguments(shell):
    out = script(shell, "vars.sh", 'x "y z"')
    assert out == (
        "one two three  spaced\n"
        "onex twoy $A stays $A too\n"
        "unset: [] unquoted: []\n"
        "args 2 x y z all x y z\n"
        "arg <x>\n"
        "arg <y z>\n"
        "word <x>\n"
        "word <y>\n"
        "word <z>\n"
        "empty: [] xy\n"
        "split <a>\n"
        "split <b>\n"
        "split <c>\n"
        "after shift 1 y z\n"
        "pid-is-number 1\n"
        f"zero {SCRIPTS}/vars.sh\n"), out


def test_status_of_commands(shell):
    out = script(shell, "status.sh")
    name = f"{SCRIPTS}/status.sh"
    expected = [
        "true 0",
        "false 1",
        f"sh: {name}: line 6: nosuchcommand: not found",
        "missing 127",
        None,               # cat's own message
        "cat 1",
        "test 1",
        "negated 0",
        "and-ran",
        "or-ran",
        "readme-is-a-file",
        "no-such-file",
    ]
    got = out.splitlines()
    assert len(got) == len(expected), out
    for line, want in zip(got, expected):
        if want is None:
            assert line.startswith("cat: nosuchfile: "), out
        else:
            assert line == want, out


def test_if_loops_break_continue_arithmetic(shell):
    out = script(shell, "control.sh")
    assert out == (
        "1 one\n2 small\n3 small\n4 big\n5 big\n"
        "while 0\nwhile 1\nwhile 2\n"
        "until left 0\n"
        "nested total 90\n"
        "broke at 4\n"
        "arith 3 1 4 9 1 0\n"
        "if without else: 0\n"
        "a1\na2\nb1\nb2\n"), out


def test_redirections_and_time_log(shell):
    out = script(shell, "redirect.sh")
    lines = out.splitlines()
    assert lines[:3] == ["first", "second", "status 1"], out
    errors = [line for line in lines if line.startswith("cat: nosuchfile: ")]
    assert len(errors) == 3, f"two in err.txt, one in both.txt: {out}"
    times = [line for line in lines if re.fullmatch(TIME_LINE, line)]
    assert len(times) == 2, out
    assert lines[-3:] == ["line 1", "line 2", "line 3"], out
    # Nothing reached the console but what the script cat'ed.
    assert len(lines) == 3 + 3 + 2 + 3, out
    # >> appended: the log grows by one line a run.
    script(shell, "redirect.sh")
    assert len(shell.run_shell("cat time.log").splitlines()) == 4


def test_syntax_error_names_line_and_token(shell):
    out = script(shell, "syntax_fi.sh")
    assert out == ("before\ninside\n"
                   f"sh: {SCRIPTS}/syntax_fi.sh: line 4: syntax error near `fi'\n"), out
    assert shell.run_shell("echo $?") == "2\n"
    out = script(shell, "syntax_eof.sh")
    assert out == ("start\n"
                   f"sh: {SCRIPTS}/syntax_eof.sh: line 5: "
                   "unexpected end of file (expecting done)\n"), out


def test_missing_script(shell):
    out = shell.run_shell("sh nosuchscript")
    assert re.fullmatch(r"sh: nosuchscript: .*\n", out), out


# ----- at the console ---------------------------------------------------------

def test_console_one_line_constructs(shell):
    assert shell.run_shell("X=5; Y=$((X * 2)); echo $X $Y") == "5 10\n"
    assert shell.run_shell("for i in a b c; do echo $i; done") == "a\nb\nc\n"
    assert shell.run_shell("if false; then echo yes; else echo no; fi") == "no\n"
    assert shell.run_shell("i=0; while [ $i -lt 2 ]; do echo $i; i=$((i+1)); done") == "0\n1\n"
    assert shell.run_shell("false; echo $?; echo $?") == "1\n0\n"
    assert shell.run_shell("echo 'single $X' \"double $X\"") == "single $X double 5\n"
    assert shell.run_shell("echo $(echo inner) done") == "inner done\n"


def test_console_continues_unfinished_commands(shell):
    shell.send("for i in 1 2")
    shell.expect(r"> ", timeout=30)
    shell.send("do echo n$i")
    shell.expect(r"> ", timeout=30)
    out = shell.run_shell("done")
    assert out == "n1\nn2\n", out


def test_console_syntax_errors(shell):
    assert shell.run_shell("fi") == "sh: syntax error near `fi'\n"
    assert shell.run_shell("echo a | cat") == \
        "sh: syntax error near `|': pipes are not supported\n"
    assert shell.run_shell("echo $((1 / 0))") == "sh: arithmetic: division by zero\n"
    assert shell.run_shell("echo $?") == "1\n"
    assert shell.run_shell("if true; then; fi") == "sh: syntax error near `;'\n"
    assert shell.run_shell("echo still fine") == "still fine\n"


@pytest.mark.parametrize("loop", ["while true; do sleep 100; done",
                                  "while true; do true; done"])
def test_ctrl_c_stops_a_loop(shell, loop):
    shell.send(loop)
    shell.expect(re.escape(loop) + r"[ \t]*\n", timeout=30)
    time.sleep(1.0)   # host time only to let the loop get going; nothing is measured
    shell.send_raw("\x03")
    shell.expect_prompt(timeout=60)
    assert shell.run_shell("echo back") == "back\n"
