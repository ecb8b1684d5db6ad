"""The state of one run's recovery, shared by its steps (recipes/run_recovery.py):
the runs of the original command, each failure's outcome so far, the slots
claimed in the ledger.  And the two things every step does: note a
failure's outcome, and run the original command again."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .events import EventLog
from .ledger import Ledger
from .model import CommandStep, Outcome, Result, StateUnavailable, Workspace
from .outcome import make_outcome
from .runner import Sink, run_step

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

    from .revert import Reverted

Say = Callable[[str], None]


@dataclass(slots=True)
class FullRun:
    """A run of the original command (the first, a verification, the last)."""

    exit_code: int | None
    records: list[FailureRecord]
    after_change: int  # how many changes had been made when it ran
    output: str = ""  # the end of its output (the test runner's own summary)


@dataclass(slots=True)
class Recovery:
    """What `recover_run` did."""

    outcomes: list[Outcome] = field(default_factory=list)  # one per original record
    new: list[Outcome] = field(default_factory=list)  # failures that appeared since
    exit_code: int | None = None  # of the last run of the original command
    final: list[FailureRecord] = field(default_factory=list)  # what that run reported
    reruns: int = 0  # runs of the original command after the first
    box: str | None = None  # the task's one box, when anything was escalated
    final_output: str = ""  # the end of the last run's output


@dataclass(slots=True)
class RunState:
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
    state_lost: StateUnavailable | None = None  # the state stopped being writable mid-run

    seen: set[str] = field(default_factory=set)  # the ids the run itself reported
    undone: Reverted | None = None  # a wrong fix this run undid
    announced: set[str] = field(default_factory=set)  # ids whose attempt was announced
    continued: set[str] = field(default_factory=set)  # syncs that continue an attempt
    held: set[str] = field(default_factory=set)  # quarantined: reported, never attempted nor new


def note_result(
    st: RunState,
    rec: FailureRecord,
    result: Result,
    tried: str,
    reason: str,
    details: Sequence[str] = (),
    **extra: Any,
) -> Outcome:
    """Note a failure's result so far (in memory: the run's conclusion settles
    it, recipes/conclude.py, after the final run of the original command)."""
    out = make_outcome(
        rec, st.ws, st.ledger, result, tried, reason, details, with_box=False, **extra
    )
    st.results[rec.id] = out
    return out


def rerun_original(st: RunState, step: CommandStep | None = None) -> FullRun:
    """Run the original command again (or the plan's variant of it: its env).
    A plan's step that runs less than the command (the infra recipe's retry of
    the failing test alone) is no run of the command: its result verifies the
    plan, and the run's final exit still comes from a run of the command."""
    from .docs import recipe_doc, setting
    from .observe import recogniser, stamp

    timeout = float(setting(recipe_doc("compile", st.ws), "verify.timeout", 600))
    step = step or CommandStep(argv=list(st.command), cwd=st.cwd, timeout=timeout)
    hook = st.ws.settings.rerun
    stood_in = hook(step, None) if hook is not None else None
    if stood_in is not None:  # watch mode: the watcher's next cycle is the re-run
        st.say(f"verified by {stood_in.how}" + (f": {stood_in.error}" if stood_in.error else ""))
        code = 124 if stood_in.error else (stood_in.exit_code or 0)
        st.reruns += 1
        st.last = FullRun(code, list(stood_in.records), st.changes)
        return st.last
    cwd = st.ws.root if st.cwd in ("", ".") else st.ws.root / st.cwd
    classifier = recogniser(cwd, task=st.task, command=st.command)
    from faultlens.classifier.redact import shown_command

    partial = list(step.argv) != list(st.command)
    what = "the failing test alone" if partial else "the original command"
    st.say(f"re-running {what} ({shown_command(step.argv)})")
    from .team.quarantine import Tail

    tail = Tail()

    def feed(data: bytes) -> None:
        tail.feed(data)
        classifier.feed(data)

    res = run_step(step, st.ws, on_data=feed, echo=st.echo)
    classifier.options.exit_code = res.exit_code
    records = classifier.close()
    stamp(records, command=st.command, cwd=st.cwd, task=st.task)
    code = res.exit_code if res.exit_code is not None else (124 if res.timed_out else 127)
    if partial:
        return FullRun(code, records, st.changes)
    st.reruns += 1
    st.last = FullRun(code, records, st.changes, tail.text())
    return st.last
