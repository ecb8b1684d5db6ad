"""After the apply: the plan's commands, the verification, the judgement, the
undo of a wrong fix, and the settle, for one failure's attempt.

`finish` decides recovered / applied / escalated / skipped from what the
applier did (lifecycle/apply.py) and the re-run (recipes/verify.py: a
process, or the re-runner the workspace's settings name), and writes the
outcome once (lifecycle/settle.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..outcome import make_outcome
from ..runner import run_commands
from ..verify import verify
from .judge import judge
from .settle import settle
from .undo import edited_files, undo_wrong_fix, undone

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from ..events import EventLog
    from ..ledger import Ledger
    from ..model import Outcome, Plan, Result, VerifyResult, Workspace
    from ..runner import Sink
    from .apply import ApplyResult

log = logging.getLogger(__name__)


def finish(
    record: FailureRecord,
    plan: Plan,
    ws: Workspace,
    ledger: Ledger,
    events: EventLog,
    applied: ApplyResult,
    *,
    attempt_id: int | None,
    echo: Sink | None = None,
    command: Sequence[str] | None = None,
) -> Outcome:
    """Finish an attempt whose edits went through an applier: run the plan's
    commands, verify, decide, and settle into the slot `attempt_id` (the
    claim taken before planning).  A crash of the verification escalates."""
    known = _known_ids(ledger, record)

    def escalated(reason: str, details: Sequence[str] = ()) -> Outcome:
        return make_outcome(record, ws, ledger, "escalated", plan.title, reason, details)

    try:
        if applied.ok:
            outcome = _verified(record, plan, ws, ledger, known, attempt_id, echo, command)
        else:
            outcome = escalated(f"the fix could not be applied: {applied.error}", plan.details)
    except Exception as exc:  # verification itself broke
        log.warning("recipe %s crashed for %s", record.failure_type.value, record.id, exc_info=exc)
        outcome = escalated(f"the recipe crashed: {type(exc).__name__}: {exc}")
    return settle(ledger, events, outcome, attempt_id, note=plan.success_note)


def _verified(
    record: FailureRecord,
    plan: Plan,
    ws: Workspace,
    ledger: Ledger,
    known: set[str] | None,
    attempt_id: int | None,
    echo: Sink | None,
    command: Sequence[str] | None,
) -> Outcome:
    tried = plan.title
    failure = run_commands(plan.commands, ws, echo)
    if failure is not None:
        return make_outcome(record, ws, ledger, plan.on_failure, tried, failure, plan.details)
    vres, verified = verify(
        plan, ws, record, echo=echo, command=list(command) if command else None, known=known
    )
    # Recovered means verified: a fix nothing could check is "applied", and the
    # next run of the failure confirms it (recipes/confirm.py).
    result: Result = ("recovered" if verified else "applied") if vres.ok else plan.on_failure
    if result == "applied":
        vres.reason += "; the next run that shows this output decides"
    details = list(plan.details)
    reason = vres.reason
    if not vres.ok:
        undid = _undo_if_wrong(record, plan, ws, ledger, vres, known, attempt_id)
        if undid is not None:
            reason, more = undid
            details.extend(more)
    if (
        not vres.ok
        and vres.output_tail
        and plan.verify_by == "exit"
        and not any(d.startswith("Expected:") for d in details)
    ):
        details.extend(_expected_actual(vres.output_tail))
    return make_outcome(
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
    from ..rerun_proof import base_id

    found = ledger.find_record(record.id)
    if found is None:
        return None
    return {base_id(str(r.get("id", ""))) for r in ledger.run_records(found[1].id)}


def _expected_actual(output: str) -> list[str]:
    from ..fixes.test_rerun import expected_actual

    pair = expected_actual(output)
    if pair is None:
        return []
    return [f"Expected: {pair[0]}", f"Actual: {pair[1]}"]
