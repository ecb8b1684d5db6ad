"""The settle stage: the one place an attempt's outcome is written.  The
ledger's row (the slot claimed before planning, or a row of its own), then
its event, which also writes the text logs (recipes/events.py).  Every front
and every path ends an attempt here: a single failure's attempt, one run's
conclusion, a stale branch's sync, the agent hook's verdicts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..outcome import emit_result, store

if TYPE_CHECKING:
    from ..events import EventLog
    from ..ledger import Ledger
    from ..model import Outcome


def settle(
    ledger: Ledger,
    events: EventLog,
    outcome: Outcome,
    attempt_id: int | None,
    *,
    note: str = "",
    keep: bool = True,
) -> Outcome:
    """Write `outcome`: the ledger (unless `keep` is False: an outcome whose
    failure's row was written before, an anti-loop repeat), then the event."""
    if keep:
        store(ledger, outcome, attempt_id)
    emit_result(events, outcome, note)
    return outcome
