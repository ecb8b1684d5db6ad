"""SARIF 2.1.0, with the compile recipe's planned edits as `fixes`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .common import TOOL_NAME, TOOL_URL, Context, Fix, level

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _fixes(fix: Fix) -> list[dict[str, Any]]:
    changes: dict[str, list[dict[str, Any]]] = {}
    for e in fix.edits:
        changes.setdefault(e.path, []).append(
            {
                "deletedRegion": {
                    "startLine": e.start_line,
                    "startColumn": e.start_col,
                    "endLine": e.end_line,
                    "endColumn": e.end_col,
                },
                "insertedContent": {"text": e.text},
            }
        )
    return [
        {
            "description": {"text": fix.title},
            "artifactChanges": [
                {"artifactLocation": {"uri": path}, "replacements": reps}
                for path, reps in changes.items()
            ],
        }
    ]


def render_sarif(records: Sequence[FailureRecord], ctx: Context) -> str:
    from faultlens.cli import __version__

    rules: dict[str, dict[str, Any]] = {}
    results = []
    for r in records:
        rule_id = r.rule or r.failure_type.value
        rules.setdefault(
            rule_id,
            {
                "id": rule_id,
                "shortDescription": {"text": f"{r.failure_type.value} ({r.tool or '?'})"},
            },
        )
        result: dict[str, Any] = {
            "ruleId": rule_id,
            "level": level(r),
            "message": {"text": r.signal},
            "fingerprints": {"faultlens/v1": r.id},
            "properties": {"failure_type": r.failure_type.value, "record": r.to_json()},
        }
        if r.source_file:
            region: dict[str, int] = {}
            if r.source_line:
                region["startLine"] = r.source_line
                if r.source_column:
                    region["startColumn"] = r.source_column
                if r.end_line and r.end_line >= r.source_line:
                    region["endLine"] = r.end_line
                    if r.end_column:
                        region["endColumn"] = r.end_column
            phys: dict[str, Any] = {"artifactLocation": {"uri": r.source_file}}
            if region:
                phys["region"] = region
            result["locations"] = [{"physicalLocation": phys}]
        fix = ctx.fix(r)
        if fix is not None:
            result["fixes"] = _fixes(fix)
        results.append(result)
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": __version__,
                        "informationUri": TOOL_URL,
                        "rules": list(rules.values()),
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
