"""The quickfix list: what Vim's and Neovim's `:cfile` read with their
default 'errorformat' (`%f:%l:%c:%m`, `%f:%l:%m`).

One line per failure: `file:line:col: error: [category] signal`.  A
failure with a file but no line is put on line 1; one with no file is a
line of text, which Vim lists as a message that jumps nowhere."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .common import Context, first_line, level

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord


def _one_line(text: str) -> str:
    return " ".join(first_line(text).split()) or "(no message)"


def render_quickfix(records: Sequence[FailureRecord], ctx: Context) -> str:
    out = []
    for r in records:
        what = f"{level(r)}: [{r.failure_type.value}] {_one_line(r.signal)}"
        if r.source_file and "\n" not in r.source_file:
            where = f"{r.source_file}:{r.source_line or 1}"
            if r.source_line and r.source_column:
                where += f":{r.source_column}"
            out.append(f"{where}: {what}\n")
        else:
            out.append(f"faultlens {what}\n")
    return "".join(out)
