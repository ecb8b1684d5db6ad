"""Triage by the team's history: a failure the same command reported on a
clean checkout of the upstream's commit, on the team's runners, is
pre-existing without a worktree run (recipes/triage_stage.py asks before
its checks; what the team's history does not know is checked locally, as
before)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord, Triage

    from .model import Workspace
    from .triage import Upstream


def failing_upstream_elsewhere(
    ws: Workspace,
    records: Sequence[FailureRecord],
    command: Sequence[str],
    up: Upstream,
    sha: str,
) -> dict[str, Triage]:
    """Pre-existing by the team's history: the same command, on a clean
    checkout of the upstream's commit, reported the failure (its id, or its
    test) on the team's runners; no worktree run.  {} when the team's
    history knows nothing (or none is configured): checked here as before."""
    from faultlens.classifier.record import Triage

    from .team.quarantine import failing_tests
    from .team.reads import failing_upstream

    tests = {r.id: failing_tests([r]) or [] for r in records}
    try:
        seen = failing_upstream(
            ws, command, sha, [r.id for r in records], [t for ts in tests.values() for t in ts]
        )
    except Exception:  # the team's database is never the run's problem
        return {}
    out: dict[str, Triage] = {}
    for rec in records:
        hits = [f for f in seen or () if f.failure_id == rec.id or f.test_id in tests[rec.id]]
        if not hits:
            continue
        runs = sum(f.runs for f in hits)
        machines = max(f.machines for f in hits)
        where = f"{machines} machine{'s' * (machines != 1)}"
        out[rec.id] = Triage(
            verdict="preexisting",
            reason=f"also failing on {up.name} ({sha[:12]}): {runs} run(s) of the same command on "
            f"{where} (the team's history){_stale(up)}",
            upstream=up.name,
        )
    return out


def _stale(up: Upstream) -> str:
    return f"; {up.fetched}" if up.fetched else ""
