"""The lexer of Vim's regex parser (regexp.c `peekchr`, `skipchr`): the next
token of a pattern and whether it is magic there, at the pattern's magic
level (`\\v \\m \\M \\V`); and the state the parser keeps."""

from __future__ import annotations

MAGIC_NONE, MAGIC_OFF, MAGIC_ON, MAGIC_ALL = 1, 2, 3, 4

# Characters that may be magic sometimes (regexp.c META_flags); a backslash
# before any other character is dropped and the character taken literally.
_META = set("%&()*+.123456789<=>?@ACDFHIKLMOPSUVWXZ[_acdfhiklmnopsuvwxz{|~")
ABBR = {"r": "\r", "t": "\t", "e": "\x1b", "b": "\x08"}


class VimRegexError(ValueError):
    """A pattern Vim would refuse, or one that needs a buffer to mean anything."""


# A token: the character and whether it is magic there.
END = ("", False)


class Lexer:
    """Tokens of a Vim pattern, and the parser's state."""

    def __init__(self, pattern: str, magic: int) -> None:
        self.p = pattern
        self.i = 0
        self.magic = magic
        self.cur: tuple[str, bool] | None = None
        self.cur_len = 0
        self.at_start = True
        self.prev_at_start = False
        self.prev: tuple[str, bool] = END
        self.prevprev: tuple[str, bool] = END
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
            return END, 0
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
            if n in ABBR:
                return (ABBR[n], False), 2
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
        self.prev = self.cur or END
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
