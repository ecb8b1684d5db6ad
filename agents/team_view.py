"""What the agents' `status` adds from the team's history database (every
runner's failures): the failures the team has seen most, and each
escalation's team line, as `faultlens status --history` shows them.  Each
read is bounded by the team settings' wait; without a database, nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class TeamFailureView(BaseModel):
    """One failure as the team's history database has seen it."""

    model_config = ConfigDict(extra="forbid")

    failure_id: str
    test_id: str | None
    failure_type: str
    summary: str = Field(description="seen N× on M machines since D; flaky F of N; ...")
    flaky: int
    passes_on_same_code: bool
    quarantined: bool


def team_view(ws: Any) -> tuple[list[TeamFailureView], str | None]:
    """The team's most seen failures (within the team settings' wait)."""
    from faultlens.recipes.team.reads import most_seen

    try:
        found, why_not = most_seen(ws, 10)
    except Exception as exc:  # the team's database is never the status's problem
        return [], f"team history: {type(exc).__name__}"
    return [
        TeamFailureView(
            failure_id=h.failure_id,
            test_id=h.test_id,
            failure_type=h.failure_type,
            summary=h.describe(),
            flaky=h.flaky,
            passes_on_same_code=h.passes_on_same_code,
            quarantined=h.quarantined,
        )
        for h in found
    ], why_not


def team_lines(ws: Any, escalations: Sequence[Any]) -> None:
    from faultlens.recipes.team.reads import histories

    try:
        found = histories(ws, [e.failure_id for e in escalations])
    except Exception:  # the team's database is never the status's problem
        return
    for e in escalations:
        h = found.get(e.failure_id)
        e.team = h.describe() if h is not None else None
