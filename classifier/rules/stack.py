"""Stack frames as the rules of the ecosystem families read them.

A frame is `(file, line)`, listed innermost first (Ruby, PHP, .NET, the JVM,
Elixir, Lua print them so).  Pure helpers, no rule here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import LineContext

Frame = tuple[str, int]
Related = list[tuple[str, int | None, int | None, str]]


def innermost_in_project(
    frames: Sequence[Frame], ctx: LineContext, library: Sequence[str] = ()
) -> Frame | None:
    """The innermost frame inside the project; else the innermost outside
    any `library` folder; else None."""
    for frame in frames:
        if ctx.in_project(frame[0]) and not any(mark in frame[0] for mark in library):
            return frame
    for frame in frames:
        if not any(mark in frame[0] for mark in library):
            return frame
    return None


def related_frames(frames: Sequence[Frame], chosen: Frame | None, limit: int = 20) -> Related:
    """The frames other than the chosen location, as Hit.related entries."""
    out: Related = []
    for file, line in frames:
        if (file, line) != chosen and len(out) < limit:
            out.append((file, line, None, ""))
    return out
