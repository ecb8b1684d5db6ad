"""The trust_gate recipe's planner (see recipes/trust_gate.md): never automatic.

`plan` always refuses, so the finding is escalated at once ("needs human
review") with what a reviewer needs: the scanner, the rule, where, the
signal with the secret redacted, and what "mark reviewed" would write (the
tool's own allow-list syntax, produced by recipes/trust.py's
`mark_reviewed` only when a human asks for it).
"""

from __future__ import annotations

from faultlens.classifier.redact import redact

from ..context import PlanContext
from ..model import Refusal

ALLOW_LIST = {
    "gitleaks": "the finding's fingerprint appended to .gitleaksignore",
    "bandit": "`# nosec <test id>` at the end of the flagged line",
    "semgrep": "`# nosemgrep: <rule-id>` at the end of the flagged line",
    "eslint": "`// eslint-disable-next-line <rule> -- reviewed by a human` above the line",
    "detect-secrets": "`# pragma: allowlist secret` at the end of the flagged line",
}


def review_details(ctx: PlanContext) -> list[str]:
    rec = ctx.record
    out = [f"Finding: {redact(rec.signal)}"]
    if rec.tool:
        out.append(f"Scanner: {rec.tool}" + (f" (rule {rec.code})" if rec.code else ""))
    if rec.source_file:
        where = rec.source_file + (f":{rec.source_line}" if rec.source_line else "")
        out.append(f"Where: {where}")
    secret = rec.hint.get("secret")
    if isinstance(secret, str) and secret:
        out.append(f"Secret: {redact(secret)} (redacted)")
    tool = (rec.tool or "").lower()
    if (rec.source_file and rec.source_line) or tool == "gitleaks":
        how = ALLOW_LIST.get(tool, ALLOW_LIST["detect-secrets"])
        out.append(f"Mark reviewed (by hand only) writes: {how}")
    return out


def plan(ctx: PlanContext) -> Refusal:
    return Refusal(
        "needs human review: a trust gate is never passed automatically",
        suggestions=[
            "rotate the secret / fix the finding, then re-run the scan",
            "or, after review, mark it reviewed (the scanner's own allow-list entry)",
        ],
        details=review_details(ctx),
    )
