"""What faultline prints for machines, as the host tools read it.

docs/protocol.md lists every line; this module has what the tools parse:
the exit codes QEMU returns, the shell prompt, and the FL-JSON and
FL-PANIC tags.
"""

from __future__ import annotations

import json
import re
from typing import Optional

# QEMU's exit status is the code the kernel wrote to the sifive,test0 device
# (see docs/protocol.md).
EXIT_CLEAN = 0
EXIT_BAD_PARAM = 2
EXIT_PANIC = 3
EXIT_MEANINGS = {
    EXIT_CLEAN: "clean halt",
    EXIT_BAD_PARAM: "bad boot parameter",
    EXIT_PANIC: "kernel panic",
}

PROMPT = "$ "
PANIC_TAG = "FL-PANIC:"
JSON_TAG = "FL-JSON "


def describe_exit(code: Optional[int]) -> str:
    """Human-readable meaning of a QEMU exit status."""
    if code is None:
        return "still running"
    if code < 0:
        return f"killed by signal {-code}"
    if code == 1:
        return "exit 1 (QEMU could not start, or `halt 1`)"
    return EXIT_MEANINGS.get(code, f"halt {code}")


def find_prompt(text: str) -> int:
    """Index of the first "$ " that starts a line in `text` (text[0] counts
    as a line start, since callers pass text that begins after a line end)."""
    if text.startswith(PROMPT):
        return 0
    pos = text.find("\n" + PROMPT)
    return pos + 1 if pos >= 0 else -1


def parse_json_lines(text: str) -> list:
    """All `FL-JSON {...}` objects in console text, in order."""
    out = []
    for line in text.splitlines():
        if line.startswith(JSON_TAG):
            out.append(json.loads(line[len(JSON_TAG):]))
    return out


def json_lines_apart(text: str) -> str:
    """text with every FL-JSON record at the start of a line: a job's
    output may follow the shell prompt on the same line."""
    return re.sub(r"(?m)^.*?(" + re.escape(JSON_TAG) + r"\{)", r"\1", text)
