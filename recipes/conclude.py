"""The honest verdict of one run's recovery (recipes/run_recovery.py): the original
command run again when anything changed since its last run, each failure
recovered only when that run no longer reports it and reports nothing new,
the exit status that run's, and the task's one box."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .lifecycle.settle import settle
from .model import Outcome, Result
from .outcome import make_outcome, task_box
from .rerun_proof import base_id, compare
from .run_state import Recovery, RunState, rerun_original

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord


# -- the verdict ---------------------------------------------------------------------------------
def conclude(st: RunState, records: Sequence[FailureRecord]) -> Recovery:
    ws, ledger = st.ws, st.ledger
    assert st.last is not None
    candidates = any(o.result == "recovered" for o in st.results.values())
    if (st.changes and st.last.after_change < st.changes) or (
        candidates and st.last.after_change == 0 and st.reruns == 0
    ):
        rerun_original(st)
    last = st.last
    cmp = compare(records, last.records) if st.reruns else None
    if cmp is not None and st.held:  # a quarantined test failing again is not new
        cmp.new = [r for r in cmp.new if base_id(r.id) not in st.held]
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
    for o in outcomes:
        if o.result == "escalated" and o.record.failure_type.value == "branch_divergence":
            counts = _ahead_behind(st)
            if counts:
                o.details.append(counts)
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
        keep = aid is not None or (o.result == "escalated" and rec.id not in st.repeats)
        settle(ledger, st.events, o, aid, keep=keep)
    for o in new_outcomes:
        settle(ledger, st.events, o, None, keep=False)
    return Recovery(
        outcomes=outcomes,
        new=new_outcomes,
        exit_code=last.exit_code,
        final=list(last.records),
        reruns=st.reruns,
        box=box,
        final_output=last.output,
    )


def _ahead_behind(st: RunState) -> str | None:
    """Fresh counts for the box: how far the branch is from its upstream now."""
    from .fixes.gitcore import Git

    cwd = st.ws.root if st.cwd in ("", ".") else st.ws.root / st.cwd
    res = Git(cwd, timeout=10).run("rev-list", "--left-right", "--count", "HEAD...@{upstream}")
    parts = res.out.split()
    if res.code != 0 or len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return f"Now: {parts[0]} ahead, {parts[1]} behind the upstream (after this run's fetch)"


def _final(
    st: RunState, rec: FailureRecord, out: Outcome, gone: bool, new: Sequence[FailureRecord]
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


def _replace(st: RunState, out: Outcome, result: Result, reason: str) -> Outcome:
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
