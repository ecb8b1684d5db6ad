"""One failure's attempt: claim → plan → apply → verify → settle.

`attempt(record, ws)` is the whole automatic path (the CLI's `faultlens
recover`, MCP `recover`): the anti-loop check and claim in the ledger, the
planner, the edits through the disk applier, the commands, the verification
and the logs.  It never raises because of a recipe: a crash becomes an
escalated Outcome, and one failure's recipe failing never stops the others.

`attempt_offered(record, ws, applier)` is the same path for an attempt a
human chose from what a front offered (the editor's code action): the
applier is the editor's `workspace/applyEdit` (server/editor_apply.py), the
plan may be the one made when the action was offered, and a recipe that is
not enabled is declined with nothing written.  Both go through `_claimed`;
the stages are recipes/lifecycle/ (apply.py, finish.py, settle.py, ...).
`faultlens run --recover` does one attempt per failure type instead
(recipes/run_recovery.py).
"""

from __future__ import annotations

import dataclasses
import logging
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .context import command_of
from .events import EventLog
from .ledger import Ledger
from .lifecycle.apply import Applier, ApplyResult, DiskApplier, Fixing
from .lifecycle.claim import (
    IN_PROGRESS,
    NEVER_AUTOMATIC,
    is_never_automatic,
    repeat,
    review,
    settled,
    settled_details,
    settled_reason,
)
from .lifecycle.finish import finish
from .lifecycle.settle import settle
from .model import (
    DEFAULT_TASK,
    Option,
    Outcome,
    Plan,
    Refusal,
    Result,
    Workspace,
)
from .outcome import make_outcome
from .planning import availability, plan
from .runner import Sink

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .ledger import AttemptRow

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True, slots=True)
class Attempted:
    """What an offered attempt came to, for a front that words each case itself."""

    outcome: Outcome | None = None  # settled (None: nothing was attempted)
    declined: str | None = None  # why nothing was attempted (not enabled, the slot taken)
    refused: bool = False  # the planner refused: the outcome says why
    crash: Exception | None = None  # the planner crashed: the outcome escalates it


# -- outcomes -------------------------------------------------------------------------
def _outcome(
    record: FailureRecord,
    ws: Workspace,
    ledger: Ledger,
    result: Result,
    tried: str,
    reason: str,
    details: Sequence[str] = (),
    **extra: Any,
) -> Outcome:
    return make_outcome(record, ws, ledger, result, tried, reason, details, **extra)


def attempt(
    record: FailureRecord,
    ws: Workspace,
    *,
    command: Sequence[str] | None = None,
    cwd: str | None = None,
    echo: Sink | None = None,
    manual: bool = False,
) -> Outcome:
    """The automatic path: one attempt for the record, never raising for a recipe.

    `manual=True` (`faultlens recover`) also runs plans marked non-automatic and
    records the attempt as made by hand.
    """
    try:
        return _attempt(record, ws, command, cwd, echo, manual)
    except Exception as exc:
        log.warning("attempt for %s crashed", record.id, exc_info=exc)
        detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        try:
            return escalate(record, ws, "the recipe", f"the recipe crashed: {detail}")
        except Exception:
            return Outcome(
                record=dataclasses.replace(
                    record, recovery_attempted=True, recovery_result="escalated"
                ),
                result="escalated",
                tried="the recipe",
                reason=f"the recipe crashed: {detail}",
            )


def _attempt(
    record: FailureRecord,
    ws: Workspace,
    command: Sequence[str] | None,
    cwd: str | None,
    echo: Sink | None,
    manual: bool,
) -> Outcome:
    ft = record.failure_type.value
    ledger = Ledger.open(ws)
    events = EventLog(ws)
    avail = availability(record, ws)
    if is_never_automatic(ft):
        # Escalated at once, with what the recipe's planner says a reviewer needs.
        said = review(ft, plan(record, ws, command=command, cwd=cwd))
        return escalate(record, ws, said.tried, said.reason, details=said.details)
    if not avail.offered:
        return escalate(record, ws, "nothing", avail.reason or "no recipe")
    if not avail.enabled:
        prior = ledger.automatic_attempt(record.id, record.task)
        done = settled(prior)
        if done is not None and not manual:
            return _settled(record, ws, done)  # asked again: the answer, no new attempt
        if prior is None or not manual:
            return _repeat(record, ws, ledger, events)
    # The first attempt, by hand or not, takes the failure's one automatic slot,
    # before anything is planned: two callers racing for it cannot both plan.
    attempt_id = ledger.claim(record.id, record.task, ft, record, automatic=True)
    if attempt_id is None:
        if not manual:
            return _repeat(record, ws, ledger, events)
        attempt_id = ledger.claim(record.id, record.task, ft, record, automatic=False)
    attempted = _claimed(
        record, ws, attempt_id, DiskApplier(ws, ledger), command, cwd, echo, manual=manual
    )
    assert attempted.outcome is not None  # a claimed attempt always settles
    return attempted.outcome


