"""One way to observe a run: every front and every internal re-run goes here.

Observing is three steps, each written once:

* classify the output through the one entry that recognises structured
  reports (SARIF, JUnit, checkstyle, JSON reports) before the text rules
  (`recogniser`: `classifier.structured.Recogniser`, fed whole or as the
  command prints);
* stamp the records once with the command (redacted), the cwd (relative to
  the workspace root) and the task (`stamp`);
* record the run once (`RunRecorder`): its row and records in the ledger, the
  tree state it ran on (so that history can tell "flaky": the same command
  passed on the same code), the `failure.classified` events, what history
  adds, and the confirmation of fixes applied earlier that nothing verified.

`observe_command` runs a command (the CLI's `run`, the MCP `run` tool);
output captured elsewhere (the agent hook, the editor's ingest) is classified
by `classify_output` or a `recogniser` and recorded through a `RunRecorder`,
as watch cycles and the server's runs are.
A read-only or full state dir never stops a run: each state write goes through
`guarded`, which says once that the state cannot be written.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from faultlens.classifier.cycles import Watcher
    from faultlens.classifier.record import FailureRecord
    from faultlens.classifier.rules.base import Rule
    from faultlens.classifier.structured import Recogniser

    from .confirm import Decided
    from .first_cycle import FirstCycle
    from .ledger import Ledger
    from .model import Workspace
    from .team.quarantine import ExitDecision, RunSummary
    from .treestate import TreeProbe, TreeState

Say = Callable[[str], None]
Sink = Callable[[bytes], None]


def guarded(ws: Workspace, fn: Any, *args: Any) -> Any:
    """`fn(*args)`, or None when the state cannot be written (said once): a
    read-only or full state dir never stops the command."""
    from .model import StateUnavailable

    try:
        return fn(*args)
    except StateUnavailable as exc:
        from .events import unwritable

        unwritable(ws, exc)
        return None


# -- classify -----------------------------------------------------------------------------
def recogniser(
    cwd: Path | str,
    *,
    task: str | None,
    command: str | Sequence[str] | None,
    exit_code: int | None = None,
    log_file: str | None = None,
    rules: Sequence[Rule] | None = None,
) -> Recogniser:
    """The classifier of one output: structured reports first, then the text
    rules (`rules`: these instead of the built-ins and the project's)."""
    from faultlens.classifier.command_kinds import prints_a_job_log
    from faultlens.classifier.engine import Options
    from faultlens.classifier.structured import Recogniser

    argv = list(command) if isinstance(command, list | tuple) else command
    if exit_code == 0 and prints_a_job_log(argv):
        exit_code = None  # `gh run view --log-failed` exits 0 whatever the job's log holds
    return Recogniser(
        Options(
            cwd=str(cwd),
            task=task,
            command=argv,
            exit_code=exit_code,
            log_file=log_file,
            rules=rules,
        )
    )


def classify_output(
    output: bytes | IO[bytes],
    cwd: Path | str,
    *,
    task: str | None,
    command: str | Sequence[str] | None,
    exit_code: int | None = None,
    log_file: str | None = None,
    rules: Sequence[Rule] | None = None,
) -> tuple[list[FailureRecord], Recogniser]:
    """A whole output (bytes or a binary stream) classified: its records, and
    the closed recogniser (the secrets it found, the rules that failed)."""
    from faultlens.classifier.engine import CHUNK

    rec = recogniser(
        cwd, task=task, command=command, exit_code=exit_code, log_file=log_file, rules=rules
    )
    if isinstance(output, bytes | bytearray):
        rec.feed(bytes(output))
    else:
        while data := output.read(CHUNK):
            rec.feed(data)
    return rec.close(), rec


def relative_cwd(ws: Workspace, cwd: Path) -> str:
    """`cwd` as stored and stamped: relative to the workspace root, `/`-separated."""
    if not cwd.is_absolute():
        return cwd.as_posix() or "."
    return os.path.relpath(cwd, ws.root).replace(os.sep, "/")


def stamp(
    records: Sequence[FailureRecord],
    *,
    command: Sequence[str] | None,
    cwd: str | None,
    task: str | None,
) -> None:
    """Each record says once which command (redacted), folder and task it came from."""
    shown = None
    if command:
        from faultlens.classifier.redact import redact_argv

        shown = redact_argv(list(command))
    for r in records:
        if shown is not None:
            r.hint.setdefault("command", shown)
        if cwd is not None:
            r.hint.setdefault("cwd", cwd)
        if task and not r.task:
            r.task = task


# -- record ---------------------------------------------------------------------------------
class RunRecorder:
    """One run's record, from its start (the ledger row; the tree state probed
    on a thread while the command runs) to `finish` (everything else, once)."""

    def __init__(
        self,
        ws: Workspace,
        *,
        task: str | None,
        command: Sequence[str] | None,
        cwd: Path,
        ledger: Ledger | None = None,
        say: Say | None = None,
        probe: bool = True,
    ) -> None:
        from .ledger import Ledger
        from .treestate import TreeProbe

        self.ws = ws
        self.task = task
        self.command = list(command) if command else None
        self.cwd = relative_cwd(ws, cwd)
        self.say = say
        self.ledger: Ledger | None = ledger or guarded(ws, Ledger.open, ws)
        exclude = [ws.state_dir] if ws.state_dir else []
        self._where: TreeProbe | None = TreeProbe(cwd, exclude=exclude) if probe else None
        self.run_id: int | None = None
        self.started = time.time()
        self.summary: RunSummary | None = None  # the test runner's own count, when it printed one
        self.exit: ExitDecision | None = None  # the exit status with quarantine taken into account
        self.mass_failure = False  # most of the runner's tests failed: infrastructure
        if self.ledger is not None and self.command:
            self.run_id = guarded(ws, self.ledger.start_run, task, self.command, self.cwd)

    def tree(self) -> TreeState | None:
        return self._where.result() if self._where is not None else None

    def finish(
        self,
        exit_code: int | None,
        records: Sequence[FailureRecord],
        *,
        recover: bool = False,
        output: str | None = None,
        **event_fields: Any,
    ) -> list[Decided]:
        """Stamp the records; ask the team about them (flaky elsewhere,
        quarantined); write the run, its tree state, the events, what history
        adds; decide the fixes applied earlier this run covers.  `output`:
        the end of the command's output (its runner's summary)."""
        from .events import EventLog
        from .team.quarantine import decide_exit, run_summary

        stamp(records, command=self.command, cwd=self.cwd, task=self.task)
        self.summary = run_summary(self.command, output) if output else None
        if self.summary is not None:
            self.mass_failure = _mass_failure(self.ws, records, self.summary)
        for rec in records if self.mass_failure else ():
            if rec.failure_type.value == "test":  # kept out of the ledger's flaky statistics too
                rec.hint["mass_failure"] = True
        self._ask_the_team(records)
        if exit_code is not None:
            self.exit = decide_exit(exit_code, self.summary, records)
        shown = records[0].hint.get("command") if records and self.command else None
        if records:
            fields: dict[str, Any] = {"exit_code": exit_code, **event_fields}
            if shown is not None:
                fields["command"] = shown
            events = EventLog(self.ws)
            guarded(self.ws, lambda: events.emit_many("failure.classified", records, **fields))
        ledger = self.ledger
        if ledger is None:
            return []
        if self.run_id is not None:
            from . import history

            guarded(self.ws, ledger.finish_run, self.run_id, exit_code, list(records))
            guarded(self.ws, history.after_run, ledger, self.run_id, self.tree(), records, recover)
            self._tell_the_team(exit_code, records)
        from .confirm import confirm_applied

        decided: list[Decided] = (
            guarded(
                self.ws,
                confirm_applied,
                ledger,
                self.task,
                self.command or [],
                records,
                EventLog(self.ws),
            )
            or []
        )
        if self.say is not None:
            for d in decided:
                self.say(f"{d.state}: the fix applied earlier to {d.failure_id}: {d.reason}")
        return decided

    def _ask_the_team(self, records: Sequence[FailureRecord]) -> None:
        """What the team's history says of this run's test failures, in one
        read: a failing test whose command passed on this same code on
        another runner is flaky, with no local re-run; a quarantined test's
        failure is marked quarantined (`hint["quarantined"]`)."""
        from faultlens.classifier.record import Triage

        from .team.quarantine import failing_tests, mark
        from .team.reads import run_view

        tests = [r for r in records if r.failure_type.value == "test"]
        if not tests or not self.command:
            return
        names = [t for r in tests for t in failing_tests([r]) or []]
        try:
            view = run_view(self.ws, self.command, self.tree(), names)
        except Exception:  # the team's database is never the run's problem
            return
        for rec in tests if view.passed_elsewhere and not self.mass_failure else ():
            if rec.triage is None:
                rec.triage = Triage(
                    verdict="flaky",
                    reason="the same command passed on the same code on another runner "
                    "(the team's history) and failed here",
                )
        mark(tests, view.quarantined)

    def _tell_the_team(self, exit_code: int | None, records: Sequence[FailureRecord]) -> None:
        """The run for the team's history (recipes/team), when one is
        configured: queued, then sent within a small budget; never raises."""
        from .team.sync import after_run

        try:
            after_run(
                self.ws,
                command=self.command or [],
                tree=self.tree(),
                exit_code=exit_code,
                records=records,
                started=self.started,
                duration=time.time() - self.started,
                front=self.ws.settings.worker or "faultlens",
                tests_total=self.summary.total if self.summary is not None else None,
                tests_failed=self.summary.failed if self.summary is not None else None,
            )
        except Exception as exc:  # the team's database is never the run's problem
            import logging

            logging.getLogger(__name__).debug("team history: %s", exc)


def _mass_failure(ws: Workspace, records: Sequence[FailureRecord], summary: RunSummary) -> bool:
    from .team.facts import is_mass_failure
    from .team.sync import settings_for

    try:
        share = settings_for(ws).mass_failure_share
    except Exception:  # a config that cannot be read: the default share
        share = 0.8
    return is_mass_failure(records, share, summary.total, summary.failed)


# -- observe ----------------------------------------------------------------------------------
@dataclass(slots=True)
class Observation:
    """What one observed run gave."""

    exit_code: int
    records: list[FailureRecord] = field(default_factory=list)
    recorder: RunRecorder | None = None
    decided: list[Decided] = field(default_factory=list)
    first_cycle: bool = False  # a watcher stopped after its first cycle (the records are its)

    @property
    def status(self) -> int:
        """The run's exit status: the command's, or 0 when its only failures
        are quarantined tests and the runner's own summary says so."""
        decision = self.recorder.exit if self.recorder is not None else None
        return decision.exit_code if decision is not None else self.exit_code

    @property
    def run_id(self) -> int | None:
        return self.recorder.run_id if self.recorder is not None else None

    @property
    def ledger(self) -> Ledger | None:
        return self.recorder.ledger if self.recorder is not None else None


def observe_command(
    cmd: Sequence[str],
    *,
    cwd: Path,
    ws: Workspace,
    task: str | None,
    out: Sink,
    err_out: Sink,
    say: Say,
    recover: bool = False,
    watcher: Watcher | None = None,
) -> Observation:
    """Run `cmd` (no shell, in our process group: a terminal's Ctrl-C reaches
    it), copy its output through as it comes, classify and record it.
    `watcher`: `cmd` is that watcher; its first cycle is classified, and then
    it is stopped (recipes/first_cycle.py): the observation is that cycle's,
    its exit status 1 when the cycle failed, else 0."""
    from .ledger import Ledger
    from .runner import build_env, spawn

    ledger: Ledger | None = guarded(ws, Ledger.open, ws)
    if ledger is not None:
        from .crash_restore import recover_state

        recover_state(ws)  # what a killed faultlens left half done
    # The command starts first; the classifier is built and fed on a worker
    # thread started after it (its imports and rule compiling overlap the
    # command), and copying the output through never waits for classification.
    child = spawn(cmd, cwd=cwd, env=build_env(ws, {}))
    # The run's row (its argv redacted, which reads the secret detector set:
    # tens of ms) and the tree it ran on, after the command started.
    recorder = RunRecorder(ws, task=task, command=cmd, cwd=cwd, ledger=ledger, say=say)
    if isinstance(child, str):
        recorder.finish(127, [])
        from faultlens.classifier.redact import redact_argv

        say(f"cannot run {redact_argv(list(cmd[:1]))[0]}: {child}")
        return Observation(127, [], recorder)
    from .background import BackgroundClassifier
    from .proctree import reap
    from .runner import copy_through, stop_tree_on_signals
    from .team.quarantine import Tail

    classifying = BackgroundClassifier(cwd=str(cwd), task=task, command=list(cmd))
    tail = Tail()  # the end of the output: the test runner's own summary

    def to_classifier(data: bytes) -> None:
        tail.feed(data)
        classifying.feed(data)

    on_data: Callable[[bytes], None] = to_classifier
    first: FirstCycle | None = None
    if watcher is not None:
        from .first_cycle import FirstCycle, stop_watcher

        on_data = first = FirstCycle(watcher, to_classifier, stop_watcher(child))
    tree: set[int] = set()  # what the command started, when a signal stops it
    restore = stop_tree_on_signals(child.pid, tree)
    try:
        code = copy_through(child, on_stdout=out, on_stderr=err_out, on_data=on_data)
        classifier = classifying.finish()
    except BaseException:  # Ctrl-C, SIGTERM: the command is stopped; so is the worker
        classifying.abandon()
        raise
    finally:
        if first is not None:
            first.close()
        restore()
        reap(tree)
    if first is not None and first.ended:  # stopped by us: its status says nothing
        classifier.options.exit_code = None
        records = classifier.close()
        code = 1 if records else 0
        extra: dict[str, Any] = {"cycle": 1}
    else:
        classifier.options.exit_code = code
        records = classifier.close()
        extra = {}
    _say_rule_problems(classifier, cwd, say)
    decided = recorder.finish(code, records, recover=recover, output=tail.text(), **extra)
    return Observation(code, records, recorder, decided, first_cycle=bool(extra))


def _say_rule_problems(classifier: Any, cwd: Path, say: Say) -> None:
    """A project rule that is invalid or gave up while classifying (a pattern
    that backtracks without end, an errorformat or a rule that raised): one
    line each, once; the other rules classified the output."""
    from faultlens.classifier.config import rule_failure

    lines = list(classifier.config_errors)
    lines += [rule_failure(cwd, rid, error)[1] for rid, error in classifier.rule_errors]
    for line in dict.fromkeys(lines):
        say(line)
