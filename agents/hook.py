"""`faultlens hook <agent>`: classify an agent's shell call, tell it what to do.

After every shell tool call of a coding agent, the hook classifies the
call's output and answers with context for the model: each failure as
`<failure_type> at <file>:<line>: <signal>` with the one recipe to try — or,
when the ledger already holds the attempt for that failure, that the attempt
did not fix it and the user must decide.  The seed's anti-loop rule, for an
agent:

* a failure seen for the first time in a task claims its one automatic
  attempt (`pending`, made by the agent) and the context names the recipe;
* the same failure reported again in the task closes that attempt as
  escalated (`recovery.escalated`), and the context says to stop and ask;
* a pending failure that the same command no longer reports closes as
  recovered (`recovery.succeeded`).

The task is `$FAULTLENS_TASK`, else the agent's session.  Nothing is said
(no output, exit 0) when there is no failure, and a successful call whose
output holds none of the rules' trigger words is answered without loading
the classifier (`agents/quick.py`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .ci_checks import ci_checks_text, is_ci_check
from .hook_payloads import ToolCall, argv_of

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord
    from faultlens.recipes import Workspace

MAX_LISTED = 8  # failures named in one answer; the rest are counted


@dataclass(slots=True)
class CallDecisions:
    """What the hook decided for each failure of one call."""

    new: list[tuple[FailureRecord, str]] = field(default_factory=list)  # (record, recipe step)
    escalated: list[tuple[FailureRecord, str]] = field(default_factory=list)  # (record, why)
    review: list[FailureRecord] = field(default_factory=list)  # never automatic
    recovered: list[str] = field(default_factory=list)  # where each pending one was
    checks: list[FailureRecord] = field(default_factory=list)  # a pull request's failed CI checks


def task_of(call: ToolCall) -> str:
    env = os.environ.get("FAULTLENS_TASK")
    if env:
        return env
    if call.session:  # the whole id: two sessions sharing a prefix are two tasks
        return f"{call.agent}-{call.session}"
    return call.agent


def classify_call(
    call: ToolCall, cwd: Path, task: str, *, project_config: bool = True
) -> list[FailureRecord]:
    """The call's output through the one entry every output takes (structured
    reports first: recipes/observe.py), its records stamped with the command;
    `project_config=False` classifies with the built-in rules alone (no
    configuration is read outside a work tree the user opened)."""
    from faultlens.recipes.observe import classify_output, stamp

    argv = argv_of(call.command)
    rules = None
    if not project_config:
        from faultlens.classifier.rules.registry import all_rules

        rules = all_rules()
    records, _ = classify_output(
        call.output.encode("utf-8", "replace"),
        cwd,
        task=task,
        command=argv,
        exit_code=call.exit_code,
        rules=rules,
    )
    stamp(records, command=argv, cwd=None, task=task)
    return records


def _recipe_step(record: FailureRecord, ws: Workspace) -> str:
    """What the record's recipe would do here, in a few words (read-only)."""
    from faultlens.recipes import Plan, plan

    planned = plan(record, ws)
    if isinstance(planned, Plan):
        text = planned.title
        if planned.summary and planned.summary != planned.title:
            text += f" ({planned.summary})"
        return text
    return f"{record.recipe} (no safe automatic fix: {planned.reason})"


def decide(
    records: Sequence[FailureRecord], call: ToolCall, ws: Workspace, task: str
) -> CallDecisions:
    """Apply the anti-loop rule to one call's failures: claim, escalate, clear."""
    from faultlens.recipes import EventLog, Ledger
    from faultlens.recipes.lifecycle.claim import (
        TRIED_NOTHING_NEVER_AUTOMATIC,
        is_never_automatic,
        never_automatic,
    )
    from faultlens.recipes.lifecycle.settle import settle
    from faultlens.recipes.outcome import make_outcome
    from faultlens.recipes.single_attempt import escalate

    ledger = Ledger.open(ws)
    events = EventLog(ws)
    out = CallDecisions()
    # The agent's call is a run like any other (recipes/observe.py): its records
    # are stored (for `faultlens explain`, `recover` and the editor) with the
    # tree state, logged, and a fix the editor applied with nothing to verify
    # it is decided first, so that a failure still reported reads as escalated.
    _record(call, ws, task, ledger).finish(call.exit_code, records)
    for record in records:
        if is_ci_check(record):  # its job's log says what failed: no attempt claimed on it
            out.checks.append(record)
            continue
        ft = record.failure_type.value
        if is_never_automatic(ft):
            escalate(record, ws, TRIED_NOTHING_NEVER_AUTOMATIC, never_automatic(ft))
            out.review.append(record)
            continue
        prior = ledger.automatic_attempt(record.id, task)
        if prior is None:
            step = _recipe_step(record, ws)
            attempt_id = ledger.claim(record.id, task, ft, record)
            if attempt_id is not None:
                events.emit("recovery.attempted", record, tried=f"the agent: {step}", summary=step)
                out.new.append((record, step))
                continue
            prior = ledger.automatic_attempt(record.id, task)
        if prior is not None and prior.state == "pending":
            tried = f"the agent: {_recipe_step(record, ws)}"
            why = "still reported when the command ran again after the agent's attempt"
            outcome = make_outcome(record, ws, ledger, "escalated", tried, why)
            settle(ledger, events, outcome, prior.id)
            out.escalated.append((record, why))
        else:
            state = prior.state if prior else "made"
            out.escalated.append((record, f"its one attempt was already {state}"))
    out.recovered = _clear_gone(ledger, events, ws, task, call, {r.id for r in records})
    return out


