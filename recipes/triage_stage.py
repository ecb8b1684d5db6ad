"""Triage in `faultlens run --recover`: a verdict on every test and compile
failure, and what each verdict makes of the run's attempts.

recipes/run_recovery.py calls `stage()` once, after the test attempt (the re-run
that tells flaky from real, made before anything changed) and before any
attempt that changes files, then `finish()` once every attempt was made:

    flaky         (the re-run passed, or history) no check needed
    stale_branch  the branch_divergence recipe is the attempt: one sync
                  (rebase, or merge-forward) for all of them, through the
                  normal branch_divergence attempt of the run, on a record
                  that stands for "the branch is behind"; each stale failure
                  is then what the final run of the original command says
    preexisting   escalated: "also failing on <upstream>"; a compile failure
                  is not fixed here (the fix belongs upstream)
    yours         the attempt goes on as before (the compile fix is made)
    unknown       the attempt goes on as before; the reason is kept

Cheap when there is nothing to compare with: no git, a detached HEAD or no
upstream give `unknown` without any worktree; a checkout that is its
upstream, unchanged, is `preexisting` without any run.  The checks
(recipes/triage_check.py) run the failing tests (or the original command)
at most twice, in temporary worktrees.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .lifecycle.tally import SYNC_RULE
from .triage import Check, decide, needs_merged_check, needs_upstream_check, same_as_upstream
from .triage import text as triage_text
from .triage import unknown as unknown_verdict

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord, Triage

    from .model import Workspace
    from .run_state import RunState
    from .triage_check import Checkout

log = logging.getLogger(__name__)

Say = Callable[[str], None]
TRIAGED = ("test", "compile")
DEFAULT_TIMEOUT_S = 300.0
DEFAULT_FETCH_TIMEOUT_S = 60.0


@dataclass(slots=True)
class TriageSettings:
    enabled: bool = True
    fetch: bool = True
    timeout: float = DEFAULT_TIMEOUT_S
    fetch_timeout: float = DEFAULT_FETCH_TIMEOUT_S


def settings(ws: Workspace) -> TriageSettings:
    """`[triage]` in recipes/test.md (overridable per project), bounded."""
    from .docs import recipe_doc, setting
    from .triage_check import MAX_TIMEOUT_S

    doc = recipe_doc("test", ws)

    def seconds(key: str, default: float) -> float:
        raw = setting(doc, key, default)
        value = (
            float(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else default
        )
        return min(max(value, 1.0), MAX_TIMEOUT_S)

    enabled = setting(doc, "triage.enabled", True)
    fetch = setting(doc, "triage.fetch", True)
    return TriageSettings(
        enabled=enabled is not False,
        fetch=fetch is not False,
        timeout=seconds("triage.timeout", DEFAULT_TIMEOUT_S),
        fetch_timeout=seconds("triage.fetch_timeout", DEFAULT_FETCH_TIMEOUT_S),
    )


# -- the verdicts --------------------------------------------------------------------------
@dataclass(slots=True)
class TriageVerdicts:
    """The triage of one run's failures."""

    by_id: dict[str, Triage] = field(default_factory=dict)
    checkout: Checkout | None = None
    upstream_sha: str | None = None
    behind: int = 0


def triage(
    ws: Workspace,
    records: Sequence[FailureRecord],
    *,
    command: Sequence[str],
    cwd_rel: str,
    say: Say,
    config: TriageSettings | None = None,
) -> TriageVerdicts:
    """Check each failure against the upstream (see the module docstring)."""
    from .model import StateUnavailable
    from .triage_check import locate

    config = config or settings(ws)
    out = TriageVerdicts()
    if not records:
        return out
    if not config.enabled:
        return _all(out, records, unknown_verdict("not checked: triage is off ([triage] enabled)"))
    run_cwd = ws.root if cwd_rel in ("", ".") else ws.root / cwd_rel
    co = locate(run_cwd)
    if isinstance(co, str):
        return _all(out, records, unknown_verdict(f"not checked: {co}"))
    out.checkout = co
    try:
        return _checked(ws, co, records, command, say, config, out)
    except (StateUnavailable, OSError, RuntimeError, ValueError) as exc:
        log.warning("triage stopped", exc_info=exc)
        return _all(out, records, unknown_verdict(f"not checked: {exc}"))


def _all(out: TriageVerdicts, records: Sequence[FailureRecord], verdict: Triage) -> TriageVerdicts:
    for rec in records:
        out.by_id[rec.id] = copy.copy(verdict)
    return out


