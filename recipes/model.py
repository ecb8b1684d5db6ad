"""The data the recipe engine passes around: workspace, plans, outcomes.

Plain dataclasses, no I/O.  These names are the public contract of
`faultlens.recipes` (see the package docstring); the language server and the
CLI build on them and on nothing else.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

# "applied": the fix was made and nothing has verified it yet (no command is
# known for the failure: ingested output, a log): recovered only when the
# next run of it no longer reports it (recipes/confirm.py).
Result = Literal["recovered", "escalated", "skipped", "applied"]
VerifyBy = Literal["id", "exit", "check", "none"]

DEFAULT_TASK = "default"


class UnsafeEdit(ValueError):
    """An edit or command would reach outside the workspace, or a value taken
    from tool output failed validation."""


class ApplyError(RuntimeError):
    """Edits could not be applied; every file was left as it was."""


class StateUnavailable(RuntimeError):
    """The state dir (ledger, journal, logs) cannot be used: it is read-only,
    full, or a symlink out of the workspace.  The message is one line."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class RecipeSettings:
    """Limits and knobs of the engine (every field defaulted)."""

    max_task_retries: int = 2
    backoff: tuple[float, ...] = (1.0, 2.0, 4.0)
    infra_max_retries: int = 3
    verify: bool = True
    verify_timeout: float = 600.0
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], datetime] = _utc_now
    worker: str = "faultlens"
    # The agent session on whose behalf the engine works (MCP client, hook), if any.
    session: str | None = None
    # Extra environment for every command the engine runs (merged over os.environ).
    env: dict[str, str] = field(default_factory=dict)
    # Verification by something other than running the command again: given the
    # step and the record (None: the whole original command), the output that
    # stands for the re-run (watch mode: the watcher's next cycle), or None to
    # run the step as usual.
    rerun: Callable[[CommandStep, FailureRecord | None], Rerun | None] | None = None


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _vet_state_dir(roots: list[Path], lexical: Path) -> tuple[Path, str | None]:
    """(where the state lives, why it cannot be used or None).

    A state dir inside a root (the default `<root>/.faultlens`) is workspace
    content: a checkout may have made it, or a folder above it, a symlink.  It
    is used only when it resolves inside a root and outside any `.git`.  A
    state dir chosen outside the roots (`--state-dir`, the editor's setting)
    is the user's choice and is used as it resolves."""
    real = Path(os.path.realpath(lexical))
    for root in roots:
        if _within(str(real), str(root)):
            if any(p.casefold() == ".git" for p in real.relative_to(root).parts):
                return real, f"the state dir {lexical} is inside a .git folder ({real})"
            return real, None
    tops = [str(r) for r in roots]
    in_workspace = any(_within(os.path.realpath(p), top) for p in lexical.parents for top in tops)
    if not in_workspace:
        return real, None
    shown = lexical.name if lexical.parent in roots else str(lexical)
    return real, (
        f"the state dir {shown} is a symlink to {real}, outside the workspace:"
        " nothing is written there"
    )


