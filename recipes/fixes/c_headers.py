"""C/C++: the workspace header that defines what the compiler cannot find
(`unknown type name 'cJSON'`, `'X' undeclared`, `implicit declaration of
function 'f'`, `expected declaration specifiers before 'X'` after a macro of
that header): the identifiers on the reported line that the file does not
define itself, looked up as `#define NAME`, a `typedef` or a `struct`/`enum`
tag in the workspace's headers; exactly one header not yet included is
`#include "path"`, relative to the source's folder.  Pure but for reading the
workspace's headers (bounded)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .scan import read_small, walk_sources

MAX_HEADERS = 500
_TRIGGER = re.compile(
    r"unknown type name|undeclared|implicit declaration of function|"
    r"expected declaration specifiers|expected [‘'][=,;{)(]|has no member|incomplete type"
)
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_KEYWORDS = frozenset(
    [
        "auto",
        "break",
        "case",
        "char",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extern",
        "float",
        "for",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "register",
        "restrict",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "struct",
        "switch",
        "typedef",
        "union",
        "unsigned",
        "void",
        "volatile",
        "while",
    ]
)


def _definitions(name: str) -> re.Pattern[str]:
    n = re.escape(name)
    return re.compile(
        rf"^\s*#\s*define\s+{n}\b|\btypedef\b[^;]*\b{n}\s*;|^\s*}}\s*{n}\s*;|"
        rf"\b(?:struct|enum|union)\s+{n}\s*\{{",
        re.MULTILINE,
    )


def header_for(root: Path, source: Path, text: str, line1: int | None, message: str) -> str | None:
    """The `#include "..."` argument (quoted) of the one workspace header
    defining what the reported line uses, or None."""
    if not line1 or not _TRIGGER.search(message):
        return None
    lines = text.splitlines()
    if line1 > len(lines):
        return None
    names = [n for n in dict.fromkeys(_IDENT.findall(lines[line1 - 1])) if n not in _KEYWORDS]
    names = [n for n in names if not _definitions(n).search(text)]
    if not names:
        return None
    headers = []
    for n, path in enumerate(walk_sources(root, (".h", ".hpp", ".hh"))):
        if n >= MAX_HEADERS:
            break
        headers.append(path)
    found: set[Path] = set()
    for path in headers:
        body = read_small(path) or ""
        if any(name in body and _definitions(name).search(body) for name in names):
            found.add(path)
    if len(found) != 1:
        return None
    header = found.pop()
    rel = os.path.relpath(header, source.parent).replace(os.sep, "/")
    if rel.startswith("../../") or re.search(rf'#\s*include\s*[<"]{re.escape(rel)}[>"]', text):
        return None
    return f'"{rel}"'
