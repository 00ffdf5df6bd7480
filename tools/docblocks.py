"""Generated blocks in Markdown docs.

A doc quotes figures that a tool produces between two markers:

    <!-- begin:NAME -->
    ...written by the tool, never by hand...
    <!-- end:NAME -->

`replace_block` rewrites what lies between them, so `make docs-results`
can refresh every quoted figure from the same run, and a test can check
that the committed text is what the tool renders from the committed data.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Union


class BlockError(ValueError):
    pass


def _pattern(name: str) -> "re.Pattern[str]":
    return re.compile(rf"(<!-- begin:{re.escape(name)} -->\n)(.*?)(<!-- end:{re.escape(name)} -->)",
                      re.DOTALL)


def block(text: str, name: str) -> str:
    """The text between NAME's markers (BlockError if they are missing)."""
    m = _pattern(name).search(text)
    if not m:
        raise BlockError(f"no <!-- begin:{name} --> ... <!-- end:{name} --> block")
    return m.group(2)


def replace_block(text: str, name: str, body: str) -> str:
    if not body.endswith("\n"):
        body += "\n"
    block(text, name)           # raises if absent
    return _pattern(name).sub(lambda m: m.group(1) + body + m.group(3), text, count=1)


def rewrite(path: Union[str, Path], blocks: dict) -> list:
    """Rewrites the named blocks of one file; returns the names changed."""
    path = Path(path)
    text = path.read_text()
    new = text
    for name, body in blocks.items():
        new = replace_block(new, name, body)
    if new != text:
        path.write_text(new)
    return [n for n in blocks if block(text, n) != block(new, n)]
