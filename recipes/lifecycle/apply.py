"""The apply stage: a plan's edits written through an applier, and what they
wrote kept for a revert.

An applier is where the edits go: the disk (`DiskApplier`: every file at
once, all or none, under the apply lock with the planning before it), or an
editor's `workspace/applyEdit` (server/editor_apply.py: the client's buffers,
then the disk for the files the editor left as they were).  The lifecycle
(recipes/single_attempt.py, recipes/type_attempts.py) never writes a file
itself; a test gives it a fake applier.

An applier never raises because the edits did not go in: it answers
`ApplyResult(error=...)`, and the attempt escalates with "the fix could not
be applied: ...".
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..edits import Written
    from ..ledger import Ledger
    from ..model import TextEdit, Workspace

log = logging.getLogger(__name__)

NOT_APPLIED = "edits not applied"  # an applier that said no without saying why


@dataclass(frozen=True, slots=True)
class Fixing:
    """Whose fix an apply writes, kept with what it wrote for a revert."""

    task: str | None
    failure_ids: tuple[str, ...]
    attempt_ids: tuple[int, ...] = ()
    title: str = ""
    run_id: int | None = None


@dataclass(frozen=True, slots=True)
class ApplyResult:
    """What an apply did: the files it wrote, or why the edits are not in."""

    written: list[Written] = field(default_factory=list)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class Applier(Protocol):
    """Where a plan's edits go (the disk, an editor)."""

    def lock(self) -> AbstractContextManager[object]:
        """Held while the plan is made and applied (the files cannot change
        between the two)."""
        ...

    def apply(self, edits: Sequence[TextEdit], fixing: Fixing) -> ApplyResult:
        """Write `edits` (all or none) and keep what they wrote for a revert."""
        ...


class DiskApplier:
    """The edits written to the workspace's files at once (recipes/edits.py:
    journalled, all or none), under `.faultlens/apply.lock`."""

    def __init__(self, ws: Workspace, ledger: Ledger) -> None:
        self.ws = ws
        self.ledger = ledger

    def lock(self) -> AbstractContextManager[object]:
        from ..batch import ApplyLock

        return ApplyLock(self.ws)

    def apply(self, edits: Sequence[TextEdit], fixing: Fixing) -> ApplyResult:
        from ..edits import apply_edits
        from ..model import ApplyError, UnsafeEdit

        try:
            written = apply_edits(edits, self.ws)
        except (UnsafeEdit, ApplyError) as exc:
            return ApplyResult(error=str(exc))
        keep_for_revert(self.ledger, written, fixing)
        return ApplyResult(written=written)


def keep_for_revert(ledger: Ledger, written: Sequence[Written], fixing: Fixing) -> None:
    """Keep what an apply wrote so the fix can be reverted exactly (recipes/revert.py);
    a ledger that cannot take it leaves the fix standing, only not revertable."""
    from .. import revert

    revert.remember(
        ledger,
        written,
        task=fixing.task,
        failure_ids=fixing.failure_ids,
        attempt_ids=fixing.attempt_ids,
        title=fixing.title,
        run_id=fixing.run_id,
    )


def unlocked() -> AbstractContextManager[object]:
    """The lock of an applier whose edits another process applies (an editor)."""
    return contextlib.nullcontext()
