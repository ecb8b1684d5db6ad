"""One attempt is one attempt, counted once: a failure reported at several
places (the same fingerprint, the classifier's `.2`, `.3` repeats: tsc naming
one missing name at two lines) is one failure, fixed by one edit in one
attempt.  The run's summary, `status` (the ledger's counts) and the MCP
answer count through here, so they agree.  Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..rerun_proof import base_id

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from ..model import Outcome

# The rule of the record a stale branch's sync is attempted for (recipes/triage_stage.py):
# the sync is the stale failures' attempt, kept in the ledger so it is not made twice,
# never counted as a failure of its own.
SYNC_RULE = "triage.stale_branch"

# When one failure's places ended differently, the worst stands for it.
_WORST_FIRST = ("escalated", "pending", "skipped", "applied", "recovered")


def worst(states: Iterable[str]) -> str:
    seen = list(states)
    return next((s for s in _WORST_FIRST if s in seen), seen[0] if seen else "escalated")


def one_per_failure(outcomes: Sequence[Outcome]) -> list[Outcome]:
    """The outcomes, one per failure (the first place of each; its result the
    worst of its places)."""
    by_failure: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_failure.setdefault(base_id(o.record.id), []).append(o)
    out = []
    for group in by_failure.values():
        state = worst(o.result for o in group)
        out.append(next(o for o in group if o.result == state))
    return out


def records_per_failure(records: Sequence[FailureRecord]) -> list[FailureRecord]:
    """The records, one per failure (the first place of each)."""
    seen: set[str] = set()
    out = []
    for r in records:
        key = base_id(r.id)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def result_counts(outcomes: Sequence[Outcome]) -> dict[str, int]:
    """How many failures ended each way."""
    counts: dict[str, int] = {}
    for o in one_per_failure(outcomes):
        counts[o.result] = counts.get(o.result, 0) + 1
    return counts


def state_counts(rows: Iterable[tuple[str, str, int, str | None]]) -> dict[str, int]:
    """The ledger's attempts of one task, counted once per failure and task
    generation: (failure id, state, generation, rule) rows in, {state: n} out."""
    by_failure: dict[tuple[str, int], list[str]] = {}
    for failure_id, state, generation, rule in rows:
        if rule == SYNC_RULE:
            continue
        by_failure.setdefault((base_id(failure_id), generation), []).append(state)
    counts: dict[str, int] = {}
    for states in by_failure.values():
        state = worst(states)
        counts[state] = counts.get(state, 0) + 1
    return counts
