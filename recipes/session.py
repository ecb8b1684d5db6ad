"""One run's recovery (`faultlens run --recover`): ONE attempt per failure type,
per task, per run, covering every failure of that type at once, then an
honest verdict from the original command.

    original run ──► test: every failing test re-run once (one command per runner),
                     before anything changed: flaky or real
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

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .batch import ApplyLock, merge_plans
from .edits import apply_edits
from .engine import NEVER_AUTOMATIC, plan
from .events import EventLog
from .ledger import Ledger
from .model import ApplyError, CommandStep, Outcome, Plan, Refusal, Result, UnsafeEdit, Workspace
from .outcome import emit_result, make_outcome, store, task_box
from .runner import Sink, run_step
from .test_batch import plan_reruns, run_reruns, verdicts
from .verdict import base_id, compare

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

Say = Callable[[str], None]


@dataclass(slots=True)
class FullRun:
    """A run of the original command (the first, a verification, the last)."""

    exit_code: int | None
    records: list[FailureRecord]
    after_change: int  # how many changes had been made when it ran


@dataclass(slots=True)
class Recovery:
    """What `recover_run` did."""

    outcomes: list[Outcome] = field(default_factory=list)  # one per original record
    new: list[Outcome] = field(default_factory=list)  # failures that appeared since
    exit_code: int | None = None  # of the last run of the original command
    final: list[FailureRecord] = field(default_factory=list)  # what that run reported
    reruns: int = 0  # runs of the original command after the first
    box: str | None = None  # the task's one box, when anything was escalated
    attempts: dict[str, str] = field(default_factory=dict)  # type -> what was tried


@dataclass(slots=True)
class _State:
    ws: Workspace
    ledger: Ledger
    events: EventLog
    task: str | None
    run_id: int
    command: list[str]
    cwd: str
    echo: Sink | None
    say: Say
    changes: int = 0
    last: FullRun | None = None
    results: dict[str, Outcome] = field(default_factory=dict)
    claims: dict[str, int] = field(default_factory=dict)
    repeats: set[str] = field(default_factory=set)  # escalated by the anti-loop rule
    reruns: int = 0


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
) -> Recovery:
    """Recover the failures of one run of `command` (see the module docstring)."""
    st = _State(
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
    by_type: dict[str, list[FailureRecord]] = {}
    for rec in records:
        ft = _recipe_type(rec)
        routed = _as_compile(rec) if ft != rec.failure_type.value else rec
        by_type.setdefault(ft, []).append(routed)
    for ft in sorted(by_type, key=lambda t: ORDER.index(t) if t in ORDER else len(ORDER)):
        try:
            _attempt_type(st, ft, by_type[ft])
        except Exception as exc:  # a broken recipe never stops the others
            log.warning("the %s attempt crashed", ft, exc_info=exc)
            for rec in by_type[ft]:
                if rec.id not in st.results:
                    st.results[rec.id] = make_outcome(
                        rec,
                        ws,
                        st.ledger,
                        "escalated",
                        "the recipe",
                        f"the {ft} recipe crashed: {type(exc).__name__}: {exc}",
                        with_box=False,
                    )
    return _conclude(st, records)


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
    return rec.model_copy(
        update={
            "failure_type": FailureType.COMPILE,
            "severity": cat.severity,
            "auto_recoverable": cat.auto_recoverable,
            "recipe": cat.recipe,
        },
        deep=True,
    )


# -- one type ------------------------------------------------------------------------------
def _attempt_type(st: _State, ft: str, records: list[FailureRecord]) -> None:
    ledger, _ws = st.ledger, st.ws
    status = ledger.task(st.task)[0]
    fresh: list[FailureRecord] = []
    for rec in records:
        if ft in NEVER_AUTOMATIC:
            _never_automatic(st, rec)
        elif status in ("stopped", "skipped"):
            _settle(st, rec, "escalated", "nothing", f"the task is {status}")
        elif (prior := ledger.automatic_attempt(rec.id, rec.task)) is not None:
            before = f" (earlier: {prior.tried} → {prior.state})" if prior.tried else ""
            earlier = (prior.outcome or {}).get("details")
            details = [str(d) for d in earlier] if isinstance(earlier, list) else []
            st.repeats.add(rec.id)
            _settle(
                st,
                rec,
                "escalated",
                f"nothing this time{before}",
                "anti-loop: the recipe was already tried for this failure in this task; "
                "the same recipe is not tried twice",
                details,
            )
        else:
            fresh.append(rec)
    if not fresh:
        return
    type_claim = ledger.claim_type(st.task, st.run_id, ft, [r.id for r in fresh])
    if type_claim is None:
        for rec in fresh:
            _settle(
                st, rec, "escalated", "nothing", f"the {ft} attempt of this run was already made"
            )
        return
    claimed = []
    for rec in fresh:
        aid = ledger.claim(rec.id, rec.task, ft, rec, run_id=st.run_id)
        if aid is None:  # another process took it a moment ago
            _settle(st, rec, "escalated", "nothing", "another process is attempting this failure")
            continue
        st.claims[rec.id] = aid
        claimed.append(rec)
    changed_before = st.changes
    tried = "nothing"
    try:
        tried = _test_attempt(st, claimed) if ft == "test" else _batch_attempt(st, ft, claimed)
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


def _never_automatic(st: _State, rec: FailureRecord) -> None:
    review = plan(rec, st.ws, command=st.command, cwd=st.cwd)
    if isinstance(review, Refusal):
        details = [*review.details, *(f"Suggested: {s}" for s in review.suggestions)]
        _settle(st, rec, "escalated", "nothing (never automatic)", review.reason, details)
    else:
        _settle(
            st,
            rec,
            "escalated",
            "nothing (never automatic)",
            "needs human review",
            [f"Proposed for a human: {review.title}", *review.details],
        )


def _settle(
    st: _State,
    rec: FailureRecord,
    result: Result,
    tried: str,
    reason: str,
    details: Sequence[str] = (),
    **extra: Any,
) -> Outcome:
    out = make_outcome(
        rec, st.ws, st.ledger, result, tried, reason, details, with_box=False, **extra
    )
    st.results[rec.id] = out
    return out


# -- test: one re-run of every failing test ---------------------------------------------------
def _test_attempt(st: _State, records: list[FailureRecord]) -> str:
    from .docs import recipe_doc, setting

    timeout = float(setting(recipe_doc("test", st.ws), "verify.timeout", 300))
    selections, per_record, refused = plan_reruns(records, st.ws, st.command, st.cwd)
    if st.changes:
        # Something changed since the failures were seen: a pass would prove nothing.
        for rec in records:
            _settle(st, rec, "escalated", "nothing", "files changed since the failure was seen")
        return "nothing"
    for rec in records:
        st.events.emit("recovery.attempted", rec, tried="re-run the failing tests once")
    n = sum(len(s.tests) for s in selections)
    if selections:
        st.say(f"re-running {n} failing test(s) once, in {len(selections)} command(s)")
    runs = run_reruns(selections, st.ws, st.cwd, {}, timeout, st.echo)
    names = [t.test_id for sel in selections for t in sel.tests]
    runners = ", ".join(sorted({s.runner for s in selections}))
    if not selections:
        tried = "nothing (no test could be re-run)"
    elif n == 1:
        tried = f"re-ran {names[0]} once ({runners})"
    else:
        tried = f"re-ran the {n} failing tests once ({runners})"
    for v, rec in zip(verdicts(records, per_record, refused, runs), records, strict=True):
        if v.verdict == "flaky":
            _settle(st, rec, "recovered", tried, f"flaky test: {v.reason}", verified=True)
            st.results[rec.id].details.append("Flaky: failed, then passed on its own re-run")
        elif v.verdict == "real":
            again = [f"Run it alone: {v.command}"] if v.command else []
            _settle(st, rec, "escalated", tried, f"a real failure: {v.reason}", again)
        elif v.verdict == "not_run":
            _settle(st, rec, "escalated", tried, v.reason)
        else:
            _settle(st, rec, "escalated", "nothing (no safe re-run)", v.reason)
    return tried


# -- compile and the rest: one batch ---------------------------------------------------------------
def _batch_attempt(st: _State, ft: str, records: list[FailureRecord]) -> str:
    ws = st.ws
    with ApplyLock(ws):
        # Planned under the lock, against the files as they are now.
        plans: list[tuple[FailureRecord, Plan | Refusal]] = [
            (
                rec,
                plan(
                    _as_compile(rec) if ft == "compile" else rec, ws, command=st.command, cwd=st.cwd
                ),
            )
            for rec in records
        ]
        for rec, p in plans:
            if isinstance(p, Refusal):
                _settle(
                    st,
                    rec,
                    p.result,
                    "nothing (no safe fix)",
                    p.reason,
                    [*p.details, *(f"Suggested: {s}" for s in p.suggestions)],
                )
            elif not p.automatic:
                _settle(
                    st,
                    rec,
                    "escalated",
                    f"nothing (proposed: {p.title})",
                    "this recipe is not automatic here: apply it by hand (code action or "
                    "`faultlens recover`)",
                    p.details,
                )
        todo = [(r, p) for r, p in plans if isinstance(p, Plan) and p.automatic]
        if not todo:
            return "nothing"
        batch = merge_plans([p for _, p in todo])
        for rec, p in todo:
            st.events.emit("recovery.attempted", rec, tried=p.title, summary=p.summary)
        st.say(f"{ft}: {batch.title}")
        if batch.conflicts:
            for rec, p in todo:
                if p in batch.conflicts:
                    _settle(st, rec, "escalated", p.title, "its edit overlaps another fix's edit")
            todo = [(r, p) for r, p in todo if p not in batch.conflicts]
        try:
            if batch.edits:
                apply_edits(batch.edits, ws)
                st.changes += 1
        except (UnsafeEdit, ApplyError) as exc:
            for rec, p in todo:
                _settle(st, rec, "escalated", p.title, f"the fix could not be applied: {exc}")
            return batch.title
    failure = _run_commands(st, batch.commands)
    if batch.commands:
        st.changes += 1
    if failure is not None:
        for rec, p in todo:
            _settle(st, rec, p.on_failure, p.title, failure, p.details)
        return batch.title
    _verify_batch(st, todo, batch.verify)
    return batch.title


def _run_commands(st: _State, commands: Sequence[CommandStep]) -> str | None:
    for step in commands:
        st.say(f"running {step.display()}")
        res = run_step(step, st.ws, echo=st.echo)
        if res.error:
            return f"could not run {step.argv[0]}: {res.error}"
        if res.timed_out:
            return f"{step.argv[0]} timed out after {step.timeout:g} s"
        if res.exit_code != 0:
            tail = res.tail.decode("utf-8", "replace").strip().splitlines()[-2:]
            return f"{step.argv[0]} exited {res.exit_code}" + (
                f": {' / '.join(tail)}" if tail else ""
            )
    return None


def _verify_batch(st: _State, todo: list[tuple[FailureRecord, Plan]], verify: Plan | None) -> None:
    """One verification for the whole batch: the original command re-run (with
    the plan's retries and backoff), or the plans' own checks."""
    ws = st.ws
    if verify is None:
        return
    if verify.verify_by == "check" or verify.verify is None or verify.verify_by == "none":
        for rec, p in todo:
            if p.verify_by == "check" and p.check is not None:
                res = p.check()
                result: Result = "recovered" if res.ok else p.on_failure
                _settle(st, rec, result, p.title, res.reason, p.details, verified=True)
            else:
                # Verified by the final run of the original command.
                _settle(st, rec, "recovered", p.title, "applied", p.details)
        return
    ids = {base_id(r.id) for r, _ in todo}
    tries = 1 + max(0, verify.retries)
    full: FullRun | None = None
    for i in range(tries):
        delay = verify.backoff[min(i, len(verify.backoff) - 1)] if verify.backoff else 0.0
        if delay > 0:
            st.say(f"waiting {delay:g} s before re-running")
            ws.settings.sleep(delay)
        full = _rerun_original(st, verify.verify)
        if full.exit_code == 0 or not ids & {base_id(r.id) for r in full.records}:
            break
    assert full is not None
    still = {base_id(r.id) for r in full.records}
    after = f" (after {i} retr{'y' if i == 1 else 'ies'})" if i else ""
    for rec, p in todo:
        if base_id(rec.id) in still:
            _settle(
                st,
                rec,
                p.on_failure,
                p.title,
                f"still reported when the command was run again{after}",
                p.details,
                verified=True,
            )
        else:
            _settle(
                st,
                rec,
                "recovered",
                p.title,
                f"no longer reported{after}",
                p.details,
                verified=True,
            )


def _rerun_original(st: _State, step: CommandStep | None = None) -> FullRun:
    """Run the original command again (or the plan's variant of it: its env)."""
    from faultlens.classifier.engine import Classifier, Options

    from .docs import recipe_doc, setting

    timeout = float(setting(recipe_doc("compile", st.ws), "verify.timeout", 600))
    step = step or CommandStep(argv=list(st.command), cwd=st.cwd, timeout=timeout)
    cwd = st.ws.root if st.cwd in ("", ".") else st.ws.root / st.cwd
    classifier = Classifier(Options(cwd=str(cwd), task=st.task, command=list(st.command)))
    st.say(f"re-running the original command ({step.display()})")
    res = run_step(step, st.ws, on_data=classifier.feed, echo=st.echo)
    classifier.options.exit_code = res.exit_code
    records = classifier.close()
    for r in records:
        r.hint.setdefault("command", list(st.command))
        r.hint.setdefault("cwd", st.cwd)
        if st.task and not r.task:
            r.task = st.task
    code = res.exit_code if res.exit_code is not None else (124 if res.timed_out else 127)
    st.reruns += 1
    st.last = FullRun(code, records, st.changes)
    return st.last


# -- the verdict ---------------------------------------------------------------------------------
def _conclude(st: _State, records: Sequence[FailureRecord]) -> Recovery:
    ws, ledger = st.ws, st.ledger
    assert st.last is not None
    candidates = any(o.result == "recovered" for o in st.results.values())
    if (st.changes and st.last.after_change < st.changes) or (
        candidates and st.last.after_change == 0 and st.reruns == 0
    ):
        _rerun_original(st)
    last = st.last
    cmp = compare(records, last.records) if st.reruns else None
    new = cmp.new if cmp else []
    outcomes: list[Outcome] = []
    for rec in records:
        prior = st.results.get(rec.id)
        rec = prior.record if prior is not None else rec
        out = prior or make_outcome(
            rec, ws, ledger, "escalated", "nothing", "no recipe ran", with_box=False
        )
        if cmp is not None and out.result != "skipped":
            out = _final(st, rec, out, rec.id in cmp.gone, new)
        outcomes.append(out)
    new_outcomes = [
        make_outcome(
            r,
            ws,
            ledger,
            "escalated",
            "nothing (it appeared after this run's recipes)",
            "a new failure reported when the original command was run again",
            with_box=False,
        )
        for r in new
    ]
    escalated = [o for o in (*outcomes, *new_outcomes) if o.result == "escalated"]
    others = [o for o in outcomes if o.result != "escalated"]
    box = task_box(ws, ledger, st.task, escalated, others, st.command) if escalated else None
    for o in (*outcomes, *new_outcomes):
        if o.result == "escalated":
            o.box = box
        o.exit_code = last.exit_code
        o.full_rerun = bool(st.reruns)
        o.new_records = list(last.records)
    for rec, o in zip(records, outcomes, strict=True):
        aid = st.claims.get(rec.id)
        if aid is not None or (o.result == "escalated" and rec.id not in st.repeats):
            store(ledger, o, aid)
        emit_result(st.events, o)
    for o in new_outcomes:
        emit_result(st.events, o)
    return Recovery(
        outcomes=outcomes,
        new=new_outcomes,
        exit_code=last.exit_code,
        final=list(last.records),
        reruns=st.reruns,
        box=box,
    )


def _final(
    st: _State, rec: FailureRecord, out: Outcome, gone: bool, new: Sequence[FailureRecord]
) -> Outcome:
    """The honest result: recovered only when the original command, run again,
    no longer reports the failure and reports nothing new."""
    if not gone:
        if out.result == "recovered":
            flaky = out.reason.startswith("flaky test")
            why = (
                "it passed when re-run alone, but failed again when the original command ran"
                if flaky
                else "still reported when the original command was run again"
            )
            return _replace(st, out, "escalated", why)
        return out
    if new:
        what = new[0].signal
        more = f" and {len(new) - 1} more" if len(new) > 1 else ""
        return _replace(
            st,
            out,
            "escalated",
            f"gone, but the original command now reports a new failure: {what}{more}",
        )
    if out.result == "recovered":
        return out
    # Not fixed by its own recipe, but gone when the command ran again (an earlier
    # fix of this run repaired it): recovered, and said so.
    return _replace(
        st,
        out,
        "recovered",
        "gone when the original command was run again (fixed by another recipe of this run)",
    )


def _replace(st: _State, out: Outcome, result: Result, reason: str) -> Outcome:
    return make_outcome(
        out.record,
        st.ws,
        st.ledger,
        result,
        out.tried,
        reason,
        out.details,
        with_box=False,
        verified=True,
    )