def _checked(
    ws: Workspace,
    co: Checkout,
    records: Sequence[FailureRecord],
    command: Sequence[str],
    say: Say,
    config: TriageSettings,
    out: TriageVerdicts,
) -> TriageVerdicts:
    from .triage_check import fetch, local_changes, position
    from .triage_run import check_in

    fetched = ""
    if config.fetch and co.remote != ".":
        say(f"triage: git fetch {co.remote}")
        fetched = fetch(co, config.fetch_timeout)
    elif not config.fetch:
        fetched = "not fetched ([triage] fetch = false)"
    pos = position(co, ws, fetched)
    if isinstance(pos, str):
        return _all(out, records, unknown_verdict(f"not checked: {pos}"))
    up, sha = pos
    out.upstream_sha, out.behind = sha, up.behind
    if same_as_upstream(up):
        for rec in records:
            out.by_id[rec.id] = decide(up, None, None)
        return out
    from .triage_team import failing_upstream_elsewhere

    known = failing_upstream_elsewhere(ws, records, command, up, sha)
    out.by_id.update(known)
    records = [r for r in records if r.id not in known]  # the rest: checked here, as before
    if not records:
        return out
    merged: dict[str, Check] = {}
    if needs_merged_check(up):
        changes = local_changes(co, ws) if up.dirty else None
        if isinstance(changes, str):
            merged = {r.id: Check("inconclusive", f"{changes}: not carried over") for r in records}
        else:
            # Only behind: the upstream itself is the merged tree (plus the local changes).
            base, merge = (sha, None) if up.ahead == 0 else (co.head, sha)
            say(f"triage: re-running the failures with {up.name} merged in (temporary worktree)")
            merged = check_in(ws, co, records, command, config.timeout, base, merge, changes)
    need = [r for r in records if needs_upstream_check(up, merged.get(r.id))]
    alone: dict[str, Check] = {}
    if need:
        say(f"triage: re-running the failures on {up.name} (temporary worktree)")
        alone = check_in(ws, co, need, command, config.timeout, sha, None, None)
    for rec in records:
        out.by_id[rec.id] = decide(up, merged.get(rec.id), alone.get(rec.id))
    return out


# -- the run's hook ----------------------------------------------------------------------------
@dataclass(slots=True)
class Staged:
    """What `stage` decided, for `finish`."""

    verdicts: TriageVerdicts = field(default_factory=TriageVerdicts)
    stale: list[FailureRecord] = field(default_factory=list)
    proxy: FailureRecord | None = None


def _candidates(st: RunState, by_type: dict[str, list[FailureRecord]]) -> list[FailureRecord]:
    """The test and compile failures still open: a test the re-run found flaky
    needs no check."""
    out = []
    for ft in TRIAGED:
        for rec in by_type.get(ft, []):
            prior = st.results.get(rec.id)
            if prior is not None and prior.result == "recovered":
                continue
            out.append(rec)
    return out


def _mark(records: Sequence[FailureRecord], rid: str, verdict: Triage) -> None:
    for rec in records:
        if rec.id == rid:
            rec.triage = copy.copy(verdict)


def stage(
    st: RunState,
    records: Sequence[FailureRecord],
    by_type: dict[str, list[FailureRecord]],
) -> Staged:
    """Triage the run's open test and compile failures and route them: stale
    ones to one branch sync (added to `by_type["branch_divergence"]`),
    pre-existing ones escalated (compile ones taken out of the compile
    attempt).  `records` are the run's own records (their `triage` is set)."""
    from faultlens.classifier.record import Triage

    from . import history
    from .run_state import note_result

    staged = Staged()
    given = [rec for ft in TRIAGED for rec in by_type.get(ft, [])]  # before any is taken out
    for ft in TRIAGED:
        for rec in by_type.get(ft, []):
            prior = st.results.get(rec.id)
            if prior is not None and prior.result == "recovered":
                flaky = Triage(verdict="flaky", reason=prior.reason.removeprefix("flaky test: "))
                rec.triage = flaky
                prior.record.triage = copy.copy(flaky)
                _mark(records, rec.id, flaky)
    open_records = _candidates(st, by_type)
    todo = []
    for rec in open_records:
        known = history.flaky_by_history(st.ledger, rec)
        if known is not None:
            rec.triage = known
            _mark(records, rec.id, known)
        else:
            todo.append(rec)
    started = time.monotonic()
    verdicts = triage(st.ws, todo, command=st.command, cwd_rel=st.cwd, say=st.say)
    took = round(time.monotonic() - started, 3)
    staged.verdicts = verdicts
    for rec in todo:
        verdict = verdicts.by_id.get(rec.id)
        if verdict is None:
            continue
        rec.triage = verdict
        _mark(records, rec.id, verdict)
        prior = st.results.get(rec.id)
        if prior is not None:
            prior.record.triage = copy.copy(verdict)
        line = f"Triage: {triage_text(verdict)}"
        if verdict.verdict == "preexisting":
            _take_out(by_type, rec)
            tried = prior.tried if prior is not None else "nothing (pre-existing)"
            details = [line, *(prior.details if prior is not None else [])]
            note_result(
                st,
                rec,
                "escalated",
                tried,
                f"also failing on {verdict.upstream}: not introduced here",
                details,
            )
        elif verdict.verdict == "stale_branch":
            _take_out(by_type, rec)
            staged.stale.append(rec)
        elif prior is not None and line not in prior.details:
            prior.details.insert(0, line)
    _log_verdicts(st, given, {r.id for r in todo}, took)
    if staged.stale:
        staged.proxy = _proxy(st, verdicts, staged.stale)
        if staged.proxy is not None:
            by_type.setdefault("branch_divergence", []).insert(0, staged.proxy)
        else:
            staged.stale = []
    return staged


