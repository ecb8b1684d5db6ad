"""JavaScript/TypeScript: the names visible at a line, as tsserver's "Change
spelling to" reads them, from a bounded scan (no parser).

The file's code (comments and strings blanked) is walked brace by brace; a
`{` opens a function body when it follows `=>`, or a `)` whose `(` follows
`function [name]` or a method's name (not `if`, `for`, `while`, `switch`,
`catch`, `with`), a TypeScript return type between them (`): T | undefined {`,
`): Promise<X> =>`) and type parameters before the `(` (`f<T>(`) read past.
The names visible inside a function are the ones its
outermost enclosing function binds (parameters and declarations, nested
functions' included: a tie then refuses, never a guess) and the ones the
file binds outside every function.  Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from faultlens.classifier.lazyre import lazy_compile

from . import js_names
from .nearest import ranked

_NOT_A_FUNCTION = frozenset(["if", "for", "while", "switch", "catch", "with", "return", "typeof"])
_WORD_BEFORE = re.compile(r"([A-Za-z_$][\w$]*)\s*$")
_THROWS = re.compile(r"(?<=\))\s*throws\s+[\w.]+(?:\s*,\s*[\w.]+)*$")
_ACCESSOR = re.compile(r"(?:^|[\s;{}\]])(get|set|init)$")
_ARROW_PARAM = re.compile(r"([A-Za-z_$][\w$]*)\s*=>\s*$")
# TypeScript: a return type after the parameters' `)` (names, `|`, `&`, `<>`, `[]`,
# `.`, literals, `x is T`); a type in braces or parentheses is not read
_RETURN_TYPE = lazy_compile(r"(?<=\))\s*:\s*[A-Za-z_$'\"][\w$.<>\[\]|&,\s'\"?]*$")
_TYPE_PARAMS = lazy_compile(r"<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>\s*$")
MAX_DEPTH = 200
MAX_TYPE = 240


@dataclass(frozen=True)
class Region:
    """A function: its parameters' start (`(` or an arrow's lone parameter)
    to its body's closing `}` (offsets into the code, end inclusive)."""

    start: int
    end: int


def _matching_open(code: str, close: int) -> int:
    depth = 0
    for i in range(close, -1, -1):
        if code[i] == ")":
            depth += 1
        elif code[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _past_return_type(before: str) -> str:
    """`before` up to its parameters' `)` when a TypeScript return type
    follows it (looked for in the last MAX_TYPE characters only)."""
    m = _RETURN_TYPE.search(before, max(0, len(before) - MAX_TYPE))
    return before[: m.start()] if m else before


def _header_start(code: str, brace: int) -> int:
    """Where the function whose body opens at `brace` starts its parameters,
    or -1 when the `{` opens another block."""
    before = _THROWS.sub("", code[:brace].rstrip())  # Java's `f() throws IOException {`
    before = _past_return_type(before)
    if before.endswith("=>"):
        arrow = _past_return_type(before[:-2].rstrip())
        if arrow.endswith(")"):
            return _matching_open(code, len(arrow) - 1)
        m = _ARROW_PARAM.search(before)
        return m.start(1) if m else -1
    accessor = _ACCESSOR.search(before)  # C#'s property accessors: `set { m_Data = value; }`
    if accessor:
        return accessor.start(1)
    if before.endswith(")"):  # TypeScript's `): T {` is not told apart: no function
        open_at = _matching_open(code, len(before) - 1)
        if open_at < 0:
            return -1
        head = _TYPE_PARAMS.sub("", code[:open_at])
        m = _WORD_BEFORE.search(head)
        word = m.group(1) if m else ""
        if word in _NOT_A_FUNCTION:
            return -1
        if word or head.rstrip().endswith("function"):
            return open_at
    return -1


def functions(code: str) -> list[Region]:
    """The file's functions, outer ones before the ones they hold."""
    stack: list[int] = []  # each open `{`'s function start, or -1
    out: list[Region] = []
    for i, ch in enumerate(code):
        if ch == "{":
            if len(stack) >= MAX_DEPTH:
                return []
            stack.append(_header_start(code, i))
        elif ch == "}" and stack:
            start = stack.pop()
            if start >= 0:
                out.append(Region(start, i))
    return sorted(out, key=lambda r: (r.start, -r.end))


def visible_at(text: str, offset: int) -> tuple[set[str], str] | None:
    """(the names visible at `offset` of `text`, the code of its innermost
    function) when the offset lies in a function; None at the top level."""
    code = js_names.code_only(text)
    regions = functions(code)
    around = [r for r in regions if r.start <= offset <= r.end]
    if not around:
        return None
    outer, inner = around[0], around[-1]
    top = list(code)
    for r in regions:
        if not any(o.start < r.start and r.end < o.end for o in regions):
            top[r.start : r.end + 1] = re.sub(r"[^\n]", " ", code[r.start : r.end + 1])
    names = js_names.declared("".join(top)) | _declared_in(code[outer.start : outer.end + 1])
    return names, code[inner.start : inner.end + 1]


def _declared_in(region: str) -> set[str]:
    # the region starts at its parameters: `(a, b) {` reads as a function's
    return js_names.declared("function " + region)


def place(text: str, line1: int | None, col1: int | None = None) -> int | None:
    """The offset in `text` of 1-based `line1`, at 1-based `col1` of it, else
    at the start of its code (None: no such line)."""
    if not line1:
        return None
    lines = text.split("\n")
    if line1 > len(lines):
        return None
    line = lines[line1 - 1]
    at = col1 - 1 if col1 and 0 < col1 <= len(line) else len(line) - len(line.lstrip())
    return sum(len(x) + 1 for x in lines[: line1 - 1]) + at


def near_misses_in_function(
    text: str, line1: int | None, name: str, col1: int | None = None
) -> list[str]:
    """The names visible at 1-based `line1` nearest to `name` (one or two
    edits; several on a tie), when `name` appears once in its function and no
    visible binding has it; else none."""
    offset = place(text, line1, col1)
    if offset is None:
        return []
    found = visible_at(text, offset)
    if found is None:
        return []
    names, inner = found
    if name in names:
        return []
    if len(re.findall(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", inner)) != 1:
        return []
    return ranked(name, (names | js_names.globals_of_node()) - {name})


def _occurrences(name: str, code: str) -> list[int]:
    return [m.start() for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", code)]


def misspelt_declaration(text: str, line1: int | None, name: str) -> tuple[int, str] | None:
    """(offset, the name declared there) of the one binding of the function
    at 1-based `line1` that misspells `name`, used twice or more there and
    bound nowhere visible: the function's own binding nearest to `name` (one
    or two edits, no other visible name as near) that appears once in the
    function, declared and never read.  The declaration is then the typo
    (cookie's `let sr = ...` and fourteen uses of `str`), not each use."""
    offset = place(text, line1)
    if offset is None or len(text) > js_names.MAX_TEXT:
        return None
    found = visible_at(text, offset)
    if found is None or name in found[0]:
        return None
    code = js_names.code_only(text)
    outer = next(r for r in functions(code) if r.start <= offset <= r.end)
    body = code[outer.start : outer.end + 1]
    if len(_occurrences(name, body)) < 2:
        return None  # one use and one binding: the use is the one to change
    near = ranked(name, (found[0] | js_names.globals_of_node()) - {name})
    if len(near) != 1 or near[0] not in _declared_in(body):
        return None
    hits = _occurrences(near[0], body)
    return (outer.start + hits[0], near[0]) if len(hits) == 1 else None
