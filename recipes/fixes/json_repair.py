"""Invalid JSON with one obvious repair (pure).

Three kinds of repair are tried, each on its own:

* `trailing-comma`: every `,` directly before a `}` or `]` is removed;
* `missing-comma`: a `,` is inserted where a value ends a line and the next
  line starts another member or element (`"a": 1⏎ "b": 2`);
* `missing-closer`: the brackets still open at the end of the file are
  closed, innermost first.

A repair counts only when the repaired text parses (`json.loads`).  The
result is unambiguous when exactly one kind makes the text parse; anything
else (none, or several, or a file that needs two kinds) is for a human.
The repair is returned as minimal text edits (commas removed or inserted,
closers appended), never as a rewrite of the file.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

from ..edits import apply_to_text, line_starts
from ..model import TextEdit

_VALUE_END = frozenset('"0123456789}]el')  # "…", numbers, }, ], true/false, null
_VALUE_START = frozenset('"{[-0123456789tfn')


@dataclass(slots=True)
class Repair:
    kind: str
    edits: list[TextEdit]
    description: str


def _scan(text: str) -> tuple[list[tuple[int, str]], list[str]]:
    """The structural characters outside strings (offset, char) and the
    brackets still open at the end."""
    tokens: list[tuple[int, str]] = []
    stack: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            tokens.append((i, '"'))
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            tokens.append((min(i, n - 1), '"end'))
            i += 1
            continue
        if c in "{[":
            stack.append(c)
        elif c in "}]" and stack:
            stack.pop()
        if not c.isspace():
            tokens.append((i, c))
        i += 1
    return tokens, stack


def _edit(text: str, starts: list[int], start: int, end: int, new: str) -> TextEdit:
    def pos(offset: int) -> tuple[int, int]:
        line = max(i for i, s in enumerate(starts) if s <= offset)
        return line, offset - starts[line]

    (sl, sc), (el, ec) = pos(start), pos(end)
    return TextEdit("", sl, sc, el, ec, new)


def _trailing_commas(text: str, tokens: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    out = []
    for (off, c), (_, nxt) in itertools.pairwise(tokens):
        if c == "," and nxt in "}]":
            out.append((off, off + 1, ""))
    return out


def _missing_commas(text: str, tokens: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    out = []
    for (off, c), (nxt_off, nxt) in itertools.pairwise(tokens):
        ends_value = c == '"end' or (c != '"' and c in _VALUE_END)
        starts_value = nxt == '"' or (nxt != '"end' and nxt in _VALUE_START)
        if ends_value and starts_value and "\n" in text[off + 1 : nxt_off]:
            out.append((off + 1, off + 1, ","))
    return out


def _closers(text: str, stack: list[str]) -> list[tuple[int, int, str]]:
    if not stack:
        return []
    body = text.rstrip()
    closing = "".join("}" if b == "{" else "]" for b in reversed(stack))
    tail = text[len(body) :]
    return [(len(body), len(text), "\n" + "\n".join(closing) + (tail if tail else "\n"))]


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def candidates(text: str) -> list[Repair]:
    """Every kind of repair that, alone, makes the text parse."""
    if _parses(text):
        return []
    tokens, stack = _scan(text)
    starts = line_starts(text)
    kinds = (
        ("trailing-comma", _trailing_commas(text, tokens), "remove the trailing comma(s)"),
        ("missing-comma", _missing_commas(text, tokens), "insert the missing comma(s)"),
        ("missing-closer", _closers(text, stack), "close the brackets left open at the end"),
    )
    found: list[Repair] = []
    for kind, spans, description in kinds:
        if not spans:
            continue
        edits = [_edit(text, starts, s, e, new) for s, e, new in spans]
        if _parses(apply_to_text(text, edits)):
            found.append(Repair(kind, edits, f"{description} ({len(spans)} place(s))"))
    return found


def unambiguous_repair(text: str) -> Repair | None:
    """The one repair of the text, or None (valid already, none, or several)."""
    found = candidates(text)
    return found[0] if len(found) == 1 else None