def _record(call: ToolCall, ws: Workspace, task: str, ledger: Any = None) -> Any:
    """The RunRecorder of one call (its command, else the agent's name)."""
    from faultlens.recipes.observe import RunRecorder

    cwd = Path(call.cwd or ws.root).resolve()
    if not cwd.is_relative_to(ws.root) or not cwd.is_dir():
        cwd = ws.root
    command = argv_of(call.command) or [call.agent]
    return RunRecorder(ws, task=task, command=command, cwd=cwd, ledger=ledger)


def _clear_gone(
    ledger: Any, events: Any, ws: Workspace, task: str, call: ToolCall, seen: set[str]
) -> list[str]:
    """Close as recovered the task's pending agent attempts that this run of
    the same command no longer reports."""
    from faultlens.classifier.record import FailureRecord
    from faultlens.classifier.redact import redact_argv
    from faultlens.recipes.lifecycle.settle import settle
    from faultlens.recipes.outcome import make_outcome

    argv = argv_of(call.command)
    if not argv:
        return []
    shown = redact_argv(argv)
    cleared: list[str] = []
    for row in ledger.history(limit=200):
        if row.task != task or row.state != "pending" or row.failure_id in seen:
            continue
        data = row.record or {}
        if (data.get("hint") or {}).get("command") != shown:
            continue
        record = FailureRecord.from_json(data)
        outcome = make_outcome(
            record,
            ws,
            ledger,
            "recovered",
            f"the agent: {_recipe_step(record, ws)}",
            "no longer reported when the command ran again",
            verified=True,
        )
        settle(ledger, events, outcome, row.id)
        cleared.append(f"{record.failure_type.value} at {_where(record)}")
    return cleared


def _where(record: FailureRecord) -> str:
    if not record.source_file:
        return "(no file)"
    return (
        f"{record.source_file}:{record.source_line}" if record.source_line else record.source_file
    )


def _line(record: FailureRecord) -> str:
    text = f"{record.failure_type.value} at {_where(record)}: {record.signal[:300]}"
    if record.affected > 1:
        text += f" ({record.affected} tests affected)"
    return text


def context_text(verdicts: CallDecisions, task: str) -> str:
    """The text the model reads; empty when there is nothing to say."""
    lines: list[str] = []
    checks = [*verdicts.checks, *(r for r, _ in verdicts.new if is_ci_check(r))]
    verdicts.new = [(r, step) for r, step in verdicts.new if not is_ci_check(r)]
    if checks:
        lines.extend(ci_checks_text(checks[:MAX_LISTED]))
    if verdicts.new:
        lines.append("faultlens classified this command's failures (one recovery attempt each):")
        for record, step in verdicts.new[:MAX_LISTED]:
            lines.append(f"- {_line(record)}")
            lines.append(f"  recipe ({record.recipe}): {step}")
        if len(verdicts.new) > MAX_LISTED:
            lines.append(f"- and {len(verdicts.new) - MAX_LISTED} more (faultlens status)")
    if verdicts.escalated:
        lines.append(
            "faultlens: ESCALATE. The one automatic attempt for these failures did not fix "
            "them; do not try the same fix again. Stop and report to the user, who decides: "
            f"`faultlens retry {task}` (fresh context), `faultlens skip {task}` or "
            "`faultlens stop`."
        )
        for record, why in verdicts.escalated[:MAX_LISTED]:
            lines.append(f"- {_line(record)} ({why}; `faultlens explain {record.id}`)")
    if verdicts.review:
        lines.append("faultlens: needs human review, never fixed automatically:")
        lines.extend(f"- {_line(r)}" for r in verdicts.review[:MAX_LISTED])
    if verdicts.recovered:
        lines.append("faultlens: recovered since the last run: " + ", ".join(verdicts.recovered))
    return "\n".join(lines)


