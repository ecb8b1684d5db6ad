"""The seed's options after an escalation: retry a task with fresh context (at
most `max_task_retries`, 2), skip it, stop.  Recorded in the ledger (a retry
opens a new attempt generation) and logged ("user selected: retry")."""

from __future__ import annotations

from .events import EventLog
from .ledger import Ledger, task_key
from .model import TaskState, Workspace


def _state(ws: Workspace, task: str | None, accepted: bool = True, message: str = "") -> TaskState:
    status, used, _ = Ledger.open(ws).task(task)
    return TaskState(task_key(task), status, used, ws.settings.max_task_retries, accepted, message)


def retry_task(task: str | None, ws: Workspace) -> TaskState:
    """The human chose `retry`: counted, refused past the limit ("2 of 2 retries used")."""
    limit = ws.settings.max_task_retries
    ok, used = Ledger.open(ws).note_retry(task, limit)
    events = EventLog(ws)
    key = task_key(task)
    if not ok:
        msg = f"{used} of {limit} retries used; a human must decide (skip or stop)"
        events.info(f"user selected: retry (refused: {msg})", task=key)
        return _state(ws, task, False, msg)
    events.info("user selected: retry", task=key)
    events.info(f"retrying {key} with fresh context (retry {used})", task=key)
    return _state(ws, task, True, f"retry {used} of {limit}")


def skip_task(task: str | None, ws: Workspace) -> TaskState:
    Ledger.open(ws).set_task_status(task, "skipped", "skipped by user")
    EventLog(ws).info("user selected: skip", task=task_key(task))
    return _state(ws, task, True, f"{task_key(task)} skipped; the other tasks continue")


def stop_task(task: str | None, ws: Workspace) -> TaskState:
    Ledger.open(ws).set_task_status(task, "stopped", "stopped by user")
    EventLog(ws).info("user selected: stop", task=task_key(task))
    return _state(ws, task, True, "stopped; completed work is kept")
