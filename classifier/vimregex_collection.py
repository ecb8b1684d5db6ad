"""Vim's collections (`[...]`: ranges, `[:alpha:]`, `[=x=]`, `[.x.]`,
backslash codes) and character codes (`\\%d123 \\%x2a \\%u20ac`), translated
for the `regex` module (regexp_nfa.c `nfa_regatom`, regexp.c `skip_anyof`)."""

from __future__ import annotations

from .vimregex_classes import POSIX, SET_SPECIAL
from .vimregex_lexer import (
    ABBR,
    Lexer,
)


def _set_esc(ch: str) -> str:
    """One literal character, safe inside [...]."""
    if ch in SET_SPECIAL:
        return "\\" + ch
    if ch == "\n":
        return r"\n"
    return ch


class CollectionParser(Lexer):
    """The parser's layer for collections and character codes."""

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
            if n in ABBR:
                return ABBR[n], i + 2
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
            if name in POSIX:
                return "class", POSIX[name], close + 2
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