def respond(
    call: ToolCall,
    root: Path,
    state_dir: Path | None = None,
    *,
    cwd: Path | None = None,
    opened: bool = True,
) -> str:
    """The context for one call ("" for silence); writes the ledger and the log.
    Outside a work tree the user opened (`opened` false: agents/hook_root.py)
    nothing is written and no project configuration or override is read."""
    from faultlens.recipes import RecipeSettings, Workspace

    if cwd is None:
        cwd = Path(call.cwd).resolve() if call.cwd else root
    if not cwd.is_relative_to(root) or not cwd.is_dir():
        cwd = root
    task = task_of(call)
    if not opened:
        found = classify_call(call, cwd, task, project_config=False)
        if not found:
            return ""
        from faultlens.recipes import recipe_doc

        steps = [(r, recipe_doc(r.failure_type.value).title) for r in found]
        return (
            context_text(CallDecisions(new=steps), task)
            + "\nfaultlens keeps no record outside a project's work tree: do not retry a fix twice."
        )
    settings = RecipeSettings(worker=call.agent, session=call.session)
    ws = Workspace(roots=[root], state_dir=state_dir, settings=settings)
    records: list[FailureRecord] = []
    if call.exit_code != 0 or _may_hold_failure(call.output, root):
        records = classify_call(call, cwd, task)
    if records:
        from faultlens.recipes import StateUnavailable

        try:
            verdicts = decide(records, call, ws, task)
        except StateUnavailable as exc:
            # No ledger, no anti-loop memory: say what failed, and that faultlens
            # cannot keep count (a read-only or full .faultlens, or one linked out).
            steps = [(r, _recipe_step(r, ws)) for r in records]
            return (
                context_text(CallDecisions(new=steps), task)
                + f"\nfaultlens cannot record attempts here ({exc}): do not retry a fix twice."
            )
        return context_text(verdicts, task)
    if call.exit_code == 0 and _has_pending(_ledger_path(ws), task):
        # A clean run closes the agent's pending attempts it no longer reports,
        # and decides the fixes applied without verification that it covers
        # (in the ledger and the log; the agent is told nothing: no failure).
        import contextlib

        from faultlens.recipes import EventLog, Ledger, StateUnavailable

        with contextlib.suppress(StateUnavailable):  # nothing to close where nothing is written
            ledger, events = Ledger.open(ws), EventLog(ws)
            _clear_gone(ledger, events, ws, task, call, set())
            # the clean call is a run (a pass history can count), which
            # decides the fixes applied without verification that it covers
            _record(call, ws, task, ledger).finish(call.exit_code, [])
    elif call.exit_code == 0 and _ran_before(_ledger_path(ws), argv_of(call.command)):
        import contextlib

        from faultlens.recipes import StateUnavailable

        with contextlib.suppress(StateUnavailable):  # a pass of a command that failed before
            _record(call, ws, task).finish(call.exit_code, [])
    return ""


def _ledger_path(ws: Workspace) -> Path | None:
    from faultlens.recipes import StateUnavailable

    try:
        return ws.state / "ledger.sqlite3"
    except StateUnavailable:
        return None


def _has_pending(path: Path | None, task: str) -> bool:
    """Whether the ledger holds a pending (the agent's) or applied (the
    editor's, unverified) attempt of the task: one read-only query, so that a
    clean call with nothing open loads nothing more."""
    import sqlite3

    if path is None or not path.is_file():
        return False
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            row = db.execute(
                "SELECT 1 FROM attempts WHERE task=? AND state IN ('pending', 'applied') LIMIT 1",
                (task,),
            ).fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return True  # let the ledger itself say what is wrong with it
    return row is not None


def _ran_before(path: Path | None, argv: Sequence[str] | None) -> bool:
    """Whether the ledger holds a run of this very command (one read-only
    query): its clean call is then stored too, the pass that tells a flaky
    failure by history (the same command passed on the same code)."""
    import json
    import sqlite3

    if path is None or not argv or not path.is_file():
        return False
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            row = db.execute(
                "SELECT 1 FROM runs WHERE argv=? LIMIT 1", (json.dumps(list(argv)),)
            ).fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return False
    return row is not None


def _may_hold_failure(output: str, root: Path) -> bool:
    from .quick import may_hold_failure

    return may_hold_failure(output, root)
