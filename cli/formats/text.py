"""The text table a person reads at a glance, and JSON / JSON lines."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: keeps `faultlens serve` start-up light
    from faultlens.classifier.record import FailureRecord

    from .common import Context


def location(r: FailureRecord) -> str:
    if not r.source_file:
        return "-"
    out = r.source_file
    if r.source_line:
        out += f":{r.source_line}"
        if r.source_column:
            out += f":{r.source_column}"
    return out


def _affected(r: FailureRecord) -> str:
    """ " (60 tests affected)" for a record of one cause that failed many tests."""
    return f" ({r.affected} tests affected)" if r.affected > 1 else ""


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def render_text(records: Sequence[FailureRecord], ctx: Context) -> str:
    """A table a person can read at a glance, then a one-line summary."""
    if not records:
        return "faultlens: no failures found\n"
    width = shutil.get_terminal_size((120, 20)).columns
    rows = [(r.failure_type.value, r.severity.value, location(r), r.signal) for r in records]
    affected = [_affected(r) for r in records]
    heads = ("CATEGORY", "SEVERITY", "LOCATION", "SIGNAL")
    w0 = max(len(heads[0]), *(len(r[0]) for r in rows))
    w1 = max(len(heads[1]), *(len(r[1]) for r in rows))
    w2 = min(60, max(len(heads[2]), *(len(r[2]) for r in rows)))
    rest = max(20, width - w0 - w1 - w2 - 6)
    lines = [f"{heads[0]:<{w0}}  {heads[1]:<{w1}}  {heads[2]:<{w2}}  {heads[3]}"]
    for (c0, c1, c2, c3), more in zip(rows, affected, strict=True):
        signal = _clip(c3, max(10, rest - len(more))) + more
        lines.append(f"{c0:<{w0}}  {c1:<{w1}}  {_clip(c2, w2):<{w2}}  {signal}")
    counts: dict[str, int] = {}
    for r in records:
        counts[r.failure_type.value] = counts.get(r.failure_type.value, 0) + 1
    summary = ", ".join(f"{n} {k}" for k, n in counts.items())
    noun = "failure" if len(records) == 1 else "failures"
    lines.append("")
    tests = sum(r.affected for r in records if r.affected > 1)
    grouped = f" ({tests} failing tests in groups of one cause)" if tests else ""
    lines.append(f"{len(records)} {noun}: {summary}{grouped}")
    return "\n".join(lines) + "\n"


def render_json(records: Sequence[FailureRecord], ctx: Context) -> str:
    return json.dumps([r.to_json() for r in records], indent=2, ensure_ascii=False) + "\n"


def render_jsonl(records: Sequence[FailureRecord], ctx: Context) -> str:
    return "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in records)
