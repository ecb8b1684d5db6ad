"""What the workspace knows of one stored failure: the record a run stored
under an id (or a unique prefix of one), whether its one attempt was made
and how it ended, the box and options of its last outcome, and its
category's recipe document.  The CLI's `explain`, MCP `explain` and
`recover` read failures through here; the fronts only cut and print."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .ledger import RunRow
    from .model import Workspace


class NotStored(LookupError):
    """No stored failure answers the id (the message says why, in one line)."""


@dataclass(frozen=True, slots=True)
class Explanation:
    failure_id: str
    state: str  # the ledger's state of its attempt, or "never tried"
    box: str | None  # the last outcome's note, whole
    options: list[str]  # "label - description"
    recipe: str  # the category's recipe document (Markdown)


def stored_failure(ws: Workspace, failure_id: str) -> tuple[FailureRecord, RunRow]:
    """The newest stored record of `failure_id` (or of the one failure a
    prefix of it names) and the run that stored it; NotStored otherwise,
    AmbiguousId for a prefix too short or naming several."""
    from faultlens.classifier.record import FailureRecord

    from .ledger import Ledger

    if not (ws.state / "ledger.sqlite3").is_file():
        raise NotStored(
            "no failures stored yet: run the command first (faultlens run, or the run tool)"
        )
    found = Ledger.open(ws).find_record(failure_id)
    if found is None:
        raise NotStored(f"no stored failure with id {failure_id!r} (ids come from a run)")
    data, run = found
    return FailureRecord.from_json(data), run


def explain(ws: Workspace, failure_id: str) -> Explanation:
    """The stored failure's state, last box and options, and its recipe."""
    from .docs import recipe_doc
    from .ledger import Ledger

    record, _ = stored_failure(ws, failure_id)
    ledger = Ledger.open(ws)
    prior = ledger.history(record.id, limit=1)
    last = ledger.last_outcome(record.id) or {}
    return Explanation(
        failure_id=record.id,
        state=prior[0].state if prior else "never tried",
        box=last.get("box"),
        options=[f"{o['label']} - {o['description']}" for o in last.get("options") or []],
        recipe=recipe_doc(record.failure_type.value, ws).body_markdown,
    )
