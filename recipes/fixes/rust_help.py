"""Rust (and gcc/clang's "expected ';' before ...", javac's "';' expected"): the compilers' helps read
off their text output as their JSON or parseable fix-its would give them.

`help: add `;` here` is MachineApplicable in rustc's JSON and points at the
end of the code on the reported line: the token is inserted there.  "a
function with a similar name exists" is MaybeIncorrect: it is an edit only
when the missing name appears once in the file (a slip of the keys: a name
used in several places was lost, and `decode` for every `encode` is no fix)
and the file's own declarations agree (the suggested name is the one
nearest to the missing one); otherwise a hint.  Pure."""

from __future__ import annotations

import re

from faultlens.classifier.columns import ColumnUnit, code_point_column
from faultlens.classifier.lazyre import lazy_compile

from ..model import TextEdit
from ..names.nearest import nearest
from . import go_brackets

# rustc: "expected `;`, found `y`" (or "found keyword `unsafe`", "found reserved identifier
# `_`", "found doc comment `/// x`"); gcc/clang: "expected ';' before 'return'" (gcc shows
# the `;` under its caret: its fix-it); javac: "';' expected"
_EXPECTED = lazy_compile(
    r"^(?:error: )?expected [`'\u2018](?P<tok>[;,)\]}])[`'\u2019]"
    r"(?:, found (?:keyword |reserved identifier |doc comment )?`[^`\n]{1,80}`"
    r"| (?:before|after) .{1,80}| at end of input)$"
    r"|^(?:error: )?'(?P<jtok>[;)\]])' expected$"  # javac, its caret just past the code
    r"|^(?P<ctok>;) expected$"  # C#'s CS1002 (mcs: at the next line's first token)
    # mcs's CS1525 at the next line's first token: "Unexpected symbol `}', expecting `;'", or a
    # statement's keyword, which no expression continues into
    r"|^Unexpected symbol `[^`'\n]{1,40}', expecting `(?P<mtok>;)'"
    r"|^Unexpected symbol `(?P<mkw>return|if|for|foreach|while|do|throw|break|continue|var)'$"
)
_SIMILAR = lazy_compile(r"with a similar name exists")
_DECLARED = lazy_compile(
    r"\b(?:let\s+(?:mut\s+)?|fn\s+|const\s+|static\s+|struct\s+|enum\s+|type\s+|"
    r"(?:^|[(,])\s*(?:mut\s+)?(?=\w+\s*:))(?P<v>[A-Za-z_]\w*)",
    re.MULTILINE,
)


# gcc/clang on `return` whose `;` was dropped before the block's `}`: "expected expression
# before '}' token" (a return with no value reads the `}` as its value)
_BARE_RETURN = lazy_compile(
    r"^(?:error: )?expected expression before [`'\u2018]\}[`'\u2019] token$"
)


def _bare_return(rel: str, lines: list[str], line1: int) -> tuple[str, TextEdit] | None:
    """`;` after a bare `return` ending the code line before the reported `}`."""
    if line1 > len(lines) or not lines[line1 - 1].lstrip().startswith("}"):
        return None
    before = next((i for i in range(line1 - 2, -1, -1) if lines[i].strip()), None)
    if before is None:
        return None
    end = go_brackets.end_of_code(lines[before])
    if not re.search(r"(?:^|[\s;{}])return$", lines[before][:end]):
        return None
    return ";", TextEdit(rel, before, end, before, end, ";")


def terminator_edit(
    message: str,
    rel: str,
    text: str,
    line1: int | None,
    col1: int | None,
    unit: ColumnUnit | None,
) -> tuple[str, TextEdit] | None:
    """(token, edit) for rustc's "expected `;`, found ..." at 1-based
    (line1, col1), when that place ends the code on its line."""
    if _BARE_RETURN.match(message) and line1 and line1 > 1:
        return _bare_return(rel, text.splitlines(), line1)
    m = _EXPECTED.match(message)
    if m is None or not line1 or not col1:
        return None
    lines = text.splitlines()
    if line1 > len(lines):
        return None
    line = lines[line1 - 1]
    at = code_point_column(line, col1 - 1, unit)
    tok = m.group("tok") or m.group("jtok") or m.group("ctok") or m.group("mtok")
    tok = tok or (";" if m.group("mkw") else "")
    indent = len(line) - len(line.lstrip())
    # mcs's CS1525 counts its column one short (`(145,8)` for the `}` after 8 spaces)
    slack = 1 if m.group("mtok") or m.group("mkw") else 0
    if tok == ";" and indent - slack <= at <= indent and line1 > 1:
        # mcs (and gcc before a `}`) put the caret on the token after the missing `;`: the
        # code line before it
        before = next((i for i in range(line1 - 2, -1, -1) if lines[i].strip()), None)
        if before is None or lines[before].lstrip().startswith(("//", "/*", "*", "#")):
            return None
        end = go_brackets.end_of_code(lines[before])
        if end == 0 or lines[before][end - 1] in "{};,":
            return None  # that line is complete: the `;` is missing elsewhere
        return tok, TextEdit(rel, before, end, before, end, tok)
    if m.group("mkw"):
        return None  # a keyword reported elsewhere than a line's start: not a lost `;`
    rest = line[at:].strip()
    if at <= 0 or at > len(line) or (rest and not rest.startswith("//")):
        return None
    return tok, TextEdit(rel, line1 - 1, at, line1 - 1, at, tok)


def unconfirmed_similar_name(said: str, text: str, name: str, suggested: str) -> bool:
    """Whether rustc's similar-name help (in `said`) for `name` lacks the
    file's agreement: `suggested` is not the one declared name nearest."""
    if not _SIMILAR.search(said):
        return False
    if len(re.findall(rf"(?<![\w.]){re.escape(name)}\b", text)) != 1:
        return True  # a name used in several places was lost, not mistyped
    declared = {m.group("v") for m in _DECLARED.finditer(text)} - {name}
    return suggested not in declared or nearest(name, declared) != suggested
