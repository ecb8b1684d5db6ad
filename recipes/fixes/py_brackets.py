"""Python: a bracket left open ("SyntaxError: '(' was never closed", 3.10
and later) closed where the statement ends: the closer is put at the end of
each non-blank line from the opener's on (at most WINDOW lines), and the
edit is made only when exactly one of those places makes the file parse
(or, of several, exactly one takes no line indented less than the opener's).
Pure."""

from __future__ import annotations

import ast
import re

from ..model import TextEdit

WINDOW = 30
MAX_TEXT = 1024 * 1024
_NEVER_CLOSED = re.compile(r"SyntaxError: '(?P<b>[(\[{])' was never closed")
_CLOSER = {"(": ")", "[": "]", "{": "}"}


def opener(message: str) -> str | None:
    m = _NEVER_CLOSED.search(message)
    return m.group("b") if m else None


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def close_edit(rel: str, text: str, line1: int | None, bracket: str) -> TextEdit | None:
    """The one insertion of `bracket`'s closer that makes `text` parse; of
    several, the one place that keeps every line it takes into the brackets
    indented at least as deep as the opener's line (toolz's
    `return sig.replace(parameters=newparams` also parses closed after the
    next method's `@instanceproperty`, read as a matrix product)."""
    if not line1 or len(text) > MAX_TEXT or bracket not in _CLOSER:
        return None
    closer = _CLOSER[bracket]
    lines = text.splitlines(keepends=True)
    found: list[tuple[TextEdit, bool]] = []
    if not 0 < line1 <= len(lines):
        return None
    floor = _indent(lines[line1 - 1])
    nested = True  # every line taken in so far is indented at least to `floor`
    for i in range(line1 - 1, min(len(lines), line1 - 1 + WINDOW)):
        body = lines[i].rstrip("\r\n")
        code = body.rstrip()
        if i >= line1 and code.strip() and _indent(code) < floor:
            nested = False
        if not code.strip() or code.lstrip().startswith("#") or "#" in code:
            continue
        candidate = "".join([*lines[:i], code + closer + lines[i][len(code) :], *lines[i + 1 :]])
        if _parses(candidate):
            found.append((TextEdit(rel, i, len(code), i, len(code), closer), nested))
    if len(found) > 1:
        found = [f for f in found if f[1]]
    return found[0][0] if len(found) == 1 else None
