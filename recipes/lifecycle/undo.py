"""A wrong fix never stays: when verification shows the same failure, or a new
failure in a file the fix edited (lifecycle/judge.py), the fix's edit is
undone at once, through the revert the ledger keeps for it (recipes/revert.py:
each file only while it still holds what the fix wrote), and the escalation
says so."""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from ..ledger import Ledger
    from ..model import Workspace
    from ..revert import Reverted

log = logging.getLogger(__name__)

WHO = "verification"  # who undid it, as the ledger's revert row says


def undo_wrong_fix(
    ws: Workspace,
    ledger: Ledger,
    failure_id: str,
    attempt_id: int | None,
    files: Collection[str] | None = None,
) -> Reverted | None:
    """Undo what the attempt `attempt_id` wrote for the failure (only `files`
    of it, when given); None when it wrote nothing the ledger kept, or the
    undo could not be made (the escalation then offers the revert)."""
    from ..revert import RevertError, of_attempt, revert

    if attempt_id is None:
        return None
    try:
        applied = of_attempt(ledger, failure_id, attempt_id)
        if applied is None:
            return None
        return revert(ws, applied, who=WHO, only=files)
    except (RevertError, OSError) as exc:
        log.warning("the wrong fix for %s could not be undone: %s", failure_id, exc)
        return None


def undone(wrong: FailureRecord, done: Reverted) -> tuple[str, list[str]]:
    """The escalation's reason and detail line for an undone fix."""
    reason = f"undone: the re-run still failed with {wrong.signal}"
    return reason, [f"Undone: {done.summary()}"]


def edited_files(paths: Collection[str]) -> list[str]:
    """A fix's edited files, each once, in order."""
    return list(dict.fromkeys(paths))
