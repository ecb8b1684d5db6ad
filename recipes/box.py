"""The second seed's standard error display, as a pure renderer.

    ╔══════════════════════════════════════════════════════════════╗
    ║  ERROR: Compile                                              ║
    ╠══════════════════════════════════════════════════════════════╣
    ║                                                              ║
    ║  Task: TASK-007 - npm run build                              ║
    ...
    ╚══════════════════════════════════════════════════════════════╝

Long text is wrapped (long words are broken) so every line of the box has the
same display width; wide characters (CJK, emoji) count as two columns.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from faultlens.classifier.redact import scrub

from .model import Option

WIDTH = 66  # outer width, as in the seed
INDENT = "  "


@dataclass(slots=True)
class BoxContent:
    category: str
    task: str
    title: str = ""
    phase: str = ""
    error: str = ""
    details: list[str] = field(default_factory=list)
    options: list[Option] = field(default_factory=list)
    progress: list[str] = field(default_factory=list)


def display_width(text: str) -> int:
    """Terminal columns taken by `text` (wide and full-width characters count 2,
    combining marks 0)."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _clean(text: str) -> str:
    # Control characters would break the frame; tabs become spaces.
    return "".join(
        " " if ch == "\t" else ch for ch in text if ch == "\t" or unicodedata.category(ch)[0] != "C"
    )


def _cut(text: str, width: int) -> list[str]:
    """Split text whose display width exceeds `width` into pieces that fit."""
    out, cur, w = [], "", 0
    for ch in text:
        cw = display_width(ch)
        if w + cw > width and cur:
            out.append(cur)
            cur, w = "", 0
        cur += ch
        w += cw
    out.append(cur)
    return out


def wrap(text: str, width: int, subsequent: str = "") -> list[str]:
    """Wrap one paragraph to `width` display columns."""
    text = _clean(scrub(text))  # the box's one sink: no secret is framed, whoever wrote it
    if not text.strip():
        return [""]
    lines: list[str] = []
    for piece in textwrap.wrap(
        text, width=width, subsequent_indent=subsequent, break_on_hyphens=False
    ) or [""]:
        if display_width(piece) <= width:
            lines.append(piece)
        else:
            lines.extend(_cut(piece, width))
    return lines


def render_box(content: BoxContent, width: int = WIDTH) -> str:
    """The boxed ERROR panel, one string ending with a newline."""
    inner = width - 2
    text_width = inner - 2 * len(INDENT)

    def row(text: str = "") -> str:
        pad = inner - len(INDENT) - display_width(text)
        return f"║{INDENT}{text}{' ' * max(0, pad)}║"

    def para(text: str, subsequent: str = "") -> list[str]:
        return [row(x) for x in wrap(text, text_width, subsequent)]

    top = "╔" + "═" * inner + "╗"
    sep = "╠" + "═" * inner + "╣"
    bottom = "╚" + "═" * inner + "╝"
    lines = [top, *para(f"ERROR: {content.category}"), sep, row()]
    task = f"Task: {content.task}" + (f" - {content.title}" if content.title else "")
    lines += para(task, "      ")
    if content.phase:
        lines += para(f"Phase: {content.phase}", "       ")
    lines += para(f"Error: {content.error}", "       ")
    if content.details:
        lines += [row(), row("Details:")]
        for d in content.details:
            for sub in d.splitlines() or [""]:
                lines += para(sub, "  ")
    if content.options:
        lines += [row(), row("Options:")]
        for o in content.options:
            lines += para(f"{o.label} - {o.description}", "  ")
    if content.progress:
        lines += [row(), row("Progress so far:")]
        for p in content.progress:
            lines += para(f"- {p}", "  ")
    lines += [row(), bottom]
    return "\n".join(lines) + "\n"


def box_lines_aligned(box: str) -> bool:
    """Every line of a rendered box has the same display width (used by tests)."""
    widths = {display_width(line) for line in box.splitlines()}
    return len(widths) == 1


def options_for(task: str, *, retries_left: int) -> list[Option]:
    """The seed's options after an escalation: retry with fresh context, skip, stop."""
    opts: list[Option] = []
    if retries_left > 0:
        opts.append(
            Option(
                "retry",
                f"[retry {task}]",
                f"Try again with fresh context ({retries_left} retr{'y' if retries_left == 1 else 'ies'} left)",
            )
        )
    opts.append(Option("skip", f"[skip {task}]", "Continue with the remaining tasks"))
    opts.append(Option("stop", "[stop]", "Stop here (completed work is kept)"))
    return opts


def progress_lines(items: Sequence[tuple[str, str]]) -> list[str]:
    """`- what: state` lines from (what, state) pairs."""
    return [f"{what}: {state}" for what, state in items]
