"""Deciding fixes that nothing could verify when they were made.

A fix applied from the editor to ingested output (no command is known: a
pasted log, a CI log, an agent's output) is "applied", not recovered: its
attempt stays open in the ledger (state "applied").  The next run of that
failure that faultlens sees decides it, in the same task:

* it no longer reports the failure → recovered ("no longer reported by the
  next run: ...");
* it reports it again → escalated ("still reported by the next run after the
  fix"); the failure's one automatic attempt is spent, as for any attempt.

"The next run of that failure" is a run that could have reported it: the
same command when the failure's record names one, else a run of the same
tool (the command's program, or a record of the same tool in the run).  A
run of another tool proves nothing and leaves the attempt open.  Called by
`faultlens run` and the server after each run or ingest is classified.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .rerun_proof import base_id

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .events import EventLog
    from .ledger import AttemptRow, Ledger


@dataclass(slots=True, frozen=True)
class Decided:
    """An applied attempt a run decided."""

    failure_id: str
    state: str  # recovered | escalated
    reason: str


def _tool_of(argv: Sequence[str]) -> str | None:
    from faultlens.classifier.fallback import command_tool

    return command_tool(list(argv)) if argv else None


def covers(row: AttemptRow, argv: Sequence[str], records: Sequence[FailureRecord]) -> bool:
    """Whether a run of `argv` that reported `records` could have reported the
    attempt's failure (so its absence means something)."""
    from faultlens.classifier.redact import redact_argv

    rec: dict[str, Any] = row.record or {}
    command = (rec.get("hint") or {}).get("command")
    if isinstance(command, list) and command:
        return bool(argv) and [str(c) for c in command] == redact_argv(list(argv))
    tool = rec.get("tool")
    if not isinstance(tool, str) or not tool:
        return False
    run_tool = _tool_of(argv)
    return tool == run_tool or any(r.tool == tool for r in records)


def confirm_applied(
    ledger: Ledger,
    task: str | None,
    argv: Sequence[str],
    records: Sequence[FailureRecord],
    events: EventLog | None = None,
) -> list[Decided]:
    """Decide the task's applied attempts this run covers (see the module docstring)."""
    rows = ledger.applied_attempts(task)
    if not rows:
        return []
    from faultlens.classifier.redact import shown_command

    seen = {base_id(r.id) for r in records}
    what = f"`{shown_command(list(argv))}`" if argv else "the next output"
    out: list[Decided] = []
    for row in rows:
        if not covers(row, argv, records):
            continue
        if base_id(row.failure_id) in seen:
            state, reason = "escalated", f"still reported by the next run after the fix ({what})"
        else:
            state, reason = "recovered", f"no longer reported by the next run ({what})"
        if ledger.settle_applied(row.id, state, reason):
            out.append(Decided(row.failure_id, state, reason))
            if events is not None:
                _emit(events, row, state, reason)
    return out


def _emit(events: EventLog, row: AttemptRow, state: str, reason: str) -> None:
    from faultlens.classifier.record import FailureRecord

    try:
        rec = FailureRecord.from_json(row.record or {})
    except ValueError:
        return
    if state == "recovered":
        events.emit(
            "recovery.succeeded", rec, tried=row.tried, reason=reason, note=reason, verified=True
        )
    else:
        events.emit("recovery.escalated", rec, tried=row.tried, reason=reason)
