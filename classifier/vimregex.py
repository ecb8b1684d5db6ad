"""Vim regular expressions, translated to the `regex` module's syntax.

An errorformat is turned into a Vim pattern first (classifier/errorformat.py
does what Vim's `efm_to_regpat` does), and `%\\` lets a format hold any Vim
regex item (`%\\s%#`, `%\\{-}`, `%\\@=`, `\\%(..\\)`).  To match a line the
way Vim's quickfix does, that pattern is translated here, item by item,
following Vim's own parser (regexp.c `peekchr`, regexp_nfa.c `nfa_regatom`,
`nfa_regpiece`): the same tokens are magic in the same places, capture
groups keep Vim's numbering, and the classes match the same characters as
Vim's defaults ('isfname', 'iskeyword', 'isident', 'isprint' of a fresh
Vim).  Vim matches an errorformat ignoring case; its character classes
(`\\a`, `\\l`, `\\u`, ...) still do not fold, and neither do they here.

Supported: the four magic levels (`\\v \\m \\M \\V`), `\\c \\C`, atoms
`. ^ $ \\_^ \\_$ \\< \\> \\zs \\ze \\n \\e \\t \\r \\b`, the classes
`\\i \\k \\f \\p \\s \\d \\x \\o \\w \\h \\a \\l \\u` with their upper-case
complements and `\\_x` forms, collections `[...]` with ranges, `[:alpha:]`
classes, `[=x=]`, `[.x.]` and backslash codes, `\\%[...]`, `\\%d123 \\%x2a
\\%u20ac \\%U...`, `\\%^ \\%$`, groups `\\( \\) \\%( \\)`, back references,
`\\|` and `\\&`, multis `* \\+ \\= \\? \\{n,m} \\{-n,m} \\@> \\@= \\@! \\@<=
\\@<!`.  Not supported (they refer to a buffer, a cursor or the last
substitute, none of which a log line has): `~`, `\\%V \\%# \\%23l \\%23c
\\%23v \\%'m \\%C`, `\\z(`; they raise :class:`VimRegexError`, as does
anything Vim itself refuses.

Pure: `translate()` returns pattern text and the number of capture groups.
The layers: classifier/vimregex_lexer.py (tokens and magic levels),
classifier/vimregex_classes.py (the character classes as data),
classifier/vimregex_collection.py (`[...]` and character codes), and the
grammar here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .vimregex_classes import CLASSES, KW
from .vimregex_collection import CollectionParser
from .vimregex_lexer import (
    END,
    MAGIC_ALL,
    MAGIC_NONE,
    MAGIC_OFF,
    MAGIC_ON,
)


@dataclass(frozen=True, slots=True)
class Translation:
    pattern: str  # for the `regex` module (V0)
    groups: int  # capture groups, numbered as in Vim
    ignorecase: bool  # `\c` / `\C` (or the caller's default) decided


def _esc(ch: str) -> str:
    """One literal character, safe in a pattern."""
    if ch.isalnum() or ch == "_" or ord(ch) > 0x7F:
        return ch
    if ch == "\n":
        return r"\n"
    return "\\" + ch


class _Parser(CollectionParser):
    """Vim's recursive-descent regex parser, emitting Python pattern text."""

    # -- the grammar (regexp_nfa.c) ----------------------------------------------
    def pattern(self, paren: str = "") -> str:
        """`branch \\| branch ...`; paren is '' (top), '(' or '%('."""
        branches = [self.branch()]
        while self.peek() == ("|", True):
            self.skip()
            branches.append(self.branch())
        out = "|".join(branches)
        if paren:
            if self.peek() != (")", True):
                raise self.error("unmatched \\(" if paren == "(" else "unmatched \\%(")
            self.skip()
        elif self.peek() != END:
            if self.peek() == (")", True):
                raise self.error("unmatched \\)")
            raise self.error("trailing characters")
        return out

    def branch(self) -> str:
        concats = [self.concat()]
        while self.peek() == ("&", True):
            self.skip()
            concats.append(self.concat())
        if len(concats) == 1:
            return concats[0]
        return "".join(f"(?=(?:{c}))" for c in concats[:-1]) + f"(?:{concats[-1]})"

    def concat(self) -> str:
        out: list[str] = []
        while True:
            tok = self.peek()
            if tok == END or tok in (("|", True), ("&", True), (")", True)):
                return "".join(out)
            ch, magic = tok
            if magic and ch in "cCZvmMV":
                self.skip(keep_start=True)
                if ch == "c":
                    self.saw_c = True
                elif ch == "C":
                    self.saw_C = True
                elif ch in "vmMV":
                    self.magic = {"v": MAGIC_ALL, "m": MAGIC_ON, "M": MAGIC_OFF, "V": MAGIC_NONE}[
                        ch
                    ]
                continue
            out.append(self.piece())

    def piece(self) -> str:
        atom = self.atom()
        op = self.peek()
        if not op[1] or op[0] not in "*+=?{@":
            return atom
        self.skip()
        ch = op[0]
        if ch == "*":
            out = f"(?:{atom})*"
        elif ch == "+":
            out = f"(?:{atom})+"
        elif ch in "=?":
            out = f"(?:{atom})?"
        elif ch == "@":
            out = self._lookaround(atom)
        else:
            out = self._braces(atom)
        nxt = self.peek()
        if nxt[1] and nxt[0] in "*+=?{@":
            raise self.error("a multi cannot follow a multi")
        return out

    def _lookaround(self, atom: str) -> str:
        while self.i < len(self.p) and self.p[self.i].isdigit():  # \@123<= (a byte limit)
            self.i += 1
        self.cur = None
        op = self.raw()
        if op == "=":
            return f"(?=(?:{atom}))"
        if op == "!":
            return f"(?!(?:{atom}))"
        if op == ">":
            return f"(?>(?:{atom}))"
        if op == "<":
            op2 = self.raw()
            if op2 == "=":
                return f"(?<=(?:{atom}))"
            if op2 == "!":
                return f"(?<!(?:{atom}))"
        raise self.error(f"unknown operator \\@{op}")

    def _braces(self, atom: str) -> str:
        lazy = False
        if self.i < len(self.p) and self.p[self.i] == "-":
            self.i += 1
            lazy = True
        self.cur = None
        p = self.p
        j = self.i
        k = j
        while k < len(p) and p[k].isdigit():
            k += 1
        lo: int | None = int(p[j:k]) if k > j else None
        hi: int | None
        if k < len(p) and p[k] == ",":
            k += 1
            m = k
            while k < len(p) and p[k].isdigit():
                k += 1
            hi = int(p[m:k]) if k > m else None
        else:
            hi = lo
        if k < len(p) and p[k] == "\\":
            k += 1
        if k >= len(p) or p[k] != "}":
            raise self.error("syntax error in \\{...}")
        self.i = k + 1
        lo = lo or 0
        if hi is not None and lo > hi:
            lo, hi = hi, lo
        if hi == 0:  # x\{0}: never matched, but its groups keep their numbers
            return f"(?:{atom}){{0}}"
        q = f"{{{lo},{'' if hi is None else hi}}}"
        if lo == 0 and hi is None:
            q = "*"
        return f"(?:{atom}){q}{'?' if lazy else ''}"

    def atom(self) -> str:
        ch, magic = self.get()
        if not magic:
            if ch == "":
                raise self.error("pattern ends early")
            return _esc(ch)
        if ch == "^":
            return "^"
        if ch == "$":
            return "$"
        if ch == "<":
            return f"(?<!{KW})(?={KW})"
        if ch == ">":
            return f"(?<={KW})(?!{KW})"
        if ch == "_":
            return self._underscore()
        if ch == ".":
            return "."
        if ch in CLASSES:
            return CLASSES[ch]
        if ch == "n":
            return r"\n"
        if ch == "(":
            self.groups += 1
            if self.groups > 9:
                raise self.error("too many \\(")
            n = self.groups
            inner = self.pattern("(")
            self.closed.add(n)
            return f"({inner})"
        if ch in "|&)":
            raise self.error(f"misplaced {ch}")
        if ch in "=?+@*{":
            raise self.error(f"{ch} must follow an atom")
        if ch == "~":
            raise self.error("~ (the last substitute string) means nothing in a log line")
        if ch in "123456789":
            n = int(ch)
            if n not in self.closed:
                raise self.error(f"illegal back reference \\{ch}")
            return f"(?:\\{n})"
        if ch == "z":
            return self._z()
        if ch == "%":
            return self._percent()
        if ch == "[":
            return self._collection(newline=False)
        return _esc(ch)

    def _underscore(self) -> str:
        ch = self.raw()
        if ch == "":
            raise self.error("pattern ends early")
        if ch == "^":
            return "^"
        if ch == "$":
            return "$"
        if ch == "[":
            return self._collection(newline=True)
        if ch == ".":
            return r"(?s:.)"
        if ch in CLASSES and ch not in "n":
            return f"(?:{CLASSES[ch]}|\\n)"
        raise self.error(f"invalid character class \\_{ch}")

    def _z(self) -> str:
        ch = self.raw()
        if ch in ("s", "e"):
            nxt = self.peek()
            if nxt[1] and nxt[0] in "*+=?{@":
                raise self.error(f"\\z{ch} cannot be repeated")
            return ""  # match start/end: submatches are what a format reads
        raise self.error(f"\\z{ch} is not allowed here")

    def _percent(self) -> str:
        ch = self.raw()
        if ch == "(":
            inner = self.pattern("%(")
            return f"(?:{inner})"
        if ch in "doxuU":
            nr = self._char_code(ch)
            if nr is None:
                raise self.error(f"invalid character after \\%{ch}")
            return _esc(chr(nr) if nr else "\n")
        if ch == "^":
            return "^"
        if ch == "$":
            return "$"
        if ch == "[":
            items: list[str] = []
            while self.peek() != ("]", False):
                if self.peek() == END:
                    raise self.error("missing ] after \\%[")
                items.append(self.atom())
            self.skip()
            if not items:
                raise self.error("empty \\%[]")
            out = ""
            for item in reversed(items):
                out = f"(?:{item}{out})?"
            return out
        raise self.error(f"\\%{ch} needs a buffer or a cursor and is not supported")


def translate(pattern: str, *, ignorecase: bool = True, magic: int = MAGIC_ON) -> Translation:
    """The `regex`-module pattern matching what Vim's `pattern` matches.

    `ignorecase` is Vim's 'ignorecase' for this match (an errorformat always
    ignores case); a `\\c` or `\\C` in the pattern decides instead."""
    parser = _Parser(pattern, magic)
    body = parser.pattern()
    icase = True if parser.saw_c else False if parser.saw_C else ignorecase
    return Translation(body, parser.groups, icase)
