"""The operations an agent calls: classify, run, recover, status, explain.

The MCP server (`agents/mcp_server.py`) is a thin adapter over these; so is
the hook adapter for what it needs.  They share the CLI's and the language
server's state: the same workspace, ledger and lifecycle log, so an attempt
made by the editor is one an agent cannot make again, and the reverse.

Every path an agent names is resolved and must lie inside the workspace root
the server was started for; a file to classify must be a regular file.  A
refusal is an `AgentError` whose text is one line.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from faultlens.classifier.record import FailureRecord

from .compact import (
    MAX_ESCALATION,
    MAX_FAILURES,
    AgentFailure,
    ClassifyResult,
    Group,
    bounded_note,
    classify_result,
    compact,
    group_of,
)
from .team_view import TeamFailureView, team_lines, team_view

MAX_OUTPUT_BYTES = 64 * 1024 * 1024  # what `classify` reads of one output
OUTPUT_TAIL = 4000  # characters of a command's output returned by `run`


class AgentError(Exception):
    """A request an agent made that cannot be served; the text is one line."""


@dataclass(slots=True, frozen=True)
class Caller:
    """Who is calling: the agent (worker) and its session, for the lifecycle log."""

    agent: str = "mcp"
    session: str | None = None


# -- results --------------------------------------------------------------------
class AttemptView(BaseModel):
    """One recovery attempt made during a run or by `recover`."""

    model_config = ConfigDict(extra="forbid")

    failure_id: str
    failure_type: str
    result: str = Field(description="recovered, escalated or skipped.")
    tried: str
    reason: str


class RunResult(BaseModel):
    """The answer of the `run` tool."""

    model_config = ConfigDict(extra="forbid")

    exit_code: int = Field(description="The exit status of the last run of the command.")
    failures: list[AgentFailure]
    groups: list[Group]
    attempts: list[AttemptView]
    truncated: bool
    output_tail: str = Field(description=f"The last {OUTPUT_TAIL} characters of the output.")
    escalation: str | None = Field(
        default=None, description="The boxed escalation note, when something was escalated."
    )
    timed_out: bool = Field(
        default=False, description="The command was stopped when the call's timeout passed."
    )
    first_cycle: bool = Field(
        default=False,
        description="The command is a watcher (tsc --watch, vitest, nodemon...): it was "
        "stopped after its first cycle, whose failures these are (exit_code: 1 when that "
        "cycle failed, else 0).",
    )


class RecoverResult(BaseModel):
    """The answer of the `recover` tool."""

    model_config = ConfigDict(extra="forbid")

    failure_id: str
    result: str = Field(description="recovered, escalated or skipped.")
    tried: str
    reason: str
    escalation: str | None = None
    options: list[str] = Field(default_factory=list, description="What a human may choose.")
    truncated: bool = Field(default=False, description="True when the escalation was cut.")


class TaskView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    status: str
    retries: int
    attempts: dict[str, int]


class EscalationView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    failure_id: str
    task: str
    failure_type: str
    where: str
    tried: str
    reason: str
    team: str | None = Field(
        default=None,
        description="The team's history of this failure (every runner), when a team database "
        "is configured: 'seen 14× on 6 machines since 1 Dec; flaky 5 of 14; ...'.",
    )


class SessionView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    worker: str
    session: str | None
    events: int
    last: str


class StatusResult(BaseModel):
    """The answer of the `status` tool: the ledger shared with CLI and editor."""

    model_config = ConfigDict(extra="forbid")

    tasks: list[TaskView]
    escalations: list[EscalationView]
    agents: list[SessionView] = Field(description="Agent sessions seen in the lifecycle log.")
    team: list[TeamFailureView] = Field(
        default_factory=list,
        description="The failures the team has seen most (its history database, every runner), "
        "as `faultlens status --history` shows them; empty without one.",
    )
    team_unavailable: str | None = Field(
        default=None, description="Why the team's history could not be read (one line)."
    )


class ExplainResult(BaseModel):
    """The answer of the `explain` tool."""

    model_config = ConfigDict(extra="forbid")

    failure_id: str
    state: str = Field(description="never tried, pending, recovered, escalated or skipped.")
    box: str | None = Field(default=None, description="The boxed escalation note.")
    options: list[str]
    recipe: str = Field(description="The recipe document (markdown) of the failure's category.")
    truncated: bool = Field(default=False, description="True when the box was cut.")


# -- the workspace ----------------------------------------------------------------
class Agents:
    """The operations, bound to one workspace root (the MCP server's)."""

    def __init__(self, root: Path, caller: Caller, state_dir: Path | None = None) -> None:
        self.root = root.resolve()
        self.caller = caller
        self.state_dir = state_dir

    def workspace(self) -> Any:
        from faultlens.recipes import RecipeSettings, Workspace

        settings = RecipeSettings(worker=self.caller.agent, session=self.caller.session)
        return Workspace(roots=[self.root], state_dir=self.state_dir, settings=settings)

    def recover_state(self) -> None:
        """What every start does: undo a killed faultlens' interrupted work, close
        its pending attempts (recipes/crash_restore.py; never raises for state)."""
        from faultlens.recipes.crash_restore import recover_state

        try:
            recover_state(self.workspace())
        except Exception as exc:  # a state dir that cannot even be named: said by each tool
            import logging

            logging.getLogger(__name__).warning("state recovery skipped: %s", exc)

    def folder(self, cwd: str | None) -> Path:
        """`cwd` (relative to the root, or absolute), resolved; inside the root."""
        target = (self.root / cwd).resolve() if cwd else self.root
        if not target.is_relative_to(self.root):
            raise AgentError(f"cwd {cwd!r} is outside the workspace {self.root}")
        if not target.is_dir():
            raise AgentError(f"cwd {cwd!r} is not a directory")
        return target

    def _has_ledger(self, ws: Any) -> bool:
        return bool((ws.state / "ledger.sqlite3").is_file())

    def allowed(self, ws: Any) -> Any:
        """The compact view's "attempt still allowed" lookup (never writes state)."""
        from faultlens.recipes import availability
        from faultlens.recipes.lifecycle.claim import is_never_automatic, never_automatic
        from faultlens.recipes.planners import get_planner

        has_ledger = self._has_ledger(ws)

        def check(record: FailureRecord) -> tuple[bool, str | None]:
            ft = record.failure_type.value
            if is_never_automatic(ft):
                return False, never_automatic(ft)
            if get_planner(ft) is None:
                return False, f"no automatic recipe for {ft}"
            if not has_ledger:
                return True, None
            avail = availability(record, ws)
            return avail.enabled, avail.reason

        return check

    # -- classify ---------------------------------------------------------------------
    def classify(
        self,
        *,
        output: str | None = None,
        path: str | None = None,
        cwd: str | None = None,
        command: str | Sequence[str] | None = None,
        exit_code: int | None = None,
        task: str | None = None,
    ) -> ClassifyResult:
        """Classify `output` (text) or the file at `path`; read-only."""
        from faultlens.recipes.observe import classify_output

        if (output is None) == (path is None):
            raise AgentError("give exactly one of output or path")
        folder = self.folder(cwd)
        if output is not None:
            records, _ = classify_output(
                output.encode("utf-8", "replace"),
                folder,
                task=task,
                command=command,
                exit_code=exit_code,
            )
        else:
            assert path is not None
            with self._open_output(folder, path) as fh:
                records, _ = classify_output(
                    fh, folder, task=task, command=command, exit_code=exit_code, log_file=path
                )
        return classify_result(records, self.allowed(self.workspace()))

    def _open_output(self, folder: Path, path: str) -> io.BufferedReader:
        target = (folder / path).resolve()
        if not target.is_relative_to(self.root):
            raise AgentError(f"path {path!r} is outside the workspace {self.root}")
        try:
            fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError as exc:
            raise AgentError(f"cannot read {path}: {exc.strerror or exc}") from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise AgentError(f"{path} is not a regular file")
        if info.st_size > MAX_OUTPUT_BYTES:
            os.close(fd)
            raise AgentError(f"{path} is larger than {MAX_OUTPUT_BYTES // (1024 * 1024)} MiB")
        os.set_blocking(fd, True)
        return io.BufferedReader(io.FileIO(fd, "rb"))

    # -- run ------------------------------------------------------------------------------
    def run(
        self,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        task: str | None = None,
        recover: bool = False,
    ) -> RunResult:
        """Run a command (argv; a string is split like a shell would, never run by
        one), classify its output, and with `recover` make the one attempt."""
        import shlex

        from faultlens.classifier.cycles import watcher_for
        from faultlens.recipes.run_and_recover import run_command

        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise AgentError("no command given")
        # A watcher never exits: the answer is its first cycle (then it is
        # stopped), as `faultlens run -- <watcher>` reads its cycles.
        folder = self.folder(cwd)
        ws = self.workspace()
        out = io.BytesIO()
        err_text = io.StringIO()
        report = run_command(
            argv,
            cwd=folder,
            ws=ws,
            task=task,
            recover=recover,
            out=out,
            err_bytes=out,
            err=err_text,
            watcher=watcher_for(argv),
        )
        if report.exit_code == 127 and not report.records and not out.getvalue():
            raise AgentError(err_text.getvalue().strip().removeprefix("faultlens: "))
        records = [o.record for o in report.outcomes] or report.records
        result = classify_result(records, self.allowed(ws))
        tail = out.getvalue().decode("utf-8", "replace")[-OUTPUT_TAIL:]
        # The task's one box (each escalated outcome carries the same one), bounded.
        box = report.box or next(
            (o.box for o in report.outcomes if o.result == "escalated" and o.box), None
        )
        escalation, cut = bounded_note(box)
        from faultlens.recipes.lifecycle.tally import one_per_failure

        # one per failure, as the summary and `status` count them
        attempts = [_attempt_view(o) for o in one_per_failure(report.outcomes)]
        return RunResult(
            exit_code=report.exit_code,
            failures=result.failures,
            groups=result.groups,
            attempts=attempts[:MAX_FAILURES],
            truncated=result.truncated or cut or len(attempts) > MAX_FAILURES,
            output_tail=_redacted(tail),
            escalation=escalation,
            first_cycle=report.first_cycle,
        )

    # -- recover ----------------------------------------------------------------------------
    def _stored(self, ws: Any, failure_id: str) -> tuple[FailureRecord, Any]:
        from faultlens.recipes.explain import NotStored, stored_failure

        try:
            return stored_failure(ws, failure_id)
        except NotStored as exc:
            raise AgentError(str(exc)) from None

    def recover(self, failure_id: str, *, task: str | None = None) -> RecoverResult:
        """Apply the failure's recipe once; a second call gets the escalation."""
        from faultlens.recipes import attempt

        ws = self.workspace()
        record, run = self._stored(ws, failure_id)
        if task:
            record.task = task
        outcome = attempt(record, ws, command=run.argv, cwd=run.cwd)
        escalation, cut = bounded_note(outcome.box)
        return RecoverResult(
            failure_id=record.id,
            result=outcome.result,
            tried=outcome.tried,
            reason=outcome.reason,
            escalation=escalation,
            options=[f"{o.label} - {o.description}" for o in outcome.options],
            truncated=cut,
        )

    # -- status and explain ----------------------------------------------------------------
    def status(self) -> StatusResult:
        from faultlens.recipes import EventLog, Ledger

        ws = self.workspace()
        sessions = [SessionView(**s) for s in EventLog(ws).sessions()]
        team, why_not = team_view(ws)
        if not self._has_ledger(ws):
            return StatusResult(
                tasks=[], escalations=[], agents=sessions, team=team, team_unavailable=why_not
            )
        data = Ledger.open(ws).status()
        tasks = [
            TaskView(
                task=t["task"], status=t["status"], retries=t["retries"], attempts=t["attempts"]
            )
            for t in data["tasks"]
        ]
        escalations = [
            EscalationView(
                failure_id=e["failure_id"],
                task=e["task"],
                failure_type=e["failure_type"],
                where=_where(e.get("record") or {}),
                tried=e["tried"],
                reason=e["reason"],
            )
            for e in data["escalations"]
        ]
        team_lines(ws, escalations)
        return StatusResult(
            tasks=tasks,
            escalations=escalations,
            agents=sessions,
            team=team,
            team_unavailable=why_not,
        )

    def explain(self, failure_id: str, *, limit: int | None = MAX_ESCALATION) -> ExplainResult:
        """A stored failure's state, box (cut to `limit` characters; None: whole)
        and options, with its category's recipe document."""
        from faultlens.recipes.explain import NotStored, explain

        try:
            found = explain(self.workspace(), failure_id)
        except NotStored as exc:
            raise AgentError(str(exc)) from None
        box, cut = bounded_note(found.box, limit)
        return ExplainResult(
            failure_id=found.failure_id,
            state=found.state,
            box=box,
            options=found.options,
            recipe=found.recipe,
            truncated=cut,
        )


def _attempt_view(outcome: Any) -> AttemptView:
    return AttemptView(
        failure_id=outcome.record.id,
        failure_type=outcome.record.failure_type.value,
        result=outcome.result,
        tried=outcome.tried,
        reason=outcome.reason,
    )


def _where(record: dict[str, Any]) -> str:
    where = str(record.get("source_file") or "-")
    if record.get("source_line"):
        where += f":{record['source_line']}"
    return where


def _redacted(text: str) -> str:
    from faultlens.classifier.redact import redact

    return redact(text)


__all__ = ["AgentError", "Agents", "Caller", "ClassifyResult", "compact", "group_of"]
