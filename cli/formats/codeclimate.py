"""GitLab's Code Quality report (a subset of the Code Climate issue format):
a JSON array of issues, each with a description, a check name, a
fingerprint, a severity and a location (path and first line)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .common import Context, is_error

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

_CATEGORY = {
    "compile": "Bug Risk",
    "test": "Bug Risk",
    "trust_gate": "Security",
    "branch_divergence": "Compatibility",
}


def issue(r: FailureRecord) -> dict[str, Any]:
    path = r.source_file or r.log_file or "."
    begin = r.source_line or r.log_line or 1
    lines: dict[str, int] = {"begin": begin}
    if r.source_file and r.end_line and r.end_line >= begin:
        lines["end"] = r.end_line
    return {
        "type": "issue",
        "description": r.signal,
        "check_name": r.rule or f"faultlens.{r.failure_type.value}",
        "fingerprint": r.id,
        "severity": "blocker" if is_error(r) else "minor",
        "categories": [_CATEGORY.get(r.failure_type.value, "Bug Risk")],
        "location": {"path": path, "lines": lines},
        "content": {"body": r.message or r.signal},
    }


def render_codeclimate(records: Sequence[FailureRecord], ctx: Context) -> str:
    return json.dumps([issue(r) for r in records], indent=2, ensure_ascii=False) + "\n"
