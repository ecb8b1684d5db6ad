"""What a run asks the team database, each within a small time budget on a
thread of its own (a slow or absent server answers "unknown", never slows
the run past the budget): at a run's end, whether its command passed on this
same code elsewhere and which of its failing tests are quarantined
(`run_view`); for "retry only known flakes", which tests have a flaky
history (`known_flaky`); for triage, which failures already fail on the
upstream's commit elsewhere (`failing_upstream`).

Every answer is data: counts and names, never a command, a path or an edit.
"""

from __future__ import annotations

import shlex
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .database import HistoryUnavailable
from .sync import _mark_down, _usable, settings_for

if TYPE_CHECKING:
    import psycopg

    from ..model import Workspace
    from ..treestate import TreeState
    from .database import FailingOn, TeamHistory

T = TypeVar("T")


def shown_command(command: Sequence[str]) -> str:
    """The command as the team's rows store it (redacted, cut)."""
    from faultlens.classifier.redact import redact_argv

    return shlex.join(redact_argv(list(command)))[:2000]


def ask(
    ws: Workspace, question: Callable[[psycopg.Connection[Any]], T], budget: float | None = None
) -> T | None:
    """`question(conn)` on the team's database, or None: none configured, the
    server away (remembered a minute) or slower than `budget` (default half
    the settings' `wait`)."""
    cfg = settings_for(ws)
    url = _usable(cfg)
    if url is None:
        return None
    from .database import connect

    answer: list[T] = []

    def run() -> None:
        try:
            with connect(url) as conn:
                answer.append(question(conn))
        except HistoryUnavailable:
            _mark_down(url)
        except Exception:  # a bug here never reaches the run
            _mark_down(url)

    asker = threading.Thread(target=run, daemon=True, name="faultlens-team-read")
    asker.start()
    asker.join(cfg.wait / 2 if budget is None else budget)
    return answer[0] if answer else None


@dataclass(slots=True)
class RunView:
    """What the team says about one run's failures."""

    passed_elsewhere: bool = False  # this command passed on this same code on some runner
    quarantined: dict[str, str] = field(default_factory=dict)  # test id -> why


def run_view(
    ws: Workspace,
    command: Sequence[str],
    tree: TreeState | None,
    test_ids: Sequence[str],
    budget: float | None = None,
) -> RunView:
    """One connection at a run's end: passes elsewhere, the quarantine."""
    code = tree.tree if tree is not None else None
    if not command or not (test_ids or code):
        return RunView()
    from . import database as db

    shown = shown_command(command)

    def question(conn: psycopg.Connection[Any]) -> RunView:
        passed = db.passes_elsewhere(conn, code, shown) if code else False
        return RunView(passed, db.quarantined(conn, test_ids))

    return ask(ws, question, budget) or RunView()


def passed_elsewhere(
    ws: Workspace, command: Sequence[str], tree: TreeState | None, budget: float | None = None
) -> bool:
    """Whether a run of this command on this same code (the work tree's key)
    passed on some runner: the failures here are then flaky, with no local
    re-run.  False when unknown."""
    if tree is None or tree.tree is None or not command:
        return False
    from .database import passes_elsewhere as passes

    shown = shown_command(command)
    return bool(ask(ws, lambda conn: passes(conn, tree.tree or "", shown), budget))


def known_flaky(ws: Workspace, test_ids: Sequence[str], budget: float | None = None) -> set[str]:
    """These tests that have a flaky history on any of the team's runners."""
    if not test_ids:
        return set()
    from .database import flaky_tests

    return ask(ws, lambda conn: flaky_tests(conn, test_ids), budget) or set()


def failing_upstream(
    ws: Workspace,
    command: Sequence[str],
    upstream_sha: str,
    failure_ids: Sequence[str],
    test_ids: Sequence[str],
    budget: float | None = None,
) -> list[FailingOn] | None:
    """The failures that runs of `command` on a clean checkout of the
    upstream's commit reported on the team's runners; None when the team's
    history cannot be asked."""
    from ..treestate import clean_tree
    from .database import failing_on

    tree, shown = clean_tree(upstream_sha), shown_command(command)
    return ask(ws, lambda conn: failing_on(conn, tree, shown, failure_ids, test_ids), budget)


def histories(
    ws: Workspace, failure_ids: Sequence[str], budget: float | None = None
) -> dict[str, TeamHistory]:
    """The team's history of these failures, for a box or a status ({}
    when unknown)."""
    if not failure_ids:
        return {}
    from .database import history_of

    return ask(ws, lambda conn: history_of(conn, list(dict.fromkeys(failure_ids))), budget) or {}


def most_seen(
    ws: Workspace, limit: int = 10, budget: float | None = None
) -> tuple[list[TeamHistory], str | None]:
    """The failures the team has seen most, and why there are none (one
    line; None when no team history is configured, or it has none)."""
    cfg = settings_for(ws)
    if cfg.url is None:
        return [], cfg.problem
    from .database import most_seen as query

    found = ask(ws, lambda conn: query(conn, limit), budget)
    if found is None:
        return [], "the team database did not answer (unreachable, or slower than the wait)"
    return found, None
