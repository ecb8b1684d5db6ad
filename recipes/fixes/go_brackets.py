"""Go (and JavaScript, by `node --check`): a closing parenthesis or bracket dropped at a line's end ("syntax
error: unexpected newline in argument list; possibly missing comma or )",
or "unexpected }" on the line after): the closer put at the end of the
reported line or of the code line before it, when exactly one of those
places makes the file parse (`gofmt -e` on a temporary copy, never the
workspace file)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable

from ..model import TextEdit
from ..names import probe
from ..names.go_names import code_only

TIMEOUT = 20.0
# the compiler's "syntax error: unexpected ..." and go/parser's (go list, before the compiler
# runs): "expected 'STRING', found 'type'" when an import block's `)` was dropped
_SYNTAX = re.compile(
    r"syntax error: unexpected (?:newline|\}|\)|\]|[\w\"]+)|expected '[\w;,)\]}]+', found '\w+'"
)
CLOSERS = (")", "]", "}")


def is_syntax_error(message: str) -> bool:
    return _SYNTAX.search(message) is not None


def checker(argv: list[str], suffix: str) -> Callable[[str], bool]:
    """Whether a text parses, by `argv + [a temporary copy]` exiting 0."""

    def parses(text: str) -> bool:
        with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False, encoding="utf-8") as fh:
            fh.write(text)
            name = fh.name
        try:
            return probe.run([*argv, name], TIMEOUT) is not None
        finally:
            os.unlink(name)

    return parses


def _gofmt_parses(text: str) -> bool:
    gofmt = shutil.which("gofmt")
    return gofmt is not None and checker([gofmt, "-e"], ".go")(text)


def end_of_code(line: str) -> int:
    """Where a line's code ends, a string at its end included (the blanked
    code ends before `'option maxAge is invalid'`) and a `//` or `/*` comment
    outside strings left out."""
    quote, last, i = "", 0, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote, last = "", i + 1
        elif c in "'\"`":
            quote = c
        elif line.startswith(("//", "/*"), i):
            break
        elif not c.isspace():
            last = i + 1
        i += 1
    return last


def _is_code(blanked: str, line: str) -> bool:
    """Whether a line holds code: its blanked form, or a string alone (an import's
    `"strings"`, blanked to nothing)."""
    return bool(blanked.strip()) or line.lstrip().startswith(('"', "`", "'"))


def close_edit(
    rel: str,
    text: str,
    line1: int | None,
    parses: Callable[[str], bool] = _gofmt_parses,
    code: list[str] | None = None,
) -> tuple[str, TextEdit] | None:
    """(closer, edit) of the one line end and closer that make `text` parse
    (by `parses`; `code`: the text's lines with strings and comments blanked)."""
    if not line1:
        return None
    lines = text.splitlines(keepends=True)
    code = code if code is not None else code_only(text).splitlines()
    if line1 > len(lines):
        return None
    at = [line1 - 1]
    before = next((i for i in range(line1 - 2, -1, -1) if _is_code(code[i], lines[i])), None)
    if before is not None:
        at.insert(0, before)
    found: list[tuple[str, TextEdit]] = []
    for i in at:
        if not _is_code(code[i], lines[i]):
            continue
        end = max(len(code[i].rstrip()), end_of_code(lines[i]))
        for closer in CLOSERS:
            line = lines[i]
            candidate = "".join([*lines[:i], line[:end] + closer + line[end:], *lines[i + 1 :]])
            if parses(candidate):
                found.append((closer, TextEdit(rel, i, end, i, end, closer)))
                if len(found) > 1:
                    return None
    return found[0] if found else None
