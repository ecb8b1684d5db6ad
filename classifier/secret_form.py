"""One secret form (`Detector`) and the literal text a pattern needs.

A detector is a pattern, the literal text without which it cannot match (its
prefilter: redaction runs a pattern only on text holding one of its
literals), and how a match's secret span is found.  `required_literals`
derives the literals of any pattern from Python's own regex parser, so the
maintained set's patterns (maintained_forms.py) need no hand-written list.
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .lazyre import lazy_compile

MIN_LITERAL = 2  # a shorter required literal is no prefilter: the detector is skipped
MIN_GROUP = 8  # a capture group shorter than this is context, not the secret
_EDGE = " \t\"'=:,;"  # what a maintained pattern's match may carry around the secret


def _alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


@dataclass(frozen=True, slots=True)
class Detector:
    """One secret form: a pattern, the literal text without which it cannot
    match (one of `literals` is in every match; matched case-insensitively
    when `folded`), and how a match's secret span is found."""

    name: str
    regex: re.Pattern[str]
    literals: tuple[str, ...]
    source: str
    folded: bool = False
    # The secret's span in a match, or None when the match is not a secret.
    span: Callable[[re.Match[str]], tuple[int, int] | None] | None = field(
        default=None, compare=False
    )

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        pick = self.span or maintained_span
        for m in self.regex.finditer(text):
            found = pick(m)
            if found is not None and found[1] > found[0]:
                yield found


_NAMED = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]{2,40}[=:]\s*")


def maintained_span(m: re.Match[str]) -> tuple[int, int] | None:
    """A maintained pattern's secret: its first capture group when that is
    long enough and does not begin the match (`://user:(pw)@`), else the
    whole match, less separators around it; none when it starts or ends
    inside a longer word (a hash, an identifier)."""
    start, end = m.span()
    if m.re.groups and m.group(1) is not None:
        g0, g1 = m.span(1)
        if g1 - g0 >= MIN_GROUP and g0 > start:
            start, end = g0, g1
    text = m.string
    named = _NAMED.match(text, start, end)
    if named and end - named.end() >= MIN_GROUP:
        start = named.end()  # `AccountKey=<key>`: the name stays readable
    while start < end and text[start] in _EDGE:
        start += 1
    while end > start and text[end - 1] in _EDGE:
        end -= 1
    if start > 0 and _alnum(text[start]) and _alnum(text[start - 1]):
        return None
    if end < len(text) and _alnum(text[end - 1]) and _alnum(text[end]):
        return None
    return start, end


# -- the literal text a pattern needs ------------------------------------------------
def _parser() -> Any:
    import re._parser as parser  # type: ignore[import-not-found,unused-ignore]

    return parser


MAX_ALTERNATIVES = 64


def _alternatives(items: Any, p: Any) -> set[str] | None:
    """Every string a purely literal (sub)pattern matches, or None."""
    out = {""}
    for op, av in items:
        piece = _literal_piece(op, av, p)
        if piece is None or len(out) * len(piece) > MAX_ALTERNATIVES:
            return None
        out = {a + b for a in out for b in piece}
    return out


def _literal_piece(op: Any, av: Any, p: Any) -> set[str] | None:
    if op is p.LITERAL:
        return {chr(av)}
    if op is p.BRANCH:
        alts = [_alternatives(b, p) for b in av[1]]
        if all(a is not None for a in alts):
            return set().union(*(a for a in alts if a is not None))
        return None
    if op is p.SUBPATTERN:
        return _alternatives(av[-1], p)
    if op is p.IN:
        return _char_class(av, p)
    return None


MAX_CLASS = 16


def _char_class(av: Any, p: Any) -> set[str] | None:
    """The characters of a small class (`[pousr]`, `[\\dA-F]`), or None."""
    out: set[str] = set()
    for o, v in av:
        if o is p.LITERAL:
            out.add(chr(v))
        elif o is p.RANGE and v[1] - v[0] < MAX_CLASS:
            out |= {chr(c) for c in range(v[0], v[1] + 1)}
        elif o is p.CATEGORY and v is p.CATEGORY_DIGIT:
            out |= set("0123456789")
        else:
            return None
        if len(out) > MAX_CLASS:
            return None
    return out


def _prefixes(op: Any, av: Any, p: Any) -> set[str] | None:
    """The literal starts of a group or alternation whose every branch
    starts with literal text (`(?:A3T[A-Z0-9]|AKIA)` → {A3T, AKIA})."""
    if op is p.SUBPATTERN:
        branches = [av[-1]]
    elif op is p.BRANCH:
        branches = list(av[1])
    elif op in (p.MAX_REPEAT, p.MIN_REPEAT) and av[0] >= 1:
        branches = [av[2]]
    else:
        return None
    out: set[str] = set()
    for items in branches:
        starts = {""}
        for sub_op, sub_av in items:
            piece = _literal_piece(sub_op, sub_av, p)
            if piece is None:
                piece = _prefixes(sub_op, sub_av, p)
                if piece is not None and len(starts) * len(piece) <= MAX_ALTERNATIVES:
                    starts = {a + b for a in starts for b in piece}
                break
            if len(starts) * len(piece) > MAX_ALTERNATIVES:
                break
            starts = {a + b for a in starts for b in piece}
        if starts == {""}:
            return None
        out |= starts
    return out if len(out) <= MAX_ALTERNATIVES else None


def _better(a: set[str] | None, b: set[str] | None) -> set[str] | None:
    """The more selective of two literal sets (longer shortest literal, then fewer)."""
    if not a:
        return b
    if not b:
        return a
    ka = (min(map(len, a)), -len(a))
    kb = (min(map(len, b)), -len(b))
    return a if ka >= kb else b


def _required(items: Any, p: Any) -> set[str] | None:
    """A set of literals one of which is in every match of the (sub)pattern."""
    best: set[str] | None = None
    run = {""}
    for op, av in items:
        piece = _literal_piece(op, av, p)
        if piece is not None and len(run) * len(piece) <= MAX_ALTERNATIVES:
            run = {a + b for a in run for b in piece}
            continue
        starts = _prefixes(op, av, p)
        if starts is not None and len(run) * len(starts) <= MAX_ALTERNATIVES:
            best = _better(best, {a + b for a in run for b in starts})
        if run != {""}:
            best = _better(best, run)
        run = {""}
        sub: set[str] | None = None
        if op is p.SUBPATTERN:
            sub = _required(av[-1], p)
        elif op is p.BRANCH:
            parts = [_required(b, p) for b in av[1]]
            if all(parts):
                sub = set().union(*(x for x in parts if x))
        elif op in (p.MAX_REPEAT, p.MIN_REPEAT) and av[0] >= 1:
            sub = _required(av[2], p)
        best = _better(best, sub)
    if run != {""}:
        best = _better(best, run)
    return best


def required_literals(regex: re.Pattern[str]) -> tuple[str, ...]:
    """Literals one of which every match of `regex` contains (each at least
    MIN_LITERAL long), or () when the pattern has none."""
    p = _parser()
    try:
        found = _required(p.parse(regex.pattern, regex.flags), p)
    except Exception:  # an internal parser we read, not rely on
        return ()
    if not found or min(map(len, found)) < MIN_LITERAL:
        return ()
    return tuple(sorted(found))
