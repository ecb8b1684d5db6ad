"""What the hook tells an agent of a pull request's failed CI checks (`gh pr
checks`, classifier/rules/infra/pr_checks.py): each check's category, the
primary first, and the one next step, `faultlens ci URL`, which reads that
job's log and places its failures at the checkout's lines.  A check is no
failure of this tree: no automatic attempt is claimed on it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

RULE = "infra.gh_pr_checks"


def is_ci_check(record: FailureRecord) -> bool:
    """A failed check of a pull request (`gh pr checks`), not a failure of this tree."""
    return record.rule == RULE


def ci_checks_text(checks: Sequence[FailureRecord]) -> list[str]:
    """The failed checks, the primary first, each with where its log is read."""
    lines = ["faultlens: the pull request's failed CI checks (read each job's log first):"]
    for record in checks:
        lines.append(f"- {record.failure_type.value}: {record.signal[:300]}")
        url = record.hint.get("ci_url")
        if isinstance(url, str) and url.startswith("https://") and " " not in url:
            lines.append(
                f"  next: `faultlens ci {url}` reads that job's log and names its failures "
                "at this checkout's lines"
            )
        elif record.hint.get("waits_for") == "human":
            lines.append("  a gate that waits for a person: never retried, tell the user")
    return lines