def _log_verdicts(
    st: RunState, records: Sequence[FailureRecord], checked: set[str], took: float
) -> None:
    """One `failure.triaged` event per verdict triage found (records alike in
    verdict and reason in one write); `check_s` is how long the checks took, on
    those the checks judged.  "not checked: ..." (no upstream, triage off, not
    git) did nothing to log: the record carries that reason."""
    groups: dict[tuple[str, str, str | None, bool], list[FailureRecord]] = {}
    for rec in records:
        v = rec.triage
        if v is not None and not (v.verdict == "unknown" and v.reason.startswith("not checked")):
            key = (v.verdict, v.reason, v.upstream, rec.id in checked)
            groups.setdefault(key, []).append(rec)
    for (verdict, reason, upstream, was_checked), recs in groups.items():
        extra: dict[str, object] = {"verdict": verdict, "reason": reason}
        if upstream:
            extra["upstream"] = upstream
        if was_checked:
            extra["check_s"] = took
        st.events.emit_many("failure.triaged", recs, **extra)


def _take_out(by_type: dict[str, list[FailureRecord]], rec: FailureRecord) -> None:
    """A compile failure that triage settles is not attempted by the compile
    recipe (a test's attempt, the re-run, was already made)."""
    if rec.failure_type.value == "compile" and rec in by_type.get("compile", []):
        by_type["compile"].remove(rec)


def _proxy(
    st: RunState, verdicts: TriageVerdicts, stale: Sequence[FailureRecord]
) -> FailureRecord | None:
    """The record the branch sync is attempted for: "the branch is behind
    <upstream>".  Its id names the branch, HEAD and the upstream commit, so
    the same situation met again is not synced twice (anti-loop)."""
    from faultlens.classifier.record import FailureRecord
    from faultlens.classifier.taxonomy import category

    co = verdicts.checkout
    if co is None or verdicts.upstream_sha is None:
        return None
    cat = category("branch_divergence")
    key = f"stale\0{co.branch}\0{co.head}\0{verdicts.upstream_sha}"
    n = len(stale)
    return FailureRecord(
        failure_type=cat.failure_type,
        severity=cat.severity,
        signal=(
            f"branch {co.branch} is {verdicts.behind} commit(s) behind {co.upstream}; "
            f"{n} failure{'s' if n != 1 else ''} pass once it is merged in"
        ),
        auto_recoverable=cat.auto_recoverable,
        recipe=cat.recipe,
        id=hashlib.sha256(key.encode()).hexdigest()[:16],
        tool="git",
        code="behind",
        message=f"stale branch: {', '.join(r.id for r in stale[:10])}",
        rule=SYNC_RULE,
        task=st.task,
        hint={
            "branch": co.branch,
            "upstream": co.upstream,
            "stale": [r.id for r in stale],
            "command": list(st.command),
            "cwd": st.cwd,
        },
    )


def finish(st: RunState, staged: Staged) -> None:
    """After every attempt: the stale failures take the branch sync's result
    (the final run of the original command then says whether each is gone),
    and the sync's own attempt is stored."""
    from .lifecycle.settle import settle
    from .outcome import store
    from .run_state import note_result

    proxy = staged.proxy
    if proxy is None:
        return
    synced = st.results.get(proxy.id)
    if synced is not None:
        aid = st.claims.get(proxy.id)
        keep = aid is not None or synced.result == "escalated"
        if proxy.id not in st.continued:
            settle(st.ledger, st.events, synced, aid, keep=keep)
        elif keep:  # its ledger row only: the stale failures' own results say it
            store(st.ledger, synced, aid)
    for rec in staged.stale:
        if rec.id not in st.claims and synced is not None:
            # the sync is this failure's attempt: its row, for the ledger's counts
            aid = st.ledger.claim(rec.id, rec.task, rec.failure_type.value, rec, run_id=st.run_id)
            if aid is not None:
                st.claims[rec.id] = aid
        verdict = rec.triage
        line = f"Triage: {triage_text(verdict)}"
        prior = st.results.get(rec.id)
        earlier = [d for d in (prior.details if prior else []) if not d.startswith("Triage:")]
        if synced is not None and synced.result == "recovered":
            note_result(
                st,
                rec,
                "recovered",
                synced.tried,
                f"stale branch: brought up to date with {proxy.hint.get('upstream')}",
                [line, *earlier],
            )
        else:
            why = synced.reason if synced is not None else "the branch sync was not made"
            if synced is not None and st.changes and "uncommitted changes" in why:
                why = (
                    "another recipe of this run changed files, and the sync never runs on a "
                    f"dirty tree ({why}): commit or revert them, then run again"
                )
            tried = synced.tried if synced is not None else "nothing"
            note_result(st, rec, "escalated", tried, f"stale branch, but {why}", [line, *earlier])
