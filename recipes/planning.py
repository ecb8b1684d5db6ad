"""What a recipe would do, without doing it: `availability` (offered? enabled?
the anti-loop rule and the task's state, for the code action) and `plan` (the
planner's Plan or Refusal; reads files, writes nothing)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .context import PlanContext, command_of
from .docs import recipe_doc
from .ledger import Ledger, task_key
from .lifecycle.claim import NEVER_AUTOMATIC, already_tried, never_automatic
from .model import Availability, Plan, Refusal, UnsafeEdit, Workspace
from .planners import get_planner

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

log = logging.getLogger(__name__)

__all__ = ["NEVER_AUTOMATIC", "availability", "plan"]


# -- availability ---------------------------------------------------------------
def availability(record: FailureRecord, ws: Workspace) -> Availability:
    """Whether a recipe is offered for the record and enabled (anti-loop, task state).
    Cheap: a ledger lookup and an import, no file reads."""
    ft = record.failure_type.value
    ledger = Ledger.open(ws)
    status, used, _ = ledger.task(record.task)
    limit = ws.settings.max_task_retries
    attempts = ledger.attempts(record.id, record.task)

    def out(offered: bool, enabled: bool, reason: str | None) -> Availability:
        return Availability(offered, enabled, reason, attempts, used, limit)

    if ft in NEVER_AUTOMATIC:
        return out(False, False, never_automatic(ft))
    if get_planner(ft) is None:
        return out(False, False, f"no automatic recipe for {ft}")
    prior = ledger.automatic_attempt(record.id, record.task)
    if prior is not None:
        return out(True, False, already_tried(prior))
    if status in ("stopped", "skipped"):
        return out(True, False, f"task {task_key(record.task)} is {status}")
    return out(True, True, None)


# -- planning ---------------------------------------------------------------------
def _context(
    record: FailureRecord, ws: Workspace, command: Sequence[str] | None, cwd: str | None
) -> PlanContext:
    doc = recipe_doc(record.failure_type.value, ws)
    cmd = list(command) if command else command_of(record.hint.get("command"))
    run_cwd = cwd if cwd is not None else str(record.hint.get("cwd") or ".")
    if cmd is None:
        found = Ledger.open(ws).find_record(record.id)
        if found is not None:
            _, run = found
            cmd, run_cwd = run.argv, run.cwd
    return PlanContext(record=record, ws=ws, doc=doc, command=cmd, cwd=run_cwd or ".")


def plan(
    record: FailureRecord,
    ws: Workspace,
    *,
    command: Sequence[str] | None = None,
    cwd: str | None = None,
) -> Plan | Refusal:
    """What the recipe would do for the record (reads files, writes nothing).

    `command`/`cwd` name the command that produced the failure (to verify by
    re-running it); by default they come from `record.hint["command"]` /
    `record.hint["cwd"]`, else from the newest stored run that reported it.
    """
    ft = record.failure_type.value
    planner = get_planner(ft)
    if planner is None:
        if ft in NEVER_AUTOMATIC:
            return Refusal(never_automatic(ft))
        return Refusal(f"no automatic recipe for {ft}")
    try:
        ctx = _context(record, ws, command, cwd)
        result = planner(ctx)
    except UnsafeEdit as exc:
        return Refusal(f"refused: {exc}")
    except Exception as exc:  # a broken recipe never stops the caller
        log.warning("recipe %s crashed while planning %s", ft, record.id, exc_info=exc)
        return Refusal(f"the {ft} recipe crashed: {type(exc).__name__}: {exc}")
    if isinstance(result, Plan) and ft in NEVER_AUTOMATIC:
        # A planner may propose (a human applies it), never act on its own.
        result.automatic = False
    if isinstance(result, Plan):
        result.failure_id = record.id
        result.failure_type = ft
        if ctx.doc.front_matter.get("automatic") is False:
            result.automatic = False
    return result