@dataclass(slots=True)
class Workspace:
    """The folders a recipe may touch and where the state lives.

    `roots[0]` is the main root; `state_dir` defaults to `<root>/.faultlens`.
    `state` refuses (StateUnavailable) a state dir that a checkout turned
    into a symlink out of the workspace; `state_problem` says why.
    """

    roots: list[Path]
    state_dir: Path | None = None
    settings: RecipeSettings = field(default_factory=RecipeSettings)
    state_problem: str | None = field(default=None, init=False)
    _lexical: Path = field(default=Path(), init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.roots:
            raise ValueError("a workspace needs at least one root")
        self.roots = [Path(r).resolve() for r in self.roots]
        lexical = self.roots[0] / ".faultlens" if self.state_dir is None else self.state_dir
        self._lexical = Path(os.path.abspath(lexical))
        self.state_dir, self.state_problem = _vet_state_dir(self.roots, self._lexical)

    @property
    def root(self) -> Path:
        return self.roots[0]

    @property
    def state(self) -> Path:
        """The state dir; StateUnavailable when it may not be used.  Checked
        again on every use (a checkout may replace the folder by a link)."""
        assert self.state_dir is not None
        if os.path.realpath(self._lexical) != str(self.state_dir):
            self.state_dir, self.state_problem = _vet_state_dir(self.roots, self._lexical)
        if self.state_problem is not None:
            raise StateUnavailable(self.state_problem)
        return self.state_dir

    @classmethod
    def at(cls, root: str | Path, **kwargs: Any) -> Workspace:
        return cls(roots=[Path(root)], **kwargs)


@dataclass(slots=True)
class TextEdit:
    """Replace a range of a workspace file (0-based line, 0-based code-point column,
    end exclusive) with `new_text`.  An insertion has start == end.  A file that does
    not exist yet may be created by a single insertion at 0:0."""

    path: str
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    new_text: str


@dataclass(slots=True)
class CommandStep:
    """A command to run: an argv list of validated values, never a shell."""

    argv: list[str]
    cwd: str = "."
    env: dict[str, str] = field(default_factory=dict)
    timeout: float = 600.0

    def display(self) -> str:
        """The step as shown in titles, logs and boxes: secrets masked."""
        from faultlens.classifier.redact import shown_command

        return shown_command(self.argv)


@dataclass(slots=True)
class Rerun:
    """What stood for re-running a command (`RecipeSettings.rerun`): the exit
    status it counts as (None: unknown), the failures found, the output's
    tail, how it was obtained ("the watcher's next cycle (tsc)"), or why
    nothing could be obtained (`error`)."""

    exit_code: int | None
    records: list[FailureRecord]
    tail: str
    how: str
    error: str | None = None


@dataclass(slots=True)
class VerifyResult:
    """What a verification found."""

    ok: bool
    reason: str
    exit_code: int | None = None
    records: list[FailureRecord] = field(default_factory=list)
    output_tail: str = ""
    full_rerun: bool = False


@dataclass(slots=True)
class Plan:
    """What a recipe will do for one failure."""

    failure_id: str
    failure_type: str
    title: str
    summary: str
    edits: list[TextEdit] = field(default_factory=list)
    commands: list[CommandStep] = field(default_factory=list)
    verify: CommandStep | None = None
    automatic: bool = True
    # -- engine extensions (all defaulted) ----------------------------------
    # How verification decides: "id" (the record's id gone from the re-run's
    # output), "exit" (the re-run exits 0), "check" (call `check`), "none".
    verify_by: VerifyBy = "id"
    check: Callable[[], VerifyResult] | None = None
    # Run the verification up to 1 + retries times until it passes; backoff[i] is
    # the pause (through settings.sleep) before run i; an empty backoff: no pauses.
    retries: int = 0
    backoff: tuple[float, ...] = ()
    # What an unsuccessful attempt becomes: escalated, or skipped (degraded work goes on).
    on_failure: Literal["escalated", "skipped"] = "escalated"
    # What the recipe's success means, for the log ("flaky test", "import added").
    success_note: str = ""
    details: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Refusal:
    """No plan: why, and what a human could do instead."""

    reason: str
    suggestions: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    # What the failure becomes when the engine meets this refusal in `attempt`.
    result: Literal["escalated", "skipped"] = "escalated"


@dataclass(slots=True)
class Option:
    """One choice left to a human (the seed's `[retry TASK-007] - ...`)."""

    id: str
    label: str
    description: str


@dataclass(slots=True)
class Outcome:
    """The result of one attempt (or of an immediate escalation)."""

    record: FailureRecord
    result: Result
    tried: str
    reason: str
    options: list[Option] = field(default_factory=list)
    box: str | None = None
    details: list[str] = field(default_factory=list)
    verified: bool = False
    exit_code: int | None = None  # of the last verification command, when one ran
    full_rerun: bool = False  # that command was the one that produced the failure
    new_records: list[FailureRecord] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "record": self.record.to_json(),
            "result": self.result,
            "tried": self.tried,
            "reason": self.reason,
            "options": [
                {"id": o.id, "label": o.label, "description": o.description} for o in self.options
            ],
            "box": self.box,
            "details": list(self.details),
            "verified": self.verified,
            "exit_code": self.exit_code,
        }


@dataclass(slots=True)
class Availability:
    """Whether the recipe is offered for a record, and enabled (anti-loop)."""

    offered: bool
    enabled: bool
    reason: str | None
    attempts: int
    task_retries_used: int
    max_task_retries: int


TaskStatus = Literal["active", "retrying", "skipped", "stopped", "failed", "completed"]


@dataclass(slots=True)
class TaskState:
    """A task as the ledger knows it, and the answer to a retry/skip/stop."""

    task: str
    status: str
    retries_used: int
    max_retries: int
    accepted: bool = True
    message: str = ""


@dataclass(slots=True)
class RecipeDoc:
    """A recipe's documentation (recipes/<type>.md or the project override)."""

    failure_type: str
    title: str
    summary: str
    body_markdown: str
    front_matter: dict[str, Any]
    path: str
    overridden: bool = False


@dataclass(slots=True)
class ResolvableHunk:
    """One conflict hunk as an LSP edit sees it (found by classifier/conflicts.scan):
    0-based line numbers of `<<<<<<<`, `=======`, `>>>>>>>`, and the sides' text."""

    start_line: int
    mid_line: int
    end_line: int
    ours: str
    theirs: str
    path: str = ""
    base_line: int | None = None  # the `|||||||` line of a diff3 hunk
