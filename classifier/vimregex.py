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
"""

from __future__ import annotations

from dataclasses import dataclass

MAGIC_NONE, MAGIC_OFF, MAGIC_ON, MAGIC_ALL = 1, 2, 3, 4

# Characters that may be magic sometimes (regexp.c META_flags); a backslash
# before any other character is dropped and the character taken literally.
_META = set("%&()*+.123456789<=>?@ACDFHIKLMOPSUVWXZ[_acdfhiklmnopsuvwxz{|~")
_ABBR = {"r": "\r", "t": "\t", "e": "\x1b", "b": "\x08"}
_LATIN_HI = "\u00a0-\u00ff"  # what '@' adds above ASCII in a utf-8 Vim
# Character classes, as sets a Python character class can hold.  Letter
# classes are wrapped in (?-i:...) so that they do not fold, as in Vim.
_WORD_HI = r"[^\x00-\xff\W]"  # word characters above Latin-1 (Vim: utf_class >= 2)
_CLASSES: dict[str, str] = {
    "i": f"(?-i:[0-9A-Za-z_{_LATIN_HI}])",
    "I": f"(?-i:[A-Za-z_{_LATIN_HI}])",
    "k": f"(?-i:[0-9A-Za-z_{_LATIN_HI}]|{_WORD_HI})",
    "K": f"(?-i:[A-Za-z_{_LATIN_HI}]|(?![0-9]){_WORD_HI})",
    "f": "(?-i:[0-9A-Za-z/.\\-_+,#$%~=\u00a0-\U0010ffff])",
    "F": "(?-i:[A-Za-z/.\\-_+,#$%~=\u00a0-\U0010ffff])",
    "p": "(?-i:[\x20-\x7e\u00a0-\U0010ffff])",
    "P": "(?-i:[\x20-\x2f\x3a-\x7e\u00a0-\U0010ffff])",
    "s": "[ \t]",
    "S": "[^ \t]",
    "d": "[0-9]",
    "D": "[^0-9]",
    "x": "(?-i:[0-9A-Fa-f])",
    "X": "(?-i:[^0-9A-Fa-f])",
    "o": "[0-7]",
    "O": "[^0-7]",
    "w": "(?-i:[0-9A-Za-z_])",
    "W": "(?-i:[^0-9A-Za-z_])",
    "h": "(?-i:[A-Za-z_])",
    "H": "(?-i:[^A-Za-z_])",
    "a": "(?-i:[A-Za-z])",
    "A": "(?-i:[^A-Za-z])",
    "l": "(?-i:[a-z])",
    "L": "(?-i:[^a-z])",
    "u": "(?-i:[A-Z])",
    "U": "(?-i:[^A-Z])",
}
# [:name:] inside a collection: the members, as class-set text.
_POSIX: dict[str, str] = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "blank": " \t",
    "cntrl": "\x00-\x1f\x7f",
    "digit": "0-9",
    "graph": "\x21-\x7e",
    "lower": "a-z",
    "print": "\x20-\x7e",
    "punct": "!-/:-@\\[-`{-~",
    "space": "\t-\r ",
    "upper": "A-Z",
    "xdigit": "0-9A-Fa-f",
    "return": "\r",
    "tab": "\t",
    "escape": "\x1b",
    "backspace": "\x08",
    "ident": f"0-9A-Za-z_{_LATIN_HI}",
    "keyword": f"0-9A-Za-z_{_LATIN_HI}",
    "fname": "0-9A-Za-z/.\\-_+,#$%~=\u00a0-\U0010ffff",
}
_KW = f"(?:[0-9A-Za-z_{_LATIN_HI}]|{_WORD_HI})"
_SET_SPECIAL = set("\\]^-[&~|")


class VimRegexError(ValueError):
    """A pattern Vim would refuse, or one that needs a buffer to mean anything."""


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


def _set_esc(ch: str) -> str:
    """One literal character, safe inside [...]."""
    if ch in _SET_SPECIAL:
        return "\\" + ch
    if ch == "\n":
        return r"\n"
    return ch


# A token: the character and whether it is magic there.
_END = ("", False)


class _Parser:
    """Vim's recursive-descent regex parser, emitting Python pattern text."""

    def __init__(self, pattern: str, magic: int) -> None:
        self.p = pattern
        self.i = 0
        self.magic = magic
        self.cur: tuple[str, bool] | None = None
        self.cur_len = 0
        self.at_start = True
        self.prev_at_start = False
        self.prev: tuple[str, bool] = _END
        self.prevprev: tuple[str, bool] = _END
        self.after_slash = 0
        self.groups = 0
        self.closed: set[int] = set()
        self.saw_c = False  # \c: ignore case (wins over \C, as in Vim)
        self.saw_C = False  # \C: match case

    # -- the lexer (regexp.c peekchr / skipchr) ----------------------------------
    def peek(self) -> tuple[str, bool]:
        if self.cur is None:
            self.cur, self.cur_len = self._scan(self.i)
        return self.cur

    def _scan(self, i: int) -> tuple[tuple[str, bool], int]:
        p = self.p
        if i >= len(p):
            return _END, 0
        c = p[i]
        m = self.magic
        if c in ".[~":
            return (c, m >= MAGIC_ON), 1
        if c in "(){%+=?@!&|<>#\"',-:;`/":
            return (c, m == MAGIC_ALL), 1
        if c == "*":
            magic = (
                m >= MAGIC_ON
                and not self.at_start
                and not (self.prev_at_start and self.prev == ("^", True))
                and (
                    self.after_slash > 0 or self.prev not in (("(", True), ("&", True), ("|", True))
                )
            )
            return ("*", magic), 1
        if c == "^":
            magic = m >= MAGIC_OFF and (
                self.at_start
                or m == MAGIC_ALL
                or self.prev in (("(", True), ("|", True), ("&", True), ("n", True))
                or (self.prev[0] == "(" and self.prevprev == ("%", True))
            )
            if magic:
                self.at_start = True
                self.prev_at_start = False
            return ("^", magic), 1
        if c == "$":
            return ("$", m >= MAGIC_OFF and self._dollar_is_magic(i + 1)), 1
        if c == "\\":
            if i + 1 >= len(p):
                return ("\\", False), 1
            n = p[i + 1]
            if n in _META:
                self.prev_at_start = self.at_start
                self.at_start = False
                self.after_slash += 1
                (ch, magic), _ = self._scan(i + 1)
                self.after_slash -= 1
                return (ch, not magic), 2
            if n in _ABBR:
                return (_ABBR[n], False), 2
            if m == MAGIC_NONE and n in "$^":
                return (n, True), 2
            return (n, False), 2
        return (c, False), 1

    def _dollar_is_magic(self, j: int) -> bool:
        p = self.p
        magic_all = self.magic == MAGIC_ALL
        while j + 1 < len(p) and p[j] == "\\" and p[j + 1] in "cCmMvVZ":
            if p[j + 1] == "v":
                magic_all = True
            elif p[j + 1] in "mMV":
                magic_all = False
            j += 2
        rest = p[j : j + 2]
        return (
            j >= len(p)
            or (rest[:1] == "\\" and rest[1:2] in ("|", "&", ")", "n"))
            or (magic_all and rest[:1] in ("|", "&", ")"))
            or self.magic == MAGIC_ALL
        )

    def skip(self, keep_start: bool = False) -> None:
        self.peek()
        saved = (self.prev_at_start, self.prev, self.prevprev)
        self.i += self.cur_len
        self.prev_at_start = self.at_start
        self.at_start = False
        self.prevprev = self.prev
        self.prev = self.cur or _END
        self.cur = None
        if keep_start:
            self.at_start, self.prev, self.prevprev = saved

    def get(self) -> tuple[str, bool]:
        tok = self.peek()
        self.skip()
        return tok

    def raw(self) -> str:
        """The next raw character (as Vim reads regparse directly), consumed."""
        self.cur = None
        if self.i >= len(self.p):
            return ""
        ch = self.p[self.i]
        self.i += 1
        return ch

    def error(self, what: str) -> VimRegexError:
        return VimRegexError(f"{what} (at {self.p[: self.i]!r}…)")

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
        elif self.peek() != _END:
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
            if tok == _END or tok in (("|", True), ("&", True), (")", True)):
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
            return f"(?<!{_KW})(?={_KW})"
        if ch == ">":
            return f"(?<={_KW})(?!{_KW})"
        if ch == "_":
            return self._underscore()
        if ch == ".":
            return "."
        if ch in _CLASSES:
            return _CLASSES[ch]
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
        if ch in _CLASSES and ch not in "n":
            return f"(?:{_CLASSES[ch]}|\\n)"
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
                if self.peek() == _END:
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

    def _char_code(self, kind: str) -> int | None:
        p = self.p
        j = self.i
        if kind == "o":  # up to three digits, while below 0o40 (regexp.c getoctchrs)
            k, nr = j, 0
            while k < len(p) and k - j < 3 and nr < 0o40 and p[k] in "01234567":
                nr = nr * 8 + int(p[k])
                k += 1
            if k == j:
                return None
            self.i = k
            self.cur = None
            return nr
        if kind == "d":
            digits, width, base = "0123456789", len(p), 10
        else:
            digits = "0123456789abcdefABCDEF"
            width = {"x": 2, "u": 4, "U": 8}[kind]
            base = 16
        k = j
        while k < len(p) and k - j < width and p[k] in digits:
            k += 1
        if k == j:
            return None
        nr = int(p[j:k], base)
        self.i = k
        self.cur = None
        return nr if nr <= 0x10FFFF else None

    def _collection(self, newline: bool) -> str:
        """`[...]`: the text after '[' is read raw, as Vim does."""
        p = self.p
        end = self._skip_anyof(self.i)
        if end >= len(p) or p[end] != "]":
            # no closing ]: a literal '['
            self.cur = None
            return "\\["
        i = self.i
        negated = False
        if p[i] == "^":
            negated = True
            i += 1
        chars: list[str] = []
        classes: list[str] = []
        if i < end and p[i] == "-":
            chars.append("\\-")
            i += 1
        prev: str | None = None  # the last single character (a range may start there)
        while i < end:
            c = p[i]
            if c == "[":
                got = self._bracket_item(i)
                if got is not None:
                    kind, value, i = got
                    if kind == "class":
                        classes.append(value)
                        prev = None
                    else:  # [=x=] or [.x.]: the character itself
                        chars.append(_set_esc(value))
                        prev = value
                    continue
            if c == "-" and prev is not None and i + 1 < end:
                i += 1
                hi, i = self._coll_char(i, end)
                if ord(hi) < ord(prev):
                    raise self.error("reverse range in a character class")
                chars.append("-" + _set_esc(hi))
                prev = None
                continue
            ch, i = self._coll_char(i, end)
            if ch == "\n" and not negated:
                newline = True
                prev = None
                continue
            chars.append(_set_esc(ch))
            prev = ch
        self.i = end + 1
        self.cur = None
        body = "".join(chars)
        if not classes:
            out = f"[{'^' if negated else ''}{body}]" if body else ("(?s:.)" if negated else "(?!)")
        else:
            cls = "(?-i:[" + "".join(classes) + "])"
            alts = f"[{body}]|{cls}" if body else cls
            out = f"(?:(?!(?:{alts}))(?s:.))" if negated else f"(?:{alts})"
        if newline and not negated:
            out = f"(?:{out}|\\n)"
        return out

    def _coll_char(self, i: int, end: int) -> tuple[str, int]:
        """One character of a collection at p[i] (a backslash code or itself)."""
        p = self.p
        c = p[i]
        if c == "\\" and i + 1 <= end:
            n = p[i + 1] if i + 1 < len(p) else ""
            if n in "]^-\\":
                return n, i + 2
            if n == "n":
                return "\n", i + 2
            if n in _ABBR:
                return _ABBR[n], i + 2
            if n in "doxuU":
                save = self.i
                self.i = i + 2
                nr = self._char_code(n)
                j = self.i
                self.i = save
                if nr is not None:
                    return (chr(nr) if nr else "\n"), j
                return "\\", i + 1
        return c, i + 1

    def _bracket_item(self, i: int) -> tuple[str, str, int] | None:
        """[:name:], [=x=] or [.x.] at p[i]; None when it is a plain '['."""
        p = self.p
        if p.startswith("[:", i):
            close = p.find(":]", i + 2)
            name = p[i + 2 : close] if close > 0 else ""
            if name in _POSIX:
                return "class", _POSIX[name], close + 2
            return None
        if i + 4 < len(p) and p[i + 1] in "=." and p[i + 3] == p[i + 1] and p[i + 4] == "]":
            return ("equiv" if p[i + 1] == "=" else "coll"), p[i + 2], i + 5
        return None

    def _skip_anyof(self, i: int) -> int:
        """Where the collection starting at p[i] (after '[') ends (regexp.c skip_anyof)."""
        p = self.p
        if i < len(p) and p[i] == "^":
            i += 1
        if i < len(p) and p[i] in "]-":
            i += 1
        while i < len(p) and p[i] != "]":
            c = p[i]
            if c == "-":
                i += 1
                if i < len(p) and p[i] != "]":
                    i += 1
            elif c == "\\" and i + 1 < len(p) and p[i + 1] in "]^-n\\nrtebdoxuU":
                i += 2
            elif c == "[":
                got = self._bracket_item(i)
                i = got[2] if got is not None else i + 1
            else:
                i += 1
        return i


def translate(pattern: str, *, ignorecase: bool = True, magic: int = MAGIC_ON) -> Translation:
    """The `regex`-module pattern matching what Vim's `pattern` matches.

    `ignorecase` is Vim's 'ignorecase' for this match (an errorformat always
    ignores case); a `\\c` or `\\C` in the pattern decides instead."""
    parser = _Parser(pattern, magic)
    body = parser.pattern()
    icase = True if parser.saw_c else False if parser.saw_C else ignorecase
    return Translation(body, parser.groups, icase)
