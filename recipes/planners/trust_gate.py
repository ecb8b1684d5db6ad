"""The trust_gate recipe's planner (see recipes/trust_gate.md): never automatic.

`plan` always refuses, so the finding is escalated at once ("needs human
review") with what a reviewer needs: the scanner, the rule, where, the
signal with the secret redacted, and what "mark reviewed" would write (the
tool's own allow-list syntax, produced by recipes/trust.py's
`mark_reviewed` only when a human asks for it).

A push the remote refused by policy (`git.push_declined`: a protected branch,
a pre-receive hook) is a trust gate too, but there is no finding to fix or to
allow-list: the escalation says what the remote refused and that the change
has to reach the branch the way its owners allow (a pull request, a review).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from faultlens.classifier.redact import redact

from ..context import PlanContext
from ..model import Refusal

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

POLICY_RULE = "git.push_declined"

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


def is_policy_refusal(record: FailureRecord) -> bool:
    """A remote's refusal of a push (no scanner finding: nothing to mark reviewed)."""
    return record.rule == POLICY_RULE


def policy_details(ctx: PlanContext) -> list[str]:
    hint = ctx.record.hint
    branch, target = hint.get("branch"), hint.get("remote_ref")
    out = [f"Refused: {redact(ctx.record.signal)}"]
    if branch and target:
        remote = hint.get("remote")
        out.append(f"Push: {branch} -> {target}" + (f" on {remote}" if remote else ""))
    said = hint.get("remote_says")
    if isinstance(said, list):
        out += [f"The remote said: {redact(str(line))}" for line in said[:4]]
    return out


def plan(ctx: PlanContext) -> Refusal:
    if is_policy_refusal(ctx.record):
        return Refusal(
            "needs a human: the remote refused the push by policy (a protected branch "
            "or a server-side hook), which no retry or rebase can pass",
            suggestions=[
                "push to a new branch and open a pull request (or merge request) for it",
                "or ask the repository's owners for the change the remote refused",
            ],
            details=policy_details(ctx),
        )
    return Refusal(
        "needs human review: a trust gate is never passed automatically",
        suggestions=[
            "rotate the secret / fix the finding, then re-run the scan",
            "or, after review, mark it reviewed (the scanner's own allow-list entry)",
        ],
        details=review_details(ctx),
    )
