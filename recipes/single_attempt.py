"""One failure's attempt (the single-attempt path): plan → apply → verify → record.

`attempt(record, ws)` is the whole automatic path (the CLI's `run --recover`):
the anti-loop check and claim in the ledger, the planner, the atomic edits,
the commands, the verification and the logs.  It never raises because of a
recipe: a crash becomes an escalated Outcome, and one failure's recipe
failing never stops the others.

The language server splits the same path: `availability` (cheap) and `plan`
(recipes/planning.py) for the code action, `claim` before planning, then,
after the client applied the edits, `complete_attempt(..., attempt_id=...)`.
`faultlens run --recover` does one attempt per failure type instead
(recipes/run_recovery.py).
"""

from __future__ import annotations

import dataclasses
import logging
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import revert
from .batch import ApplyLock
from .context import command_of
from .edits import apply_edits
from .events import EventLog
from .ledger import Ledger
from .lifecycle.claim import (
    NEVER_AUTOMATIC,
    is_never_automatic,
    repeat,
    review,
    settled,
    settled_details,
    settled_reason,
)
from .lifecycle.judge import judge
from .lifecycle.settle import settle
from .lifecycle.undo import edited_files, undo_wrong_fix, undone
from .model import (
    DEFAULT_TASK,
    ApplyError,
    Option,
    Outcome,
    Plan,
    Refusal,
    Result,
    UnsafeEdit,
    VerifyResult,
    Workspace,
)
from .outcome import make_outcome
from .planning import availability, plan
from .runner import Sink, run_commands
from .verify import verify

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .ledger import AttemptRow

log = logging.getLogger(__name__)


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


def complete_attempt(
    record: FailureRecord,
    plan: Plan,
    ws: Workspace,
    *,
    applied: bool,
    error: str | None = None,
    echo: Sink | None = None,
    command: Sequence[str] | None = None,
    attempt_id: int | None = None,
    _attempt_id: int | None = None,
    _announced: bool = False,
) -> Outcome:
    """Finish an attempt whose edits were applied (by `apply_edits` or by an editor
    through workspace/applyEdit): run the plan's commands, verify, decide
    recovered / escalated / skipped, and write the ledger, events and logs.

    `attempt_id` is the slot `claim(record, ws)` took before planning (the
    editor's path); without it the attempt is recorded now."""
    ledger = Ledger.open(ws)
    events = EventLog(ws)
    _attempt_id = attempt_id if attempt_id is not None else _attempt_id
    known = _known_ids(ledger, record)
    if not _announced:
        events.emit("recovery.attempted", record, tried=plan.title, summary=plan.summary)
    tried = plan.title
    try:
        if not applied or error:
            outcome = _outcome(
                record,
                ws,
                ledger,
                "escalated",
                tried,
                f"the fix could not be applied: {error or 'edits not applied'}",
                plan.details,
            )
        else:
            failure = run_commands(plan.commands, ws, echo)
            if failure is not None:
                outcome = _outcome(
                    record, ws, ledger, plan.on_failure, tried, failure, plan.details
                )
            else:
                vres, verified = verify(
                    plan,
                    ws,
                    record,
                    echo=echo,
                    command=list(command) if command else None,
                    known=known,
                )
                # Recovered means verified: a fix nothing could check is "applied",
                # and the next run of the failure confirms it (recipes/confirm.py).
                result: Result = (
                    ("recovered" if verified else "applied") if vres.ok else plan.on_failure
                )
                if result == "applied":
                    vres.reason += "; the next run that shows this output decides"
                details = list(plan.details)
                reason = vres.reason
                if not vres.ok:
                    undone = _undo_if_wrong(record, plan, ws, ledger, vres, known, _attempt_id)
                    if undone is not None:
                        reason, more = undone
                        details.extend(more)
                if (
                    not vres.ok
                    and vres.output_tail
                    and plan.verify_by == "exit"
                    and not any(d.startswith("Expected:") for d in details)
                ):
                    details.extend(_expected_actual(vres.output_tail))
                outcome = _outcome(
                    record,
                    ws,
                    ledger,
                    result,
                    tried,
                    reason,
                    details,
                    verified=verified,
                    exit_code=vres.exit_code,
                    full_rerun=vres.full_rerun,
                    new_records=vres.records,
                )
    except Exception as exc:  # verification itself broke
        log.warning("recipe %s crashed for %s", record.failure_type.value, record.id, exc_info=exc)
        outcome = _outcome(
            record,
            ws,
            ledger,
            "escalated",
            tried,
            f"the recipe crashed: {type(exc).__name__}: {exc}",
        )
    return settle(ledger, events, outcome, _attempt_id, note=plan.success_note)


