"""Failures follow the user's edits until the next run re-checks them.  Pure.

A build reported `middleware.ts:42`; the user adds an import at the top and
the failure is now on line 43.  Until the next run (or the watcher's next
cycle) replaces the failures, `textDocument/didChange` moves each one with the
edit: an edit above it shifts it by the lines added or removed, an edit
before it on its own line shifts its column, and a failure whose text the
edit replaced goes to where the edit starts.

Positions are compared as LSP positions (line, character in the client's
units); on lines of ASCII text those equal the code points placements keep.
"""

from __future__ import annotations

from dataclasses import replace

from .placement import Placement

Position = tuple[int, int]


def move(line: int, column: int | None, start: Position, end: Position, text: str) -> Position:
    """Where (line, column) is after the text between `start` and `end` became
    `text`.  A column of None (the whole line) follows its line."""
    col = column if column is not None else 0
    if (line, col) < start:  # before the edit: where it was
        return line, col
    if (line, col) >= end:  # after it: by the lines (and, on its last line, characters) it changed
        added = text.count("\n")
        if line == end[0]:
            last = len(text) - (text.rfind("\n") + 1)
            return start[0] + added, col - end[1] + (last if added else start[1] + last)
        return line + added - (end[0] - start[0]), col
    return start  # inside the replaced text: where the edit starts


def moved(p: Placement, start: Position, end: Position, text: str) -> Placement:
    """The placement after one edit of its file."""
    line, col = move(p.line, p.column, start, end, text)
    out = replace(p, line=line, column=col if p.column is not None else None)
    if p.end_line is not None:
        end_line, end_col = move(p.end_line, p.end_column, start, end, text)
        out = replace(
            out, end_line=end_line, end_column=end_col if p.end_column is not None else None
        )
    return out
