"""Vim's helpers that the quickfix parser reads text and file names with, as
quickfix.c calls them: strtol's clamping, a line cut at LINE_MAXLEN bytes,
expand_env() of a file name, the entry type's character, and file-name
joining.  Pure."""

from __future__ import annotations

from collections.abc import Mapping

from .lazyre import lazy_compile

LINE_MAXLEN = 4096  # Vim keeps the first LINE_MAXLEN - 1 bytes of a line
_INT64 = 2**63 - 1
_URL = lazy_compile(r"^[A-Za-z][-+.A-Za-z0-9]*://")

_NUMBER = lazy_compile(r"[ \t\n\v\f\r]*([-+]?)([0-9]*)")


def atol(line: str, start: int) -> int:
    """C's atol() at line[start:]: Vim reads a number from where its group
    starts, past the group's end if digits go on (`%l%c` on "11:" gives 11
    and 1), saturating as glibc's strtol does."""
    m = _NUMBER.match(line, start)
    if m is None or not m.group(2):
        return 0
    digits = m.group(2).lstrip("0")
    # saturated before int(), which refuses over 4300 digits
    value = _INT64 if len(digits) > 19 else min(int(digits or "0"), _INT64)
    return -value if m.group(1) == "-" else value


def int32(value: int) -> int:
    """C's (int) cast of a long."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def cut_bytes(text: str, limit: int) -> str:
    """`text` cut to at most `limit` UTF-8 bytes (on a character boundary)."""
    if len(text) * 4 <= limit:
        return text
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore")


_IDENT = lazy_compile(r"[0-9A-Za-z_\u00c0-\u00ff]*")


def expand_env(src: str, env: Mapping[str, str], home: str) -> str:
    """Vim's expand_env() of a file name: leading white space dropped, `~`
    (at the start of a name) and `$VAR` / `${VAR}` replaced when set."""
    src = src.lstrip(" \t")
    out: list[str] = []
    i = 0
    n = len(src)
    at_start = True
    while i < n:
        c = src[i]
        if c == "$" or (c == "~" and at_start):
            value: str | None = None
            tail = i + 1
            if c == "$":
                if src.startswith("{", i + 1):
                    close = src.find("}", i + 2)
                    if close >= 0:
                        value = env.get(src[i + 2 : close])
                        tail = close + 1
                else:
                    m = _IDENT.match(src, i + 1)
                    name = m.group() if m else ""
                    tail = i + 1 + len(name)
                    value = env.get(name) if name else None
            elif i + 1 >= n or src[i + 1] in "/ ,\t\n":
                value = home
            if value:
                if value.endswith("/") and src.startswith("/", tail):
                    tail += 1
                out.append(value)
                i = tail
                continue
        at_start = False
        if c == "\\" and i + 1 < n:
            out.append(c)
            i += 1
            c = src[i]
        elif c in " ,":
            at_start = True
        out.append(c)
        i += 1
    return "".join(out)


def type_char(text: str) -> str:
    """What Vim keeps of a %t match: its first byte (a non-ASCII one in the
    surrogate form that errors="surrogateescape" gives)."""
    if not text:
        return ""
    c = text[0]
    if c.isascii():
        return c
    return chr(0xDC00 + c.encode("utf-8", "surrogatepass")[0])


def printable(c: str) -> bool:
    """Vim's vim_isprintc() of a type byte ('isprint' "@,161-255")."""
    if not c:
        return False
    o = ord(c)
    return 0x20 <= o <= 0x7E or 0xDCA1 <= o <= 0xDCFF


def is_abs_name(name: str) -> bool:
    """Vim's vim_isAbsName on Unix: '/', '~' or a URL."""
    return name.startswith(("/", "~")) or bool(_URL.match(name))


def concat_fnames(a: str, b: str) -> str:
    """Vim's concat_fnames(a, b, TRUE)."""
    if a and not a.endswith("/"):
        return f"{a}/{b}"
    return a + b
