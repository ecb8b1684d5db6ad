"""Go: what a standard package exports (`go doc -short <path>`, asked of the
installed toolchain once per package and process), the selectors a file
reads off a name (`fs.Open`), and the names the file declares (its locals,
parameters, receivers, top-level functions, types, constants and
variables), so that an undefined name is taken for a missing package only
when the package has everything the file uses of it, and otherwise for the
misspelling of a name the file declares."""

from __future__ import annotations

import re
import shutil
from functools import lru_cache

from ..safety import valid
from . import probe
from .nearest import nearest

TIMEOUT = 20.0
_DOC_LINE = re.compile(r"^(?:func|type|var|const)\s+(?:\([^)]*\)\s*)?([A-Z]\w*)", re.MULTILINE)
_STRING_OR_COMMENT = re.compile(r'"(?:\\.|[^"\\\n])*"|`[^`]*`|//[^\n]*|/\*.*?\*/', re.DOTALL)
_DECLARED = (
    re.compile(r"\b((?:[A-Za-z_]\w*\s*,\s*)*[A-Za-z_]\w*)\s*:="),
    re.compile(r"\b(?:var|const|type|func)\s+([A-Za-z_]\w*)"),
    re.compile(r"\bfunc\s*\(\s*([A-Za-z_]\w*)\s+\*?[A-Za-z_]"),  # a receiver
    re.compile(r"[(,]\s*([A-Za-z_]\w*)\s+(?:\.\.\.)?[*\[\]]*(?:map\[|func\b|chan\b)?[A-Za-z_]"),
)
KEYWORDS = frozenset(
    [
        "break",
        "case",
        "chan",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "fallthrough",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "interface",
        "map",
        "package",
        "range",
        "return",
        "select",
        "struct",
        "switch",
        "type",
        "var",
    ]
)


@lru_cache(maxsize=256)
def package_exports(path: str) -> frozenset[str] | None:
    """The exported names of standard package `path`; None when go cannot say."""
    go = shutil.which("go")
    if go is None or not valid("go_import", path):
        return None
    out = probe.run([go, "doc", "-short", path], TIMEOUT)
    if out is None:
        return None
    return frozenset(_DOC_LINE.findall(out))


_BUILTIN_LINE = re.compile(r"^(?:func|type|var|const)\s+([A-Za-z_]\w*)", re.MULTILINE)


@lru_cache(maxsize=1)
def predeclared() -> frozenset[str]:
    """Go's predeclared names (`int16`, `len`, `nil`), from `go doc builtin`."""
    go = shutil.which("go")
    out = probe.run([go, "doc", "-all", "builtin"], TIMEOUT) if go else None
    names = set(_BUILTIN_LINE.findall(out or ""))
    for m in re.finditer(r"^const\s+\(?([^\n]*)", out or "", re.MULTILINE):
        names.update(re.findall(r"\b[a-z]\w*\b", m.group(1).split("=")[0]))
    return frozenset(n for n in names if n[:1].islower())


def code_only(text: str) -> str:
    """`text` with its strings and comments blanked (same length, same lines)."""
    return _STRING_OR_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def selectors(text: str, name: str) -> set[str]:
    """What the file reads off `name` (`name.Sel`)."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\.([A-Za-z_]\w*)")
    return set(pattern.findall(code_only(text)))


def declared(text: str) -> set[str]:
    code = code_only(text)
    out: set[str] = set()
    for pattern in _DECLARED:
        for m in pattern.finditer(code):
            out.update(n.strip() for n in m.group(1).split(","))
    return {n for n in out if n and n not in KEYWORDS and n != "_"}


def fits_package(text: str, name: str, path: str) -> bool:
    """Whether every selector the file uses on `name` is exported by `path`
    (a package go cannot describe fits when nothing is read off the name)."""
    used = selectors(text, name)
    exports = package_exports(path)
    if exports is None:
        return True
    return bool(used) and used <= exports


def function_at(text: str, line1: int | None) -> tuple[int, int] | None:
    """The 0-based [first, last] lines of the top-level function around
    1-based `line1` (from its `func` line to its closing `}` in column 0)."""
    if not line1:
        return None
    lines = text.splitlines()
    start = next(
        (i for i in range(min(line1, len(lines)) - 1, -1, -1) if lines[i].startswith("func ")), None
    )
    if start is None:
        return None
    end = next((i for i in range(line1 - 1, len(lines)) if lines[i].startswith("}")), None)
    return None if end is None else (start, end)


def _uses(code_lines: list[str], first: int, last: int, name: str) -> list[tuple[int, int]]:
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
    return [(i, m.start()) for i in range(first, last + 1) for m in pattern.finditer(code_lines[i])]


def respell(
    text: str, line1: int | None, name: str
) -> tuple[str, str, list[tuple[int, int]]] | None:
    """(wrong, right, places) for an undefined `name` at `line1`: the one name
    declared in its function or at the top level one or two edits away.
    When that name is written once in the function (its declaration was the
    slip, `valeu []int` for the `value` used below), the declaration is
    respelt; otherwise the function's uses of `name`."""
    span = function_at(text, line1)
    if span is None:
        return None
    code_lines = code_only(text).splitlines()
    first, last = span
    local = "\n".join(code_lines[first : last + 1])
    top = "\n".join(ln for ln in code_lines if not ln.startswith(("\t", " ")))
    better = nearest(name, (declared(local) | declared(top) | predeclared()) - {name})
    if better is None:
        return None
    mine = _uses(code_lines, first, last, better)
    if len(mine) == 1 and better in declared(local):
        return better, name, mine
    places = _uses(code_lines, first, last, name)
    return (name, better, places) if places else None
