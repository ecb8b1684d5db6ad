"""Placing plugin records once the output has been read: a manifest's JSON
error at its line and column (for tools that print only an offset, or
nothing), a missing dependency at the line of the config that imports it,
an unknown hook at its `def`.  Reads files only inside the working tree,
bounded in size."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from ...locate import read_in_tree
from ...taxonomy import FailureType

if TYPE_CHECKING:
    from ...record import FailureRecord

MAX_MANIFEST_BYTES = 2 << 20


def offset_to_line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in text."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def json_error_at(text: str) -> tuple[int, int, str] | None:
    """Where Python's json parser stops in text (line, column, message), or
    None when the text is valid JSON."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno, exc.msg
    return None


def find_text_line(text: str, needle: str, *, quoted: bool = True) -> tuple[int, int] | None:
    """The first line (and column) where `needle` appears, quoted when asked."""
    candidates = [f'"{needle}"', f"'{needle}'"] if quoted else [needle]
    best: int | None = None
    for c in candidates:
        i = text.find(c)
        if i >= 0 and (best is None or i < best):
            best = i
    if best is None:
        return None
    return offset_to_line_col(text, best)


def place_records(records: Iterable[FailureRecord], cwd: str | os.PathLike[str]) -> None:
    """Give plugin_startup records their line in the manifest or config.

    A manifest JSON error goes to its line/column (from the printed offset,
    else from parsing the manifest); a missing dependency to the config
    line that names it; an unknown hook to its `def`.
    """
    base = Path(cwd)
    for rec in records:
        if rec.failure_type != FailureType.PLUGIN_STARTUP or not rec.source_file:
            continue
        if rec.source_line is not None and "position" not in rec.hint:
            continue
        hint = rec.hint
        manifest = hint.get("manifest")
        if (
            isinstance(manifest, str)
            and PurePosixPath(manifest).name == PurePosixPath(rec.source_file).name
        ):
            hint["manifest"] = rec.source_file  # as resolved against the cwd
        text = read_in_tree(base, rec.source_file, MAX_MANIFEST_BYTES)
        if text is None:
            continue
        where: tuple[int, int] | None = None
        if "json_error" in hint:
            pos = hint.get("position")
            if rec.source_line is not None:
                continue
            if isinstance(pos, int):
                where = offset_to_line_col(text, pos)
            else:
                err = json_error_at(text)
                if err:
                    where = (err[0], err[1])
        elif isinstance(hint.get("hook_command"), str):  # an agent hook's settings entry
            where = find_text_line(text, hint["hook_command"], quoted=False)
        elif isinstance(hint.get("hook"), str):
            where = find_text_line(text, f"def {hint['hook']}(", quoted=False)
        elif isinstance(hint.get("dependency"), str):
            where = find_text_line(text, hint["dependency"])
        if where:
            rec.source_line, rec.source_column = where