def attempt_offered(
    record: FailureRecord,
    ws: Workspace,
    applier: Applier,
    *,
    planned: Plan | None = None,
    command: Sequence[str] | None = None,
    cwd: str | None = None,
    echo: Sink | None = None,
) -> Attempted:
    """An attempt a front offered and a human chose (the editor's code action):
    nothing is written when the recipe is not enabled or its slot is taken
    (`declined`); else the slot is claimed, the plan made (or `planned`, made
    when the action was offered) and applied through `applier` (the editor's
    `workspace/applyEdit`), even when it is not automatic, then verified and
    settled like every attempt."""
    avail = availability(record, ws)
    if not avail.enabled:
        return Attempted(declined=avail.reason)
    # The failure's one slot is taken before anything is planned or applied: of two
    # concurrent calls for it, the second is told so and changes nothing.
    ledger = Ledger.open(ws)
    attempt_id = ledger.claim(record.id, record.task, record.failure_type.value, record)
    if attempt_id is None:
        return Attempted(declined=IN_PROGRESS)
    return _claimed(
        record, ws, attempt_id, applier, command, cwd, echo, manual=True, planned=planned
    )


def _claimed(
    record: FailureRecord,
    ws: Workspace,
    attempt_id: int | None,
    applier: Applier,
    command: Sequence[str] | None,
    cwd: str | None,
    echo: Sink | None,
    *,
    manual: bool,
    planned: Plan | None = None,
) -> Attempted:
    """The attempt whose slot is taken: plan, apply, verify, settle (every path)."""
    ledger = Ledger.open(ws)
    events = EventLog(ws)
    applied = ApplyResult()
    with applier.lock():  # planned against the files as they are, applied before release
        try:
            p = planned if planned is not None else plan(record, ws, command=command, cwd=cwd)
        except Exception as exc:
            log.warning(
                "recipe %s crashed for %s", record.failure_type.value, record.id, exc_info=exc
            )
            detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
            outcome = _outcome(
                record, ws, ledger, "escalated", "the recipe", f"the recipe crashed: {detail}"
            )
            return Attempted(settle(ledger, events, outcome, attempt_id), crash=exc)
        if isinstance(p, Plan) and (p.automatic or manual):
            events.emit("recovery.attempted", record, tried=p.title, summary=p.summary)
            ids = (attempt_id,) if attempt_id is not None else ()
            applied = applier.apply(p.edits, Fixing(record.task, (record.id,), ids, p.title))
    if isinstance(p, Refusal):
        events.emit("recovery.attempted", record, tried="planning", summary=p.reason)
        outcome = _outcome(
            record,
            ws,
            ledger,
            p.result,
            "nothing (no safe fix)",
            p.reason,
            [*p.details, *(f"Suggested: {s}" for s in p.suggestions)],
        )
        return Attempted(settle(ledger, events, outcome, attempt_id), refused=True)
    if not p.automatic and not manual:
        events.emit("recovery.attempted", record, tried=p.title, summary="not automatic")
        outcome = _outcome(
            record,
            ws,
            ledger,
            "escalated",
            f"nothing (proposed: {p.title})",
            "this recipe is not automatic here: apply it by hand (code action or `faultlens recover`)",
            p.details,
        )
        return Attempted(settle(ledger, events, outcome, attempt_id))
    command = command or command_of(record.hint.get("command"))
    done = finish(
        record, p, ws, ledger, events, applied, attempt_id=attempt_id, echo=echo, command=command
    )
    return Attempted(done)


def _repeat(record: FailureRecord, ws: Workspace, ledger: Ledger, events: EventLog) -> Outcome:
    """A failure whose recipe was already tried: escalate without trying again."""
    said = repeat(ledger.automatic_attempt(record.id, record.task))
    outcome = _outcome(record, ws, ledger, "escalated", said.tried, said.reason, said.details)
    return settle(ledger, events, outcome, None, keep=False)


def _settled(record: FailureRecord, ws: Workspace, prior: AttemptRow) -> Outcome:
    """The answer for a failure whose one attempt is over: its settled state,
    from the ledger (no new attempt, no event, no new box)."""
    stored = prior.outcome or {}
    result: Result = prior.state  # type: ignore[assignment]  # one of SETTLED_STATES
    rec = dataclasses.replace(
        record,
        recovery_attempted=True,
        recovery_result=None if result == "applied" else result,
    )
    options = [
        Option(str(o.get("id", "")), str(o.get("label", "")), str(o.get("description", "")))
        for o in stored.get("options") or []
        if isinstance(o, dict)
    ]
    box = stored.get("box")
    return Outcome(
        record=rec,
        result=result,
        tried=prior.tried,
        reason=settled_reason(prior),
        options=options if result == "escalated" else [],
        box=box if result == "escalated" and isinstance(box, str) else None,
        details=list(settled_details(prior)),
        verified=bool(stored.get("verified")),
        exit_code=stored.get("exit_code") if isinstance(stored.get("exit_code"), int) else None,
    )


def escalate(
    record: FailureRecord,
    ws: Workspace,
    tried: str,
    reason: str,
    *,
    details: Sequence[str] = (),
) -> Outcome:
    """Escalate a failure at once (trust_gate, or nothing to try): box, ledger, event."""
    ledger = Ledger.open(ws)
    events = EventLog(ws)
    outcome = _outcome(record, ws, ledger, "escalated", tried, reason, details)
    attempt_id = ledger.claim(record.id, record.task, record.failure_type.value, record)
    return settle(ledger, events, outcome, attempt_id, keep=attempt_id is not None)


__all__ = [
    "DEFAULT_TASK",
    "NEVER_AUTOMATIC",
    "Attempted",
    "attempt",
    "attempt_offered",
    "availability",
    "escalate",
    "plan",
]