def _undo_if_wrong(
    record: FailureRecord,
    plan: Plan,
    ws: Workspace,
    ledger: Ledger,
    vres: VerifyResult,
    known: set[str] | None,
    attempt_id: int | None,
) -> tuple[str, list[str]] | None:
    """A wrong fix never stays: when the re-run shows the same failure, or a new
    one in a file the fix edited, its edit is undone now (the reason and detail
    lines that say so), else None."""
    edited = edited_files([e.path for e in plan.edits])
    if not edited:
        return None
    cwd = plan.verify.cwd if plan.verify is not None else "."
    j = judge([record.id], vres.records, known=known, edited=edited, cwd=cwd, root=ws.root)
    if j.wrong is None:
        return None
    done = undo_wrong_fix(ws, ledger, record.id, attempt_id)
    return undone(j.wrong, done) if done is not None else None


def _known_ids(ledger: Ledger, record: FailureRecord) -> set[str] | None:
    """The ids the run that reported `record` had reported (None when unknown)."""
    from .rerun_proof import base_id

    found = ledger.find_record(record.id)
    if found is None:
        return None
    return {base_id(str(r.get("id", ""))) for r in ledger.run_records(found[1].id)}


def claim(record: FailureRecord, ws: Workspace) -> int | None:
    """Take the record's one automatic slot before planning (the editor's path:
    then `plan`, the client's edit, `complete_attempt(..., attempt_id=...)`);
    None when it was taken already (by a concurrent call, or an earlier attempt)."""
    return Ledger.open(ws).claim(record.id, record.task, record.failure_type.value, record)


def refuse(record: FailureRecord, ws: Workspace, attempt_id: int, reason: str) -> Outcome:
    """Close a claimed attempt that found nothing safe to do (escalated)."""
    ledger = Ledger.open(ws)
    outcome = _outcome(record, ws, ledger, "escalated", "nothing (no safe fix)", reason)
    return settle(ledger, EventLog(ws), outcome, attempt_id)


def _expected_actual(output: str) -> list[str]:
    from .fixes.test_rerun import expected_actual

    pair = expected_actual(output)
    if pair is None:
        return []
    return [f"Expected: {pair[0]}", f"Actual: {pair[1]}"]


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
    with ApplyLock(ws):  # planned against the files as they are, applied before release
        p = plan(record, ws, command=command, cwd=cwd)
        error: str | None = None
        if isinstance(p, Plan) and (p.automatic or manual):
            events.emit("recovery.attempted", record, tried=p.title, summary=p.summary)
            try:
                written = apply_edits(p.edits, ws)
                revert.remember(
                    ledger,
                    written,
                    task=record.task,
                    failure_ids=[record.id],
                    attempt_ids=[attempt_id] if attempt_id is not None else [],
                    title=p.title,
                )
            except (UnsafeEdit, ApplyError) as exc:
                error = str(exc)
    if isinstance(p, Refusal):
        events.emit("recovery.attempted", record, tried="planning", summary=p.reason)
        outcome = _outcome(
            record,
            ws,
            ledger,
            _refusal_result(record, p),
            "nothing (no safe fix)",
            p.reason,
            [*p.details, *(f"Suggested: {s}" for s in p.suggestions)],
        )
        return settle(ledger, events, outcome, attempt_id)
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
        return settle(ledger, events, outcome, attempt_id)
    return complete_attempt(
        record,
        p,
        ws,
        applied=error is None,
        error=error,
        echo=echo,
        command=command or command_of(record.hint.get("command")),
        _attempt_id=attempt_id,
        _announced=True,
    )


def _refusal_result(record: FailureRecord, refusal: Refusal) -> Result:
    return refusal.result


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
    "attempt",
    "availability",
    "claim",
    "complete_attempt",
    "escalate",
    "plan",
    "refuse",
]
