"""Vim script as text: logical lines (continuations joined), comments,
string literals, splitting at the top level of an expression, and the
items of a comma-separated option value.  Pure."""

from __future__ import annotations

from collections.abc import Iterator


def logical_lines(text: str) -> Iterator[str]:
    """Vim script lines with continuations joined: a `\\` at the start of
    the next line (`"\\ ` continuation comments dropped), and, as Vim9
    script allows, the lines of a list or call left open."""
    cur: str | None = None
    for raw in text.splitlines():
        stripped = raw.lstrip(" \t")
        if cur is not None and (stripped.startswith("\\") or open_brackets(cur) > 0):
            cur += stripped[1:] if stripped.startswith("\\") else " " + stripped
            continue
        if cur is not None and stripped.startswith('"\\ '):
            continue
        if cur is not None:
            yield cur
        cur = raw
    if cur is not None:
        yield cur


def open_brackets(line: str) -> int:
    """How many `[` and `(` the code of a line leaves open (0 for comments)."""
    if line.lstrip().startswith(('"', "#")):
        return 0
    walked = list(walk(line))
    return walked[-1][2] if walked else 0


def set_value(rest: str) -> str:
    """A `:set opt=value` value as Vim keeps it: one backslash dropped before
    any character; the value ends at unescaped white space, `|` or `"`."""
    out: list[str] = []
    i = 0
    while i < len(rest):
        c = rest[i]
        if c == "\\" and i + 1 < len(rest):
            out.append(rest[i + 1])
            i += 2
            continue
        if c in ' \t|"':
            break
        out.append(c)
        i += 1
    return "".join(out)


def strip_comment(line: str) -> str:
    """The line without a trailing `"` comment (outside string literals)."""
    s = line.lstrip()
    if s.startswith('"') or s.startswith("#"):
        return ""
    return line


def has_item(value: str, item: str) -> bool:
    return item != "" and item in option_items(value)


def option_items(value: str) -> list[str]:
    out, cur, i = [], [], 0
    while i < len(value):
        c = value[i]
        if c == "\\" and i + 1 < len(value):
            cur.append(value[i : i + 2])
            i += 2
            continue
        if c == ",":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    out.append("".join(cur))
    return out


def remove_item(value: str, item: str) -> str:
    items = option_items(value)
    if item in items:
        items.remove(item)
    return ",".join(items)


def string_literal(text: str) -> tuple[str, int] | None:
    """A Vim string literal at the start of text: (value, length)."""
    if text.startswith("'"):
        out, i = [], 1
        while i < len(text):
            if text[i] == "'":
                if text.startswith("''", i):
                    out.append("'")
                    i += 2
                    continue
                return "".join(out), i + 1
            out.append(text[i])
            i += 1
        return None
    if text.startswith('"'):
        out, i = [], 1
        esc = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "e": "\x1b", "r": "\r"}
        while i < len(text):
            c = text[i]
            if c == "\\" and i + 1 < len(text):
                out.append(esc.get(text[i + 1], text[i + 1]))
                i += 2
                continue
            if c == '"':
                return "".join(out), i + 1
            out.append(c)
            i += 1
        return None
    return None


def walk(text: str) -> Iterator[tuple[int, str, int]]:
    """(index, character, bracket depth after it) of the characters of
    `text` outside string literals; an unclosed literal ends the walk with
    (-1, "", 0)."""
    depth = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c in "'\"":
            lit = string_literal(text[i:])
            if lit is None:
                yield -1, "", 0
                return
            i += lit[1]
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        yield i, c, depth
        i += 1


def split_top(text: str, sep: str) -> list[str]:
    """text split at `sep` outside strings, brackets and parentheses."""
    out: list[str] = []
    start = 0
    skip_to = 0
    for i, c, depth in walk(text):
        if i < 0:
            break
        if i < skip_to:
            continue
        if depth == 0 and c not in ")]}" and text.startswith(sep, i):
            out.append(text[start:i])
            start = skip_to = i + len(sep)
    out.append(text[start:])
    return out


def split_concat(text: str) -> list[str] | None:
    """`a .. b . c` split at the concatenation operators."""
    parts = split_top(text, "..")
    out: list[str] = []
    for p in parts:
        out.extend(q for q in split_top(p, " . ") if q.strip())
    return out or None
