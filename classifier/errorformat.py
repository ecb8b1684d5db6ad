"""Vim's 'errorformat', compiled the way Vim compiles it.

People already describe their tools' output in this language (Vim's
:compiler plugins, efm-langserver, reviewdog), so a project rule may be an
errorformat.  Every item of `:help errorformat` is understood:

* conversions %f %l %e %c %k %m %n %t %r %p %v %s %o, `%*{conv}` (`%*\\d`,
  `%*[^:]`), %% %. %# %^ %$ %~ %[ and `%\\` (which lets a format hold any Vim
  regex item: `%\\s%#`, `%\\{-1,}`, `%\\@=`, `%\\&`);
* prefixes %E %W %I %N %A %C %Z %G, the file stacks %P %Q %O, the directory
  stack %D %X, the flags %- and %+, and %> (continue with this format);
* several formats in one value, separated by unescaped commas (`\\,` is a
  comma inside a format), or one format per list item.

Each format becomes a Vim pattern exactly as `efm_to_regpat` in Vim's
quickfix.c builds it (`%f` is `.\\{-1,}` before a literal, `\\f\\+` before
`%`/`\\`, `.\\+` at the end; `%m` is `.\\+`; ...), and the pattern is
translated by classifier/vimregex.py; what Vim refuses is refused here with
a message saying why.  Matching is done by classifier/quickfix.py.  Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import regex

from .vimregex import VimRegexError, translate

# The conversions in Vim's order (quickfix.c fmt_pat): the order in which a
# match's fields are read, and the Vim pattern each stands for.
CONVERSIONS: tuple[tuple[str, str], ...] = (
    ("f", r".\+"),
    ("n", r"\d\+"),
    ("l", r"\d\+"),
    ("e", r"\d\+"),
    ("c", r"\d\+"),
    ("k", r"\d\+"),
    ("t", "."),
    ("m", r".\+"),
    ("r", ".*"),
    ("p", "[-\t .]*"),
    ("v", r"\d\+"),
    ("s", r".\+"),
    ("o", r".\+"),
)
_CONV = dict(CONVERSIONS)
_ORDER = {c: i for i, (c, _) in enumerate(CONVERSIONS)}
PREFIXES = "DXAEWINCZGOPQ"
FILE_PREFIXES = "DXOPQ"


class ErrorformatError(ValueError):
    """An errorformat Vim would refuse (or one that needs an editor); the message says why."""


@dataclass(frozen=True, slots=True)
class Format:
    """One compiled format of an errorformat."""

    source: str  # the format as written
    prefix: str  # "" or one of PREFIXES
    flags: str  # "", "-" or "+"
    conthere: bool  # %>
    groups: tuple[tuple[str, int], ...]  # (conversion, group number), in Vim's order
    vim_pattern: str
    regex: regex.Pattern[str]
    literals: tuple[str, ...] = field(default=())  # text every matching line holds

    @property
    def kind(self) -> str:
        return self.prefix

    @property
    def ignore(self) -> bool:
        return self.flags == "-"


def split(efm: str | list[str]) -> list[str]:
    """The formats of an errorformat (see :func:`parts`)."""
    return [f for f, _ in parts(efm)]


def parts(efm: str | list[str]) -> list[tuple[str, str]]:
    """The formats of an errorformat, each with the character that follows
    it in the value, as Vim's parse_efm_option isolates them: a list as
    given; a string cut at unescaped commas, the spaces after each comma
    skipped (an empty part between two commas is a format that matches empty
    lines, as in Vim)."""
    if isinstance(efm, list):
        return [(str(x), "") for x in efm]
    out: list[tuple[str, str]] = []
    i = 0
    n = len(efm)
    while i < n:
        j = i
        while j < n and efm[j] != ",":
            if efm[j] == "\\" and j + 1 < n:
                j += 1
            j += 1
        out.append((efm[i:j], efm[j : j + 1]))
        i = j
        if i < n and efm[i] == ",":
            i += 1
        while i < n and efm[i] == " ":
            i += 1
    return out


def to_vim_pattern(fmt: str, following: str = "") -> tuple[str, str, str, bool, dict[str, int]]:
    """The Vim pattern of one format (quickfix.c efm_to_regpat), with its
    prefix, flags, %> and the group of each conversion.  `following` is the
    character after the format in the whole option value (Vim looks past the
    end of a format to choose the pattern of a final %f)."""
    out = ["^"]
    prefix = flags = ""
    conthere = False
    addr: dict[str, int] = {}
    text = fmt + following
    n = len(fmt)
    i = 0
    while i < n:
        ch = fmt[i]
        if ch != "%":
            if ch == "\\" and i + 1 < n:
                i += 1
                out.append(fmt[i])
            else:
                if ch in ".*^$~[":
                    out.append("\\")
                out.append(ch)
            i += 1
            continue
        i += 1
        c = text[i] if i < len(text) else ""
        if c and c in _CONV:
            if c in addr:
                raise ErrorformatError(f"%{c} appears twice (each conversion may appear once)")
            if (c in "nlecktm" and prefix and prefix in FILE_PREFIXES) or (
                c == "r" and (not prefix or prefix not in "OPQ")
            ):
                raise ErrorformatError(_unexpected(c, prefix))
            addr[c] = len(addr) + 1
            out.append(r"\(")
            if c == "f" and i + 1 < len(text):
                out.append(r".\{-1,}" if text[i + 1] not in "\\%" else r"\f\+")
            else:
                out.append(_CONV[c])
            out.append(r"\)")
            i += 1
        elif c == "*":
            i += 1
            piece, i = _scanf(fmt, i)
            out.append(piece)
        elif c and c in "%\\.^$~[":
            out.append(c)
            i += 1
        elif c == "#":
            out.append("*")
            i += 1
        elif c == ">":
            conthere = True
            i += 1
        elif i == 1:  # a prefix: only at the start of a format
            if c and c in "+-":
                flags = c
                i += 1
                c = fmt[i] if i < n else ""
            if not c or c not in PREFIXES:
                raise ErrorformatError(
                    f"%{flags}{c or ''} is not a prefix (one of %{' %'.join(PREFIXES)})"
                    if c
                    else f"%{flags} at the end: a prefix letter must follow"
                )
            prefix = c
            i += 1
        elif not c or c == ",":
            raise ErrorformatError("a lone % at the end of the format")
        else:
            raise ErrorformatError(f"unknown item %{c}")
    out.append("$")
    return "".join(out), prefix, flags, conthere, addr


def _unexpected(c: str, prefix: str) -> str:
    if c == "r":
        return "%r is only for %O, %P and %Q formats (the rest of the line, read again)"
    return f"%{c} cannot be used in a %{prefix} format (it names a file or directory only)"


def _scanf(fmt: str, i: int) -> tuple[str, int]:
    """`%*` followed by `[...]` or `\\x`: that, one or more times."""
    n = len(fmt)
    if i < n and fmt[i] == "[":
        j = i + 1
        if j < n and fmt[j] == "^":
            j += 1
        j += 1  # the first member may be ']'
        end = fmt.find("]", j)
        if j > n or end < 0:
            raise ErrorformatError("%*[ without a closing ]")
        return fmt[i : end + 1] + r"\+", end + 1
    if i < n and fmt[i] == "\\":
        if i + 1 < n:
            return "\\" + fmt[i + 1] + r"\+", i + 2
        return "\\" + r"\+", i + 1
    what = fmt[i] if i < n else ""
    raise ErrorformatError(
        f"%*{what} is not supported (Vim knows %*[...] and %*\\x)"
        if what
        else "%* at the end: a conversion must follow"
    )


def compile_format(fmt: str, following: str = "") -> Format:
    """Compile one format (`%E%f:%l: %m`)."""
    vim, prefix, flags, conthere, addr = to_vim_pattern(fmt, following)
    try:
        tr = translate(vim, ignorecase=True)
        flags_re = regex.V0 | (regex.IGNORECASE if tr.ignorecase else 0)
        compiled = regex.compile(tr.pattern, flags_re)
    except VimRegexError as exc:
        raise ErrorformatError(f"its pattern {vim!r} is not a Vim regex: {exc}") from None
    except regex.error as exc:
        raise ErrorformatError(f"its pattern {vim!r} does not compile: {exc}") from None
    groups = tuple(sorted(addr.items(), key=lambda kv: _ORDER[kv[0]]))
    return Format(fmt, prefix, flags, conthere, groups, vim, compiled, literal_runs(tr.pattern))


def compile_errorformat(efm: str | list[str]) -> list[Format]:
    """Every format of an errorformat, compiled, in order; ErrorformatError
    names the format that cannot be compiled."""
    formats = parts(efm)
    if not formats:
        raise ErrorformatError("it holds no format")
    compiled = []
    for f, following in formats:
        try:
            compiled.append(compile_format(f, following))
        except ErrorformatError as exc:
            raise ErrorformatError(f"format {f!r}: {exc}") from None
    return compiled


def literal_runs(pattern: str) -> tuple[str, ...]:
    """The runs of literal text outside groups, classes and quantifiers of a
    translated pattern: text every match contains.  Empty when the pattern
    has a top-level alternation."""
    runs: list[str] = []
    cur: list[str] = []
    depth = 0
    i = 0
    in_class = False

    def end_run(drop_last: bool = False) -> None:
        if drop_last and cur:
            cur.pop()
        if cur:
            runs.append("".join(cur))
        cur.clear()

    while i < len(pattern):
        ch = pattern[i]
        nxt = pattern[i + 1] if i + 1 < len(pattern) else ""
        if in_class:
            if ch == "\\":
                i += 2
                continue
            if ch == "]":
                in_class = False
            i += 1
            continue
        if ch == "\\":
            if depth == 0 and nxt and not nxt.isalnum():
                cur.append(nxt)
            else:
                end_run()
            i += 2
        elif ch == "[":
            end_run()
            in_class = True
            i += 1
            if pattern[i : i + 1] == "^":
                i += 1
            if pattern[i : i + 1] == "]":
                i += 1
        elif ch == "(":
            end_run()
            depth += 1
            i += 1
        elif ch == ")":
            depth -= 1
            i += 1
            if pattern[i : i + 1] in ("*", "?", "{"):
                end_run()
        elif ch == "|":
            if depth == 0:
                return ()
            i += 1
        elif ch in "*?+{":
            end_run(drop_last=ch in "*?{")
            i += 1
        elif ch in ".^$":
            end_run()
            i += 1
        else:
            if depth == 0:
                cur.append(ch)
            i += 1
    end_run()
    return tuple(runs)
