"""The CONFIDENCE.md gate of an agent workflow that failed (a confidence below its threshold)."""

from __future__ import annotations

import re

from ..base import Hit, LineContext
from ..registry import rule
from .common import BLOCK_PRIORITY, TRUST_GATE

# -- CONFIDENCE.md gate and generic secret reports ---------------------------------------------


@rule(
    id="security.confidence_gate",
    category=TRUST_GATE,
    tool="confidence-gate",
    pattern=r"(?P<file>(?<!\S)\S{0,240}?CONFIDENCE\.md)\s+gate:?\s+FAIL(?:ED)?\b[:\s-]*(?P<message>.*)$",
    triggers=("CONFIDENCE.md gate",),
    priority=BLOCK_PRIORITY,
)
def confidence_gate(m: re.Match[str], ctx: LineContext) -> Hit:
    """A CONFIDENCE.md gate that failed (an agent workflow's trust gate).

    What it detects: `CONFIDENCE.md gate FAIL` (also `gate: FAIL`,
    `FAILED`) with the reason after it. The record points at CONFIDENCE.md
    when the file exists in the working directory.

    Example output (documented format, not captured: the failure taxonomy
    seed, shared/seeds/000 trust_gate signals):
        CONFIDENCE.md gate FAIL: confidence 0.62 below threshold 0.80 (after 2 attempts)

    Recipe: trust_gate (human review; never retried automatically). hint:
    reason, attempts.

    References: shared/seeds/000 (trust_gate: "CONFIDENCE.md gate FAIL" after 2 attempts)
    """
    file = m.group("file")
    reason = m.group("message").strip()
    hint: dict[str, object] = {"reason": reason}
    if a := re.search(r"after (\d+) attempts?", reason):
        hint["attempts"] = int(a.group(1))
    return Hit(
        signal=ctx.line.strip(),
        message=f"{file} gate failed" + (f": {reason}" if reason else ""),
        file=file if ctx.exists(file) else None,
        code="confidence-gate",
        hint=hint,
    )
