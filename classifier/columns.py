"""What a tool's column counts, and the code-point column it means.  Pure.

Records keep a tool's column as the tool printed it; `hint["column_unit"]`
says what it counts when that is not code points: "byte" (UTF-8 bytes:
clang, gcc before 11, and every `-fdiagnostics-parseable-fixits` range of
both compilers) or "display" (gcc 11 and later: a tab to the next multiple
of the tab stop, an East Asian wide character as 2).  Whoever places a
column on a file's text — the server underlining it, a recipe editing it —
converts it here, on the text of that line, so that both land on the same
character.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

ColumnUnit = Literal["byte", "display"]

TABSTOP = 8  # gcc's -ftabstop default


def column_unit(value: object) -> ColumnUnit | None:
    """The unit a record's `hint["column_unit"]` names, None for code points
    (or anything else: the hint is read from untrusted records)."""
    if value == "byte":
        return "byte"
    if value == "display":
        return "display"
    return None


def code_point_column(text: str, column: int, unit: ColumnUnit | None) -> int:
    """The 0-based code-point column on `text` of a 0-based `column` counted in
    `unit`: UTF-8 bytes, or display columns (a tab to the next multiple of
    TABSTOP, an East Asian wide character 2, a combining mark 0).  A column
    past the line's end stays past it by the same amount."""
    if unit is None or column <= 0 or (text.isascii() and (unit == "byte" or "\t" not in text)):
        return column
    if unit == "byte":
        raw = text.encode("utf-8", "surrogatepass")
        past = max(0, column - len(raw))
        return len(raw[:column].decode("utf-8", "ignore")) + past
    width = 0
    for i, ch in enumerate(text):
        if width >= column:
            return i
        if ch == "\t":
            width += TABSTOP - width % TABSTOP
        elif unicodedata.combining(ch):
            continue
        else:
            width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return len(text) + max(0, column - width)
