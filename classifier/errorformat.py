"""Vim's 'errorformat', compiled to Python regular expressions.

People already describe their tools' output in this language (Vim's
:compiler plugins, efm-langserver, reviewdog), so a project rule may be
written as an errorformat instead of a regex.  Supported:

* conversions: %f file, %l line, %e end line, %c column, %k end column,
  %m message, %n error number, %t type character (e/w/i/n), %r rest of line,
  %p pointer line (its length gives the column), %v virtual column, %s search
  text, %*{conv} skipped conversion (`%*\\d`, `%*[^:]`), %% a percent,
  %. and %# (Vim's `.` and `*`), %\\ a backslash, %[ a character class;
* prefixes: %E %W %I %N (start of a multi-line entry of that type), %A
  (start, type from %t), %C (continuation), %Z (end), %G (general message),
  %- (ignore the line: `%-G%.%#` ignores everything else), %+ (keep the whole
  line as message);
* several formats in one string, separated by unescaped commas, or a list.

Not supported (they describe directory and file stacks that need state
across lines of other formats): %D %X %O %P %Q; a rule using them is
rejected with a message saying so.

Pure: compile() turns a format into :class:`Pattern` objects; matching is
done by the project-rule adapter in classifier/config.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CONV: dict[str, str] = {
    "f": r"(?P<file>\S+?)",
    "l": r"(?P<line>\d+)",
    "e": r"(?P<end_line>\d+)",
    "c": r"(?P<column>\d+)",
    "k": r"(?P<end_column>\d+)",
    "v": r"(?P<column>\d+)",
    "n": r"(?P<code>\d+)",
    "m": r"(?P<message>.*?)",
    "t": r"(?P<type>.)",
    "r": r"(?P<rest>.*)",
    "p": r"(?P<pointer>[-\s.]*)",
    "s": r"(?P<search>.+?)",
}
_UNSUPPORTED = set("DXOPQ")
_KINDS = set("EWINACZG")


class ErrorformatError(ValueError):
    """An errorformat that cannot be compiled; the message says why."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """One compiled format of an errorformat."""

    source: str
    kind: str  # "" (single line), or one of E W I N A C Z G
    ignore: bool  # %- : the line is dropped
    whole_line: bool  # %+ : the whole line becomes the message
    regex: re.Pattern[str]
    literals: tuple[str, ...]  # literal runs every matching line contains


def split(efm: str | list[str]) -> list[str]:
    """The formats of an errorformat: a list as given, or a string split at
    unescaped commas (`\\,` is a literal comma)."""
    if isinstance(efm, list):
        return [str(x) for x in efm]
    parts, cur, i = [], [], 0
    while i < len(efm):
        ch = efm[i]
        if ch == "\\" and i + 1 < len(efm) and efm[i + 1] == ",":
            cur.append(",")
            i += 2
            continue
        if ch == ",":
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return [p for p in parts if p]


def compile_format(fmt: str) -> Pattern:
    """Compile one format (`%E%f:%l: %m`) to a Pattern."""
    i = 0
    kind = ""
    ignore = whole = False
    # prefix: %E, or %- / %+ directly followed by the kind letter (%-G, %+C)
    if fmt.startswith("%", 0) and len(fmt) > 1 and fmt[1] in "-+":
        ignore, whole = fmt[1] == "-", fmt[1] == "+"
        i = 2
        if i < len(fmt) and fmt[i] in _KINDS | _UNSUPPORTED:
            kind = fmt[i]
            i += 1
    elif fmt.startswith("%", 0) and len(fmt) > 1 and fmt[1] in _KINDS | _UNSUPPORTED:
        kind = fmt[1]
        i = 2
    if kind in _UNSUPPORTED:
        raise ErrorformatError(f"%{kind} (directory/file stacks) is not supported")
    out: list[str] = []
    literals: list[str] = []
    lit: list[str] = []
    seen: set[str] = set()

    def flush() -> None:
        if lit:
            literals.append("".join(lit))
            lit.clear()

    while i < len(fmt):
        ch = fmt[i]
        if ch != "%":
            out.append(re.escape(ch))
            lit.append(ch)
            i += 1
            continue
        if i + 1 >= len(fmt):
            raise ErrorformatError("a lone % at the end")
        c = fmt[i + 1]
        i += 2
        if c == "%":
            out.append("%")
            lit.append("%")
            continue
        flush()
        if c in _CONV:
            group = _CONV[c]
            name = re.search(r"\?P<(\w+)>", group)
            if name and name.group(1) in seen:
                group = re.sub(r"\?P<\w+>", "?:", group)  # a second %l etc. is only matched
            elif name:
                seen.add(name.group(1))
            out.append(group)
        elif c == ".":
            out.append(".")
        elif c == "#":
            if not out:
                raise ErrorformatError("%# with nothing before it")
            out[-1] = f"(?:{out[-1]})*"
        elif c == "\\":
            if i < len(fmt):
                out.append("\\" + fmt[i])
                i += 1
            else:
                out.append(r"\\")
        elif c == "[":
            end = fmt.find("]", i + 1 if i < len(fmt) and fmt[i] == "^" else i)
            if end < 0:
                raise ErrorformatError("%[ without a closing ]")
            out.append("[" + fmt[i : end + 1])
            i = end + 1
        elif c == "*":
            skipped, i = _skip_conversion(fmt, i)
            out.append(skipped)
        elif c in _UNSUPPORTED:
            raise ErrorformatError(f"%{c} (directory/file stacks) is not supported")
        else:
            raise ErrorformatError(f"unknown conversion %{c}")
    flush()
    try:
        regex = re.compile("^" + "".join(out) + "$")
    except re.error as exc:
        raise ErrorformatError(f"does not compile: {exc}") from None
    return Pattern(fmt, kind, ignore, whole, regex, tuple(x for x in literals if x.strip()))


def _skip_conversion(fmt: str, i: int) -> tuple[str, int]:
    """`%*` followed by a conversion whose text is matched and dropped."""
    if fmt.startswith("[", i):
        end = fmt.find("]", i + 2)
        if end < 0:
            raise ErrorformatError("%*[ without a closing ]")
        return f"{fmt[i : end + 1]}*", end + 1
    if fmt.startswith("\\", i) and i + 1 < len(fmt):
        return f"\\{fmt[i + 1]}*", i + 2
    if i < len(fmt) and fmt[i] in _CONV:
        return ".*?", i + 1
    raise ErrorformatError("%* must be followed by a conversion")


def compile_errorformat(efm: str | list[str]) -> list[Pattern]:
    """Every format of an errorformat, compiled, in order."""
    formats = split(efm)
    if not formats:
        raise ErrorformatError("empty errorformat")
    compiled = []
    for f in formats:
        try:
            compiled.append(compile_format(f))
        except ErrorformatError as exc:
            raise ErrorformatError(f"{f!r}: {exc}") from None
    return compiled
