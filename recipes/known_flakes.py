""" "Retry only known flakes": with `[recipes.test] retry = "known-flakes"` in
the project's config, the test recipe re-runs only the failing tests with a
flaky history, and escalates the others without a re-run.

A test has a flaky history when the workspace's own ledger says so (it
passed on its own re-run before, or failed on code the same command passed
on: recipes/history.py) or the team's database does (any runner: triaged
flaky, or failed where the same command passed on the same code;
recipes/team/reads.py).  Without a team database only the ledger is asked;
with the setting absent (or "all") every failing test is re-run, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .ledger import Ledger
    from .model import Workspace

KNOWN_FLAKES = "known-flakes"
NOT_RERUN = 'not re-run: no flaky history, here or on the team\'s runners ([recipes.test] retry = "known-flakes")'


def only_known_flakes(ws: Workspace) -> bool:
    from .team.sync import settings_for

    try:
        return settings_for(ws).retry == KNOWN_FLAKES
    except Exception:  # a config that cannot be read: the default, every test
        return False


def _tests(rec: FailureRecord) -> list[str]:
    from .team.quarantine import failing_tests

    return failing_tests([rec]) or []


def split(
    ws: Workspace, ledger: Ledger | None, records: Sequence[FailureRecord]
) -> tuple[list[FailureRecord], list[FailureRecord]]:
    """(the records to re-run, the ones without a flaky history)."""
    from .team.reads import known_flaky

    flaky_here = {
        rec.id
        for rec in records
        if (rec.triage is not None and rec.triage.verdict == "flaky")
        or (ledger is not None and _flaky_in(ledger, rec.id))
    }
    rest = [r for r in records if r.id not in flaky_here]
    team = known_flaky(ws, [t for r in rest for t in _tests(r)]) if rest else set()
    rerun: list[FailureRecord] = []
    not_known: list[FailureRecord] = []
    for rec in records:
        tests = _tests(rec)
        known = rec.id in flaky_here or (bool(tests) and any(t in team for t in tests))
        (rerun if known else not_known).append(rec)
    return rerun, not_known


def _flaky_in(ledger: Ledger, failure_id: str) -> bool:
    from . import history

    try:
        return history.history(ledger, failure_id).flaky > 0
    except Exception:  # history is a courtesy: unknown is "no history"
        return False
