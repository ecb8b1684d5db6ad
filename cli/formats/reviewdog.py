"""reviewdog's Diagnostic Format: `rdjson` (one DiagnosticResult) and
`rdjsonl` (one Diagnostic a line), with the compile recipe's planned edits
as `suggestions`.  Columns are UTF-8 byte counts, as reviewdog counts them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .common import TOOL_NAME, TOOL_URL, Context, byte_column, is_error

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord


def _position(path: str, line: int, col: int | None, ctx: Context) -> dict[str, int]:
    pos = {"line": line}
    if col:
        pos["column"] = byte_column(path, ctx.cwd, line, col)
    return pos


def diagnostic(r: FailureRecord, ctx: Context) -> dict[str, Any]:
    d: dict[str, Any] = {
        "message": r.message or r.signal,
        "severity": "ERROR" if is_error(r) else "WARNING",
        "source": {"name": r.tool or TOOL_NAME},
        "original_output": r.signal,
    }
    if r.source_file:
        loc: dict[str, Any] = {"path": r.source_file}
        if r.source_line:
            rng: dict[str, Any] = {
                "start": _position(r.source_file, r.source_line, r.source_column, ctx)
            }
            if r.end_line and r.end_line >= r.source_line:
                rng["end"] = _position(r.source_file, r.end_line, r.end_column, ctx)
            loc["range"] = rng
        d["location"] = loc
    if r.code:
        d["code"] = {"value": r.code}
    fix = ctx.fix(r)
    if fix is not None:
        d["suggestions"] = [
            {
                "range": {
                    "start": _position(e.path, e.start_line, e.start_col, ctx),
                    "end": _position(e.path, e.end_line, e.end_col, ctx),
                },
                "text": e.text,
            }
            for e in fix.edits
            if e.path == r.source_file  # reviewdog suggests within the diagnostic's file
        ]
        if not d["suggestions"]:
            del d["suggestions"]
    return d


def render_rdjson(records: Sequence[FailureRecord], ctx: Context) -> str:
    doc = {
        "source": {"name": TOOL_NAME, "url": TOOL_URL},
        "severity": "ERROR" if any(is_error(r) for r in records) else "WARNING",
        "diagnostics": [diagnostic(r, ctx) for r in records],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_rdjsonl(records: Sequence[FailureRecord], ctx: Context) -> str:
    return "".join(json.dumps(diagnostic(r, ctx), ensure_ascii=False) + "\n" for r in records)
