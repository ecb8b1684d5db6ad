"""The claim stage's words: the anti-loop rule and "never automatic", each
said once here, and what a failure asked about again has settled to.

The ledger keeps the rule (recipes/ledger_schema.py: one automatic attempt per
failure id per task generation, one per failure type per task per run); this
module says it the same way on every front (the run's summary and box, the
code action's disabled reason, MCP answers, the hook)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..ledger import AttemptRow
    from ..model import Plan, Refusal

# Failure types whose recipe only ever proposes: a human applies it.
NEVER_AUTOMATIC = frozenset({"trust_gate"})

# What an attempt that never acted tried.
TRIED_NOTHING_NEVER_AUTOMATIC = "nothing (never automatic)"

# The anti-loop rule, as an escalation's reason.
ANTI_LOOP = (
    "anti-loop: the recipe was already tried for this failure in this task; "
    "the same recipe is not tried twice"
)

# A concurrent caller holds the failure's slot.
IN_PROGRESS = "another process is attempting this failure right now"

# States of an attempt that is over (a question about it gets the answer, not a retry).
SETTLED_STATES = frozenset({"recovered", "escalated", "skipped", "applied"})


def never_automatic(failure_type: str) -> str:
    """Why a never-automatic failure is escalated at once."""
    return f"{failure_type} needs human review: never automatic"


def is_never_automatic(failure_type: str) -> bool:
    return failure_type in NEVER_AUTOMATIC


def already_tried(prior: AttemptRow) -> str:
    """The disabled code action's reason (and `faultlens recover`'s refusal)."""
    state = prior.state if prior.state != "pending" else "in progress"
    why = f": {prior.reason}" if prior.reason else ""
    return f"Recipe already tried for this failure ({state}{why})"


@dataclass(slots=True)
class Escalation:
    """What an escalation that acted on nothing says: tried, reason, details."""

    tried: str
    reason: str
    details: list[str] = field(default_factory=list)


def repeat(prior: AttemptRow | None) -> Escalation:
    """A failure met again after its one attempt: escalated, never tried again."""
    before = f" (earlier: {prior.tried} → {prior.state})" if prior and prior.tried else ""
    earlier = (prior.outcome or {}).get("details") if prior else None
    details = [str(d) for d in earlier] if isinstance(earlier, list) else []
    return Escalation(f"nothing this time{before}", ANTI_LOOP, details)


def review(failure_type: str, proposal: Plan | Refusal) -> Escalation:
    """A never-automatic failure: escalated at once, with what its planner says
    a reviewer needs (the proposal, or why there is none)."""
    from ..model import Refusal

    if isinstance(proposal, Refusal):
        details = [*proposal.details, *(f"Suggested: {s}" for s in proposal.suggestions)]
        return Escalation(TRIED_NOTHING_NEVER_AUTOMATIC, proposal.reason, details)
    return Escalation(
        TRIED_NOTHING_NEVER_AUTOMATIC,
        never_automatic(failure_type),
        [f"Proposed for a human: {proposal.title}", *proposal.details],
    )


def settled(prior: AttemptRow | None) -> AttemptRow | None:
    """The failure's automatic attempt when it is over (a second question about
    it is answered from it: no new attempt, no new box)."""
    if prior is None or prior.state not in SETTLED_STATES:
        return None
    return prior


def settled_reason(prior: AttemptRow) -> str:
    """What a question about a settled failure is told."""
    why = f": {prior.reason}" if prior.reason else ""
    if prior.state == "escalated":
        return f"already escalated{why} ({ANTI_LOOP})"
    return f"already {prior.state}{why}"


def settled_details(prior: AttemptRow) -> Sequence[str]:
    earlier = (prior.outcome or {}).get("details")
    return [str(d) for d in earlier] if isinstance(earlier, list) else []
