"""Outcomes and what a human reads about them: the boxed error display (one
per task, listing its failure groups), the events, the ledger rows.

The box says what a human needs: where each group is and how many tests it
accounts for, what was tried, why it failed (in words, never our internal
commands), the runner's expected vs actual, the tool's own suggestion, and
"Progress so far" with the tests that recovered or turned out flaky.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from faultlens.classifier.redact import shown_command
from faultlens.classifier.taxonomy import category

from . import history, revert
from .box import BoxContent, options_for, render_box
from .context import command_of
from .events import PHASES, EventLog, location
from .ledger import Ledger, task_key
from .model import Option, Outcome, Result, Workspace

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

# Hint keys the classifier's rules fill with what a human needs in the box.
EXPECTED_KEYS = ("expected", "want")
ACTUAL_KEYS = ("actual", "received", "got")
WHY_KEYS = ("why", "reason_line")  # Go: the t.Error line; a runner's own one-line cause
# The tool's own advice: `advice` (a list, verbatim: rustc `help:`, Go "but does have",
# tsc and Python "Did you mean"), else one of these.
SUGGESTION_KEYS = ("help", "suggestion", "did_you_mean")


def _first(hint: dict[str, Any], keys: Sequence[str]) -> str | None:
    for key in keys:
        value = hint.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def human_details(record: FailureRecord) -> list[str]:
    """Expected/Actual, the line that says why, the tool's suggestion."""
    hint = record.hint
    out = []
    expected, actual = _first(hint, EXPECTED_KEYS), _first(hint, ACTUAL_KEYS)
    if expected is not None and actual is not None:
        out += [f"Expected: {expected[:300]}", f"Actual: {actual[:300]}"]
    why = _first(hint, WHY_KEYS)
    if why:
        out.append(f"Says: {why[:300]}")
    subtests = hint.get("subtests")
    if isinstance(subtests, list) and subtests:
        shown = ", ".join(str(s) for s in subtests[:5]) + ("…" if len(subtests) > 5 else "")
        out.append(f"Subtests failed: {len(subtests)} ({shown})")
    advice = hint.get("advice")
    if isinstance(advice, list) and advice:
        out += [f"Suggestion: {str(a)[:300]}" for a in advice[:3] if str(a).strip()]
    else:
        sugg = _first(hint, SUGGESTION_KEYS)
        if sugg:
            out.append(f"Suggestion: {sugg[:300]}")
    return out


def affected_tests(record: FailureRecord) -> list[str]:
    tests = []
    tid = record.hint.get("test_id")
    if isinstance(tid, str) and tid:
        tests.append(tid)
    for loc in record.related:
        if loc.test and loc.test not in tests:
            tests.append(loc.test)
    return tests


def group_line(record: FailureRecord) -> str:
    """`compile shop/cart.py:2: NameError: ... (60 tests affected)`"""
    where = location(record) or "-"
    n = record.affected
    extra = f" ({n} tests affected)" if n > 1 else ""
    return f"{record.failure_type.value} {where}: {record.signal}{extra}"


def progress(ledger: Ledger, task: str | None, exclude: set[str]) -> list[str]:
    """What the task already achieved, from the ledger (newest last, at most 8)."""
    lines: list[str] = []
    for row in reversed(ledger.history(limit=200)):
        if row.task != task_key(task) or row.failure_id in exclude or row.state == "pending":
            continue
        rec = row.record or {}
        where = rec.get("source_file") or "-"
        if rec.get("source_line"):
            where += f":{rec['source_line']}"
        tests = [t for t in [(rec.get("hint") or {}).get("test_id")] if isinstance(t, str)]
        tests += [loc["test"] for loc in rec.get("related") or [] if loc.get("test")]
        named = f" ({', '.join(tests[:3])}{'…' if len(tests) > 3 else ''})" if tests else ""
        lines.append(f"{row.failure_type} {where}{named}: {row.state}")
    return lines[-8:]


