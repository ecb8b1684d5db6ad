"""Vim's character classes (`\\i \\k \\f \\p \\w ...`, `[:alpha:]`) as sets a
Python character class can hold, as a fresh utf-8 Vim defines them."""

from __future__ import annotations

_LATIN_HI = "\u00a0-\u00ff"  # what '@' adds above ASCII in a utf-8 Vim
# Character classes, as sets a Python character class can hold.  Letter
# classes are wrapped in (?-i:...) so that they do not fold, as in Vim.
_WORD_HI = r"[^\x00-\xff\W]"  # word characters above Latin-1 (Vim: utf_class >= 2)
CLASSES: dict[str, str] = {
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
POSIX: dict[str, str] = {
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
KW = f"(?:[0-9A-Za-z_{_LATIN_HI}]|{_WORD_HI})"
SET_SPECIAL = set("\\]^-[&~|")
