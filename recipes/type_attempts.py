"""The type attempts of one run (recipes/run_recovery.py): the test attempt (every
failing test re-run once, before anything changed) and the batch attempt of
the other types (every fix planned under the apply lock, applied at once, its
commands run once, one verification)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .batch import merge_plans
from .known_flakes import NOT_RERUN, only_known_flakes, split
from .lifecycle.apply import DiskApplier, Fixing
from .lifecycle.judge import Judgement, judge
from .lifecycle.tally import SYNC_RULE
from .lifecycle.undo import undo_wrong_fix, undone
from .lifecycle.verify_loop import verify_loop
from .model import Plan, Refusal, Result
from .planning import plan
from .rerun_proof import base_id
from .run_state import RunState, note_result, rerun_original
from .runner import run_commands
from .test_batch import plan_reruns, run_reruns, verdicts
from .verify import NOT_VERIFIED

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord


# -- test: one re-run of every failing test ---------------------------------------------------
def test_attempt(st: RunState, records: list[FailureRecord]) -> str:
    from .docs import recipe_doc, setting

    timeout = float(setting(recipe_doc("test", st.ws), "verify.timeout", 300))
    if not st.changes and only_known_flakes(st.ws):
        records, unknown = split(st.ws, st.ledger, records)
        for rec in unknown:  # escalated at once: a re-run is kept for known flakes
            note_result(st, rec, "escalated", "nothing (not re-run)", NOT_RERUN)
        if not records:
            return "nothing"
    selections, per_record, refused = plan_reruns(records, st.ws, st.command, st.cwd)
    if st.changes:
        # Something changed since the failures were seen: a pass would prove nothing.
        for rec in records:
            note_result(st, rec, "escalated", "nothing", "files changed since the failure was seen")
        return "nothing"
    announce(st, records, "re-run the failing tests once")
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
    for v, rec in zip(
        verdicts(records, per_record, refused, runs, st.command), records, strict=True
    ):
        if v.verdict == "flaky":
            note_result(st, rec, "recovered", tried, f"flaky test: {v.reason}", verified=True)
            st.results[rec.id].details.append("Flaky: failed, then passed on its own re-run")
        elif v.verdict == "real":
            alone = "Run one alone" if len(v.tests) > 1 else "Run it alone"
            again = [f"{alone}: {v.command}"] if v.command else []
            note_result(st, rec, "escalated", tried, f"a real failure: {v.reason}", again)
        elif v.verdict == "not_run":
            note_result(st, rec, "escalated", tried, v.reason)
        else:
            note_result(st, rec, "escalated", "nothing (no safe re-run)", v.reason)
    return tried


# -- compile and the rest: one batch ---------------------------------------------------------------
def batch_attempt(st: RunState, ft: str, records: list[FailureRecord]) -> str:
    ws = st.ws
    applier = DiskApplier(ws, st.ledger)
    with applier.lock():
        # Planned under the lock, against the files as they are now.
        plans: list[tuple[FailureRecord, Plan | Refusal]] = [
            (
                rec,
                plan(rec, ws, command=st.command, cwd=st.cwd),
            )
            for rec in records
        ]
        for rec, p in plans:
            if isinstance(p, Refusal):
                note_result(
                    st,
                    rec,
                    p.result,
                    "nothing (no safe fix)",
                    p.reason,
                    [*p.details, *(f"Suggested: {s}" for s in p.suggestions)],
                )
            elif not p.automatic:
                note_result(
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
        announce(st, [r for r, _ in todo], batch.title, "; ".join(p.summary for _, p in todo))
        st.say(f"{ft}: {batch.title}")
        if batch.conflicts:
            for rec, p in todo:
                if p in batch.conflicts:
                    note_result(
                        st, rec, "escalated", p.title, "its edit overlaps another fix's edit"
                    )
            todo = [(r, p) for r, p in todo if p not in batch.conflicts]
        if batch.edits:
            fixing = Fixing(
                st.task,
                tuple(r.id for r, _ in todo),
                tuple(st.claims[r.id] for r, _ in todo if r.id in st.claims),
                batch.title,
                st.run_id,
            )
            applied = applier.apply(batch.edits, fixing)
            if not applied.ok:
                for rec, p in todo:
                    reason = f"the fix could not be applied: {applied.error}"
                    note_result(st, rec, "escalated", p.title, reason)
                return batch.title
            st.changes += 1
    from faultlens.classifier.redact import shown_command

    for step in batch.commands:
        st.say(f"running {shown_command(step.argv)}")
    failure = run_commands(batch.commands, st.ws, st.echo)
    if batch.commands:
        st.changes += 1
    if failure is not None:
        for rec, p in todo:
            note_result(st, rec, p.on_failure, p.title, failure, p.details)
        return batch.title
    _verify_batch(st, todo, batch.verify)
    return batch.title


def _verify_batch(
    st: RunState, todo: list[tuple[FailureRecord, Plan]], verify: Plan | None
) -> None:
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
                note_result(st, rec, result, p.title, res.reason, p.details, verified=True)
            else:
                # Verified by the final run of the original command.
                note_result(st, rec, "recovered", p.title, "applied", p.details)
        return
    if not ws.settings.verify:
        for rec, p in todo:
            reason = f"{NOT_VERIFIED}: verification is turned off"
            note_result(st, rec, "applied", p.title, reason, p.details)
        return
    ids = {base_id(r.id) for r, _ in todo}
    step = verify.verify
    looped = verify_loop(
        lambda: rerun_original(st, step),
        lambda run: run.exit_code == 0 or not ids & {base_id(r.id) for r in run.records},
        retries=verify.retries,
        backoff=verify.backoff,
        sleep=ws.settings.sleep,
        say=st.say,
    )
    full, after = looped.result, looped.note
    judged = [
        (
            rec,
            p,
            judge(
                [rec.id],
                full.records,
                known=st.seen,
                edited=[e.path for e in p.edits],
                cwd=st.cwd,
                root=ws.root,
                brings="the original command now reports",
            ),
        )
        for rec, p in todo
    ]
    undone_files = _undo_wrong(st, judged)
    for rec, p, j in judged:
        if {e.path for e in p.edits} & undone_files:
            wrong = j.wrong or next((w for _, _, k in judged if (w := k.wrong)), None)
            reason, more = undone(wrong, st.undone) if wrong and st.undone else (j.reason, [])
            note_result(st, rec, p.on_failure, p.title, reason, [*p.details, *more], verified=True)
        elif undone_files and not j.still:
            # Gone; what else the re-run showed came from the fix just undone (the
            # final run of the original command confirms it).
            note_result(st, rec, "recovered", p.title, f"no longer reported{after}", p.details)
        else:
            ended: Result = "recovered" if j.recovered else p.on_failure
            note_result(st, rec, ended, p.title, f"{j.reason}{after}", p.details, verified=True)


def _undo_wrong(st: RunState, judged: list[tuple[FailureRecord, Plan, Judgement]]) -> set[str]:
    """A wrong fix never stays: the files of every fix the re-run proved wrong
    are restored now, at once (the set of files undone)."""
    files = {e.path for _, p, j in judged if j.wrong is not None for e in p.edits}
    if not files:
        return set()
    rec = next(r for r, _, j in judged if j.wrong is not None)
    done = undo_wrong_fix(st.ws, st.ledger, rec.id, st.claims.get(rec.id), files)
    if done is None or not (done.restored or done.removed):
        return set()
    st.undone = done
    st.changes += 1  # the final run of the original command shows the tree as it is now
    st.say(f"undone: {done.summary()}")
    return set(done.restored) | set(done.removed) | files


def announce(st: RunState, records: list[FailureRecord], tried: str, summary: str = "") -> None:
    """The type's one `recovery.attempted`, however many failures it covers."""
    if not records:
        return
    stale = [str(s) for r in records if r.rule == SYNC_RULE for s in r.hint.get("stale") or []]
    if stale and all(s in st.announced for s in stale):
        # A stale branch's sync after the failures' own re-run: one attempt, not two.
        st.continued.update(r.id for r in records)
        return
    covers = [r.id for r in records]
    st.announced.update(covers)
    st.events.emit("recovery.attempted", records[0], tried=tried, summary=summary, covers=covers)
