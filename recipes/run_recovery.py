"""One run's recovery (`faultlens run --recover`): ONE attempt per failure type,
per task, per run, covering every failure of that type at once, then an
honest verdict from the original command.

    original run ──► test: every failing test re-run once (one command per runner),
                     before anything changed: flaky or real
                 ──► triage (recipes/triage_stage.py): each open test and compile
                     failure checked against the upstream in a temporary worktree;
                     stale_branch → the branch sync is its attempt, preexisting →
                     escalated ("also failing on origin/main")
                 ──► trust_gate: escalated at once
                 ──► compile and the other types: every fix planned, applied as
                     one batch, its commands run once, verified once
                 ──► the original command re-run once at the end when anything
                     changed and no run of it since has shown the result
                 ──► recovered = gone from that run, and no new failure there

Each type's attempt is claimed in the ledger before it is planned
(`claim_type`), and each failure's own slot too (`claim`): a failure already
tried in this task is escalated, never retried; two processes cannot both
attempt it.  Edits are planned and applied under the workspace's apply lock
and planned against the files as they are then, so an import another process
just added is seen and never added twice.  The exit status is that of the
last run of the original command.
"""

from __future__ import annotations

import copy
import dataclasses
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import triage_stage
from .conclude import conclude
from .events import EventLog
from .ledger import Ledger
from .lifecycle.claim import IN_PROGRESS, is_never_automatic, repeat, review
from .model import Outcome, StateUnavailable, Workspace
from .outcome import make_outcome
from .planning import plan
from .rerun_proof import base_id
from .run_state import FullRun, Recovery, RunState, Say, note_result
from .runner import Sink
from .type_attempts import batch_attempt, test_attempt

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

log = logging.getLogger(__name__)


# The order the types' attempts are made in.  Tests first: a test is flaky only
# if it passed on its re-run with nothing changed in between.
ORDER = (
    "test",
    "trust_gate",
    "compile",
    "plugin_startup",
    "mcp_startup",
    "branch_divergence",
    "prompt_delivery",
    "infra",
)


def recover_run(
    records: Sequence[FailureRecord],
    ws: Workspace,
    *,
    command: Sequence[str],
    cwd: str,
    task: str | None,
    run_id: int,
    exit_code: int | None,
    echo: Sink | None = None,
    say: Say | None = None,
    held: Sequence[FailureRecord] = (),
) -> Recovery:
    """Recover the failures of one run of `command` (see the module docstring).
    `held`: the run's quarantined test failures, left out of `records`: never
    attempted, and not new when the original command reports them again."""
    st = RunState(
        ws=ws,
        ledger=Ledger.open(ws),
        events=EventLog(ws),
        task=task,
        run_id=run_id,
        command=list(command),
        cwd=cwd,
        echo=echo,
        say=say or (lambda _text: None),
    )
    st.last = FullRun(exit_code, list(records), 0)
    st.seen = {r.id for r in records}
    st.held = {base_id(r.id) for r in held}
    by_type: dict[str, list[FailureRecord]] = {}
    for rec in records:
        ft = _recipe_type(rec)
        routed = _as_compile(rec) if ft != rec.failure_type.value else rec
        by_type.setdefault(ft, []).append(routed)
    if "test" in by_type:  # first: a test is flaky only if nothing changed before its re-run
        _guarded(st, "test", by_type["test"])
    # Whose failure is it (recipes/triage_stage.py)?  Before anything changes:
    # a stale one gets the branch sync as its attempt, a pre-existing one is escalated.
    staged = _guarded_triage(st, records, by_type)
    rest = [t for t in by_type if t != "test"]
    for ft in sorted(rest, key=lambda t: ORDER.index(t) if t in ORDER else len(ORDER)):
        _guarded(st, ft, by_type[ft])
    try:
        if staged is not None and st.state_lost is None:
            triage_stage.finish(st, staged)
        if st.state_lost is None:
            return conclude(st, records)
    except StateUnavailable as exc:
        _state_lost(st, exc, records)
    return Recovery(outcomes=[st.results[r.id] for r in records if r.id in st.results])


def _state_lost(st: RunState, exc: StateUnavailable, records: Sequence[FailureRecord]) -> None:
    """The state stopped being writable mid-run (a full disk): said once, in one
    line; no attempt is made without the ledger (each needs its claim)."""
    from .events import unwritable

    if st.state_lost is None:
        st.state_lost = exc
        unwritable(st.ws, exc)
    for rec in records:
        if rec.id not in st.results:
            why = f"not attempted: the state cannot be written ({exc})"
            st.results[rec.id] = Outcome(copy.deepcopy(rec), "skipped", "nothing", why)


