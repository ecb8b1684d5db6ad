"""Merge-conflict hunks in a file, and the edits that resolve one.

The markers are found by the one parser, `classifier/conflicts.scan` (1-based
lines); this module gives each hunk's sides as text and its lines 0-based, as
LSP edits count them: `conflict_hunks(path, text)`, and
`resolve_hunk(hunk, "current" | "incoming" | "both")`, the TextEdit that
replaces the whole block with the chosen side(s).  Pure.
"""

from __future__ import annotations

from typing import Literal

from faultlens.classifier.conflicts import scan, split_lines

from .model import ResolvableHunk, TextEdit

Choice = Literal["current", "incoming", "both"]


def conflict_hunks(path: str, text: str) -> list[ResolvableHunk]:
    """Every complete conflict block in `text` (0-based marker lines)."""
    lines = split_lines(text)
    out = []
    for h in scan(text):
        ours_from, ours_to = h.ours
        theirs_from, theirs_to = h.theirs
        out.append(
            ResolvableHunk(
                start_line=h.start - 1,
                mid_line=h.separator - 1,
                end_line=h.end - 1,
                ours="".join(lines[ours_from - 1 : ours_to]),
                theirs="".join(lines[theirs_from - 1 : theirs_to]),
                path=path,
                base_line=None if h.base is None else h.base - 1,
            )
        )
    return out


def resolve_hunk(hunk: ResolvableHunk, choice: Choice) -> TextEdit:
    """The edit that replaces the block (markers included) with the chosen side."""
    if choice == "current":
        new = hunk.ours
    elif choice == "incoming":
        new = hunk.theirs
    elif choice == "both":
        sep = "" if not hunk.ours or hunk.ours.endswith(("\n", "\r")) else "\n"
        new = hunk.ours + sep + hunk.theirs
    else:
        raise ValueError(f"unknown choice {choice!r}")
    return TextEdit(
        path=hunk.path,
        start_line=hunk.start_line,
        start_col=0,
        end_line=hunk.end_line + 1,
        end_col=0,
        new_text=new,
    )


def has_markers(text: str) -> bool:
    return bool(scan(text))
