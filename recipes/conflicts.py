"""Merge-conflict hunks in a file, and the edits that resolve one.

Pure functions: `conflict_hunks(path, text)` finds `<<<<<<<` / `=======` /
`>>>>>>>` blocks (and the `|||||||` base section of diff3 style), and
`resolve_hunk(hunk, "current" | "incoming" | "both")` is the TextEdit that
replaces the whole block with the chosen side(s).
"""

from __future__ import annotations

from typing import Literal

from faultlens.classifier.lazyre import lazy_compile

from .model import Hunk, TextEdit

Choice = Literal["current", "incoming", "both"]
_LINE_END = lazy_compile(r"\r\n|\r|\n")


def _split(text: str) -> list[str]:
    """Lines with their endings kept."""
    out: list[str] = []
    pos = 0
    for m in _LINE_END.finditer(text):
        out.append(text[pos : m.end()])
        pos = m.end()
    if pos < len(text):
        out.append(text[pos:])
    return out


def conflict_hunks(path: str, text: str) -> list[Hunk]:
    """Every complete conflict block in `text` (0-based marker lines)."""
    lines = _split(text)
    hunks: list[Hunk] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("<<<<<<<"):
            i += 1
            continue
        start, base, mid, end = i, None, None, None
        j = i + 1
        while j < len(lines):
            ln = lines[j]
            if ln.startswith("<<<<<<<"):
                break  # a new block began before this one ended: malformed
            if ln.startswith("|||||||") and mid is None and base is None:
                base = j
            elif ln.startswith("=======") and mid is None and ln.rstrip("\r\n") == "=======":
                mid = j
            elif ln.startswith(">>>>>>>") and mid is not None:
                end = j
                break
            j += 1
        if mid is None or end is None:
            i = j if j > i else i + 1
            continue
        ours_end = base if base is not None else mid
        hunks.append(
            Hunk(
                start_line=start,
                mid_line=mid,
                end_line=end,
                ours="".join(lines[start + 1 : ours_end]),
                theirs="".join(lines[mid + 1 : end]),
                path=path,
                base_line=base,
            )
        )
        i = end + 1
    return hunks


def resolve_hunk(hunk: Hunk, choice: Choice) -> TextEdit:
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
    return bool(conflict_hunks("", text))