def _guarded(st: RunState, ft: str, records: list[FailureRecord]) -> None:
    """One type's attempt; a broken recipe never stops the others."""
    if st.state_lost is not None:
        _state_lost(st, st.state_lost, records)
        return
    try:
        _attempt_type(st, ft, records)
    except StateUnavailable as exc:
        _state_lost(st, exc, records)
    except Exception as exc:
        log.warning("the %s attempt crashed", ft, exc_info=exc)
        for rec in records:
            if rec.id not in st.results:
                st.results[rec.id] = make_outcome(
                    rec,
                    st.ws,
                    st.ledger,
                    "escalated",
                    "the recipe",
                    f"the {ft} recipe crashed: {type(exc).__name__}: {exc}",
                    with_box=False,
                )


def _guarded_triage(
    st: RunState, records: Sequence[FailureRecord], by_type: dict[str, list[FailureRecord]]
) -> triage_stage.Staged | None:
    if st.state_lost is not None:
        return None
    try:
        return triage_stage.stage(st, records, by_type)
    except StateUnavailable as exc:
        _state_lost(st, exc, [])
        return None
    except Exception as exc:  # triage informs the attempts; it never stops them
        log.warning("triage crashed", exc_info=exc)
        return None


# Exceptions that name a cause the compile recipe fixes (a missing name or module).
COMPILE_CAUSES = frozenset({"NameError", "ImportError", "ModuleNotFoundError", "ReferenceError"})


def _recipe_type(rec: FailureRecord) -> str:
    """The type whose attempt covers the record: its category, except that a test
    that failed on a missing name or module takes the compile attempt (the
    classifier files most of these as compile already; this catches the rest)."""
    ft = rec.failure_type.value
    exc = str(rec.hint.get("exception") or rec.code or "")
    if ft == "test" and exc.rsplit(".", 1)[-1] in COMPILE_CAUSES and rec.hint.get("name"):
        return "compile"
    if ft == "test" and exc in ("ImportError", "ModuleNotFoundError") and rec.hint.get("module"):
        return "compile"
    return ft


def _as_compile(rec: FailureRecord) -> FailureRecord:
    from faultlens.classifier.taxonomy import FailureType, category

    cat = category("compile")
    return dataclasses.replace(
        copy.deepcopy(rec),
        failure_type=FailureType.COMPILE,
        severity=cat.severity,
        auto_recoverable=cat.auto_recoverable,
        recipe=cat.recipe,
    )


# -- one type ------------------------------------------------------------------------------
def _attempt_type(st: RunState, ft: str, records: list[FailureRecord]) -> None:
    ledger, _ws = st.ledger, st.ws
    status = ledger.task(st.task)[0]
    fresh: list[FailureRecord] = []
    for rec in records:
        if is_never_automatic(ft):
            _never_automatic(st, rec)
        elif status in ("stopped", "skipped"):
            note_result(st, rec, "escalated", "nothing", f"the task is {status}")
        elif (prior := ledger.automatic_attempt(rec.id, rec.task)) is not None:
            said = repeat(prior)
            st.repeats.add(rec.id)
            note_result(st, rec, "escalated", said.tried, said.reason, said.details)
        else:
            fresh.append(rec)
    if not fresh:
        return
    type_claim = ledger.claim_type(st.task, st.run_id, ft, [r.id for r in fresh])
    if type_claim is None:
        for rec in fresh:
            note_result(
                st, rec, "escalated", "nothing", f"the {ft} attempt of this run was already made"
            )
        return
    claimed = []
    for rec in fresh:
        aid = ledger.claim(rec.id, rec.task, ft, rec, run_id=st.run_id)
        if aid is None:  # another process took it a moment ago
            note_result(st, rec, "escalated", "nothing", IN_PROGRESS)
            continue
        st.claims[rec.id] = aid
        claimed.append(rec)
    changed_before = st.changes
    tried = "nothing"
    try:
        tried = test_attempt(st, claimed) if ft == "test" else batch_attempt(st, ft, claimed)
    finally:
        results = [st.results[r.id].result for r in claimed if r.id in st.results]
        state = (
            "recovered"
            if results and all(r == "recovered" for r in results)
            else (
                "escalated" if "escalated" in results else (results[0] if results else "escalated")
            )
        )
        ledger.finish_type(type_claim, state, tried, "", changed=st.changes > changed_before)


def _never_automatic(st: RunState, rec: FailureRecord) -> None:
    said = review(rec.failure_type.value, plan(rec, st.ws, command=st.command, cwd=st.cwd))
    note_result(st, rec, "escalated", said.tried, said.reason, said.details)