def task_box(
    ws: Workspace,
    ledger: Ledger,
    task: str | None,
    escalated: Sequence[Outcome],
    others: Sequence[Outcome],
    command: Sequence[str] | None,
) -> str:
    """The one box of a task: its escalated groups, what was tried for each and
    why it failed; what went well in "Progress so far"."""
    key = task_key(task)
    used = ledger.task_retries(task)
    options = options_for(key, retries_left=ws.settings.max_task_retries - used)
    options += revert.options_for(ledger, escalated)  # a fix that failed: revert it
    first = escalated[0].record
    types = sorted({o.record.failure_type.value for o in escalated})
    if len(escalated) == 1:
        error = first.signal
    else:
        counts = ", ".join(
            f"{sum(1 for o in escalated if o.record.failure_type.value == t)} {t}" for t in types
        )
        error = f"{len(escalated)} failures escalated ({counts})"
    details: list[str] = []
    team = _team(ws, [o.record.id for o in escalated])
    shared = len(escalated) > 1 and len({o.tried for o in escalated}) == 1
    if shared:
        details.append(f"Tried: {escalated[0].tried}")
    for o in escalated:
        rec = o.record
        if len(escalated) > 1:
            details.append(f"• {group_line(rec)}")
        else:
            loc = location(rec)
            if loc:
                details.append(f"At: {loc}")
            if rec.affected > 1:
                details.append(f"Affected: {rec.affected} tests")
        if not shared:
            details.append(f"Tried: {o.tried}")
        details.append(f"Why it failed: {o.reason}")
        details.extend(o.details)
        # triage, seen before here and on the team's runners
        details.extend(history.box_lines(ledger, rec, o.details, team.get(rec.id)))
        tests = affected_tests(rec)
        if tests and len(tests) > 1:
            shown = ", ".join(tests[:5]) + ("…" if len(tests) > 5 else "")
            details.append(f"Tests: {shown}")
        details.append(f"Recipe: {rec.recipe} (failure id {rec.id})")
    done = []
    for o in others:
        tests = affected_tests(o.record)
        named = f" ({', '.join(tests[:3])}{'…' if len(tests) > 3 else ''})" if tests else ""
        done.append(f"{group_line(o.record).split(': ', 1)[0]}{named}: {o.result} - {o.reason}")
    exclude = {o.record.id for o in (*escalated, *others)}
    cmd = list(command) if command else command_of(first.hint.get("command"))
    title = shown_command(cmd) if cmd else (first.tool or "")
    phase = PHASES.get(first.failure_type.value, first.failure_type.value)
    cat = (
        category(first.failure_type.value).title
        if len(types) == 1
        else " + ".join(category(t).title for t in types)
    )
    return render_box(
        BoxContent(
            category=cat,
            task=key,
            title=title,
            phase=phase,
            error=error,
            details=details,
            options=options,
            progress=[*progress(ledger, task, exclude), *done][-10:],
        )
    )


def _team(ws: Workspace, failure_ids: Sequence[str]) -> dict[str, Any]:
    """The team's history of the escalated failures (one read, within the
    team settings' budget; {} without a team database)."""
    try:
        from .team.reads import histories

        return histories(ws, failure_ids)
    except Exception:  # the team's database is never the box's problem
        return {}


def make_outcome(
    record: FailureRecord,
    ws: Workspace,
    ledger: Ledger,
    result: Result,
    tried: str,
    reason: str,
    details: Sequence[str] = (),
    *,
    with_box: bool = True,
    **extra: Any,
) -> Outcome:
    """An Outcome for one record (with the single-failure box when escalated)."""
    rec = copy.deepcopy(record)
    rec.recovery_attempted = True
    # an unverified fix has no result yet (the record's RecoveryResult has none for it)
    rec.recovery_result = None if result == "applied" else result
    options: list[Option] = []
    box = None
    all_details = [*details, *(d for d in human_details(rec) if d not in details)]
    outcome = Outcome(
        record=rec,
        result=result,
        tried=tried,
        reason=reason,
        options=options,
        box=box,
        details=all_details,
        **extra,
    )
    if result == "escalated":
        used = ledger.task_retries(record.task)
        outcome.options = options_for(
            task_key(record.task), retries_left=ws.settings.max_task_retries - used
        )
        outcome.options += revert.options_for(ledger, [outcome])
        if with_box:
            outcome.box = task_box(ws, ledger, record.task, [outcome], [], None)
    return outcome


def emit_result(events: EventLog, outcome: Outcome, note: str = "") -> None:
    rec = outcome.record
    if outcome.result == "recovered":
        events.emit(
            "recovery.succeeded",
            rec,
            tried=outcome.tried,
            reason=outcome.reason,
            note=note or outcome.reason,
            verified=outcome.verified,
        )
    elif outcome.result == "skipped":
        events.emit("recovery.skipped", rec, tried=outcome.tried, reason=outcome.reason)
    elif outcome.result == "applied":
        events.emit("recovery.applied", rec, tried=outcome.tried, reason=outcome.reason)
    else:
        events.emit(
            "recovery.escalated",
            rec,
            tried=outcome.tried,
            reason=outcome.reason,
            details=outcome.details,
            options=[o.label for o in outcome.options],
            box=outcome.box,
        )


def store(ledger: Ledger, outcome: Outcome, attempt_id: int | None) -> None:
    if attempt_id is not None:
        ledger.finish(attempt_id, outcome)
    elif not ledger.record_attempt(outcome, automatic=True):
        ledger.record_attempt(outcome, automatic=False)
